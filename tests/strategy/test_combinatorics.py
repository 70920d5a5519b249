"""The finite sets a turn is made of: 252 rolls, 462 keeps, and the probabilities."""

from itertools import product
from math import isclose

import numpy as np
import pytest

from scoring.boxgames.strategy.turn import best_keeps, keep_values
from scoring.strategy.combinatorics import dice_space, probability, sub_multisets

SPACE = dice_space(5)


def test_there_are_252_rolls_and_462_keeps() -> None:
    assert SPACE.n_rolls == len(set(SPACE.rolls)) == 252
    assert SPACE.n_keeps == len(set(SPACE.keeps)) == 462
    assert sum(1 for keep in SPACE.keeps if len(keep) < 5) == SPACE.n_partial == 210
    assert all(list(roll) == sorted(roll) for roll in SPACE.rolls)


def test_keeps_of_all_five_dice_are_the_rolls_in_the_same_order() -> None:
    assert SPACE.keeps[SPACE.n_partial :] == SPACE.rolls


def test_every_keep_leads_to_rolls_with_probabilities_summing_to_one() -> None:
    assert np.allclose(SPACE.transition.sum(axis=1), 1.0)
    assert isclose(SPACE.first_roll.sum(), 1.0)


def test_first_roll_probabilities_match_counting_all_7776_throws() -> None:
    counts = np.zeros(SPACE.n_rolls)
    for throw in product(range(1, 7), repeat=5):
        counts[SPACE.roll_index[tuple(sorted(throw))]] += 1
    assert np.allclose(SPACE.first_roll, counts / 6**5)
    assert isclose(SPACE.first_roll[SPACE.roll_index[(1, 1, 1, 1, 1)]], 1 / 7776)
    assert isclose(SPACE.first_roll[SPACE.roll_index[(1, 2, 3, 4, 5)]], 120 / 7776)


def test_a_roll_cannot_come_from_a_keep_it_does_not_contain() -> None:
    assert probability((1, 1, 2, 3, 4), (5,)) == 0.0
    assert probability((1, 1, 2, 3, 4), (1, 1, 1)) == 0.0
    assert isclose(probability((1, 1, 2, 3, 4), (1, 1, 2)), 2 / 36)


@pytest.mark.parametrize(
    ("dice", "count"),
    [((1, 2, 3, 4, 5), 32), ((6, 6, 6, 6, 6), 6), ((1, 1, 2, 2, 3), 18), ((2, 2, 2, 5, 5), 12)],
)
def test_sub_multisets_are_every_distinct_keep(dice: tuple[int, ...], count: int) -> None:
    keeps = sub_multisets(dice)
    assert len(keeps) == len(set(keeps)) == count
    assert () in keeps and tuple(sorted(dice)) in keeps


def test_one_die_at_a_time_equals_the_transition_matrix() -> None:
    rng = np.random.default_rng(3)
    rolls = rng.random((SPACE.n_rolls, 4))
    keeps = keep_values(SPACE, rolls)
    assert np.allclose(keeps[: SPACE.n_partial], SPACE.transition @ rolls)
    assert np.array_equal(keeps[SPACE.n_partial :], rolls)


def test_best_keep_is_the_maximum_over_every_sub_multiset() -> None:
    rng = np.random.default_rng(4)
    keeps = rng.random((SPACE.n_keeps, 3))
    best = best_keeps(SPACE, keeps.copy())
    for r, roll in enumerate(SPACE.rolls):
        subs = [SPACE.keep_index[keep] for keep in sub_multisets(roll)]
        assert np.array_equal(best[r], keeps[subs].max(axis=0))
