"""Forced Yatzy (docs/games/yatzy.md, "`forced-yatzy`"): as Yatzy, but each turn must fill the
next open box in the order of the table, and the API accepts only that box (scoring or
scratching it).  Also the reference value for solitaire optimal play, recomputed here."""

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, factorial

import pytest
from yatzy_support import (
    FORCED,
    PLAIN,
    UPPER,
    YATZY,
    YATZY_BOXES,
    YATZY_LOWER,
    card,
    refused,
    scores,
    table,
)

import scoring

param = pytest.param
PLAIN5 = PLAIN["forced-yatzy"]


# -- only the next open box ------------------------------------------------------------

def test_the_first_turn_offers_only_ones():
    game = table(FORCED)
    game.roll(1, 1, 6, 6, 6)
    assert game.view().choices == {"ones": 2}


def test_each_turn_offers_only_the_next_box_in_table_order():
    game = table(FORCED)
    for round_number, box in enumerate(YATZY_BOXES, start=1):
        game.roll(6, 6, 6, 6, 6)
        view = game.view()
        assert view.round == round_number
        assert list(view.choices) == [box]
        game.fill(box)
    view = game.view()
    assert view.finished
    # five sixes in every box: 30 in sixes, 0 in the other upper boxes (no bonus), and
    # 12 + 0 + 18 + 24 + 0 + 0 + 0 + 30 + 50 below
    assert view.totals == [30 + 12 + 18 + 24 + 30 + 50]


OTHER_BOXES = [box for box in YATZY_BOXES if box != "ones"]


@pytest.mark.parametrize("box", OTHER_BOXES)
@pytest.mark.parametrize("action", ["score", "scratch"])
def test_any_box_but_the_next_is_not_allowed(action, box):
    game = table(FORCED)
    game.roll(6, 6, 6, 6, 6)
    refused("category_not_allowed", game, action, {"category": box})


@pytest.mark.parametrize("action", ["score", "scratch"])
def test_a_later_box_is_not_allowed_midway_through_the_card(action):
    game = table(FORCED)
    for box in UPPER:
        game.turn(PLAIN5, box)
    game.roll(2, 3, 4, 5, 6)
    assert game.view().choices == {"one_pair": 0}
    refused("category_not_allowed", game, action, {"category": "large_straight"})
    refused("category_filled", game, action, {"category": "sixes"})
    refused("unknown_category", game, action, {"category": "yahtzee"})
    game.fill("one_pair", scratch=action == "scratch")
    assert game.card()["one_pair"] == 0


def test_the_refusal_names_the_one_box_allowed():
    game = table(FORCED)
    game.roll(*PLAIN5)
    with pytest.raises(scoring.RuleError) as error:
        game.fill("chance")
    assert "ones" in str(error.value)


@pytest.mark.parametrize(
    ("dice", "points"),
    [param([1, 1, 1, 1, 1], 5, id="five-ones"), param([2, 3, 4, 5, 6], 0, id="no-ones")],
)
def test_scratching_the_next_box_is_allowed_and_enters_zero(dice, points):
    game = table(FORCED)
    game.roll(*dice)
    assert game.view().choices == {"ones": points}
    (scratched,) = game.fill("ones", scratch=True).events
    assert scratched.type == "scratched"
    assert scratched.data["points"] == 0
    assert game.card()["ones"] == 0
    game.roll(2, 2, 2, 2, 2)
    assert game.view().choices == {"twos": 10}


def test_each_seat_follows_the_order_of_its_own_card():
    game = table(FORCED, seats=2)
    game.turn(PLAIN5, "ones")
    game.roll(*PLAIN5)
    assert game.view().choices == {"ones": 1}          # seat 1 starts its own card
    refused("category_not_allowed", game, "score", {"category": "twos"})
    game.fill("ones")
    game.roll(*PLAIN5)
    assert game.view().choices == {"twos": 2}


# -- the calculator --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("filled", "answer"),
    [
        param({}, {"ones": 0}, id="empty-card-ones"),
        param({"ones": 0, "twos": 4}, {"threes": 0}, id="after-twos-threes"),
        param(dict.fromkeys(UPPER, 0), {"one_pair": 12}, id="after-the-upper-boxes"),
        param({"ones": 1, "threes": 3}, {"twos": 0}, id="a-gap-is-filled-first"),
        param({**dict.fromkeys(YATZY_BOXES, 0), "yatzy": None}, {"yatzy": 0}, id="last-box"),
        param(dict.fromkeys(YATZY_BOXES, 0), {}, id="full-card-nothing"),
    ],
)
def test_given_a_scorecard_the_calculator_answers_only_the_next_open_box(filled, answer):
    assert scores(FORCED, [6, 6, 6, 5, 5], card(FORCED, **filled)) == answer


def test_given_a_partial_scorecard_the_calculator_takes_it_as_the_rest_open():
    assert scores(FORCED, [6, 6, 6, 5, 5], {"ones": 0, "twos": 0}) == {"threes": 0}


def test_without_a_scorecard_the_calculator_values_the_dice_in_every_box():
    assert scores(FORCED, [6, 6, 6, 5, 5]) == scores(YATZY, [6, 6, 6, 5, 5])


# -- the reference value for solitaire optimal play ------------------------------------

def chance_of(dice: tuple[int, ...]) -> float:
    """The chance that throwing ``len(dice)`` dice gives these faces in some order."""
    ways = factorial(len(dice))
    for count in Counter(dice).values():
        ways //= factorial(count)
    return ways / 6 ** len(dice)


Faces = tuple[int, ...]


@cache
def turn_tables() -> tuple[
    list[tuple[Faces, float]], dict[Faces, set[Faces]], dict[Faces, list[tuple[Faces, float]]]
]:
    """The first throw's outcomes; the holds each set of five dice allows; and what each
    hold can become after a reroll, with its chance."""
    throws = {
        n: [(faces, chance_of(faces)) for faces in combinations_with_replacement(range(1, 7), n)]
        for n in range(6)
    }
    holds_of = {
        faces: {kept for n in range(6) for kept in combinations(faces, n)}
        for faces, _ in throws[5]
    }
    every_hold = set().union(*holds_of.values())
    after = {
        kept: [(tuple(sorted(kept + new)), p) for new, p in throws[5 - len(kept)]]
        for kept in every_hold
    }
    return throws[5], holds_of, after


def best_expected_points(box: str) -> float:
    """The expected points of ``box`` when a whole turn of three rolls is played for it
    alone, holding the best dice before each reroll (exact dynamic programming)."""
    first, holds_of, after = turn_tables()
    value = {faces: scores(YATZY, faces)[box] for faces, _ in first}
    for _reroll in range(2):
        held = {kept: sum(p * value[faces] for faces, p in outcomes)
                for kept, outcomes in after.items()}
        value = {faces: max(held[kept] for kept in holds) for faces, holds in holds_of.items()}
    return sum(p * value[faces] for faces, p in first)


def best_expected_upper_with_bonus() -> float:
    """The upper boxes in order, each turn holding every die of its face (which is best:
    more of the face never lowers the box nor the chance of the bonus).  A die then shows
    the face by the third roll with chance 1 - (5/6)^3, independently of the others."""
    hit = 1 - (5 / 6) ** 3
    count_chance = [comb(5, c) * hit**c * (1 - hit) ** (5 - c) for c in range(6)]
    after = {total: (50 if total >= 63 else 0) for total in range(64)}
    for face in range(6, 0, -1):
        after = {
            total: sum(
                p * (face * c + after[min(63, total + face * c)])
                for c, p in enumerate(count_chance)
            )
            for total in range(64)
        }
    return after[0]


def test_optimal_solitaire_play_expects_the_reference_122_5585():
    # In forced order the lower boxes do not depend on each other nor on the upper ones:
    # the expected total is the upper part (with its bonus) plus each lower box's best turn.
    expected = best_expected_upper_with_bonus() + sum(
        best_expected_points(box) for box in YATZY_LOWER
    )
    assert expected == pytest.approx(122.5585, abs=5e-5)
