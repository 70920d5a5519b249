"""Ten Thousand computers: the classic player follows the rule text on hand-picked
throws, the optimal player's dynamic programme holds hand-checked values and beats the
classic player, and greedy and random stay within the rules."""

import random
from pathlib import Path

import pytest

from scoring import get_ruleset
from scoring.commands import Bank, Command, Roll
from scoring.ruleset import State
from scoring.strategy.duel import duel, score, wilson
from scoring.strategy.tenthousand import (
    CAP_MARGIN,
    classic_combinations,
    classic_move,
    greedy_move,
    optimal_move,
    random_move,
    throws,
    turn_values,
)
from scoring.tenthousand import best_selection, selection_value

TEN = get_ruleset("ten-thousand")
DEFAULTS = TEN.validate_options({})


def throw_state(
    free: list[int], turn_points: int = 0, total: int = 0, aside: list[int] | None = None
) -> State:
    """A turn after a throw: the ``free`` dice were just thrown, the others (faces
    ``aside``, default 2s) were set aside earlier with ``turn_points``."""
    aside = aside or [2] * (6 - len(free))
    state = TEN.new_state(seats=2, options=DEFAULTS)
    state.update(
        dice=aside + free,
        set_aside=[True] * len(aside) + [False] * len(free),
        turn_points=turn_points,
        totals=[total, 0],
    )
    return state


def apply(state: State, move: Command, options: dict = DEFAULTS) -> list:
    """The engine's events for the move (a refused move raises)."""
    outcome = TEN.move(state, seat=state["current"], command=move, options=options,
                       rng=random.Random(3))
    return outcome.events


# -- classic -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "combinations"),
    [
        ([1, 1, 1, 1, 5, 2], [[0, 1, 2, 3], [4]]),
        ([1, 2, 3, 4, 5, 6], [[0, 1, 2, 3, 4, 5]]),
        ([2, 2, 2, 3, 4, 6], [[0, 1, 2]]),
        ([5, 5, 5, 1, 1, 1], [[3, 4, 5], [0, 1, 2]]),  # equal counts: 1s first
        ([2, 2, 2, 6, 6, 6], [[3, 4, 5], [0, 1, 2]]),  # then 6 before 2
        ([3, 3, 3, 5, 5, 5], [[3, 4, 5], [0, 1, 2]]),  # 5 before 3
        ([4, 4, 4, 4, 2, 2], [[0, 1, 2, 3]]),
        ([5, 5, 5, 5, 1, 1], [[0, 1, 2, 3], [4], [5]]),  # largest first, then single 1s
        ([6, 6, 6, 6, 6, 6], [[0, 1, 2, 3, 4, 5]]),
        ([5, 3, 1], [[2], [0]]),  # each single 1, then each single 5
        ([5, 1, 5, 1], [[1], [3], [0], [2]]),
        ([2, 3], []),
    ],
)
def test_classic_sets_aside_in_the_rule_texts_order(
    faces: list[int], combinations: list[list[int]]
) -> None:
    assert classic_combinations(faces) == combinations


def test_classic_four_ones_and_a_five_then_banks() -> None:
    # 2000 + 50 = 2050 >= 350 with one die still free: it banks.
    state = throw_state([1, 1, 1, 1, 5, 2])
    move = classic_move(state, DEFAULTS)
    assert move == Bank(set_aside=(0, 1, 2, 3, 4))
    banked = [e for e in apply(state, move) if e.type == "banked"]
    assert banked[0].data == {"points": 2050, "total": 2050}


def test_classic_throws_the_straight_and_then_all_six_again() -> None:
    state = throw_state([1, 2, 3, 4, 5, 6])
    move = classic_move(state, DEFAULTS)
    assert move == Roll(set_aside=(0, 1, 2, 3, 4, 5))
    rolled = [e for e in apply(state, move) if e.type == "rolled"]
    assert rolled[0].data["thrown"] == [0, 1, 2, 3, 4, 5]


def test_classic_below_350_takes_the_triple_and_throws_three_dice() -> None:
    state = throw_state([2, 2, 2, 3, 4, 6])  # 200 < 350
    move = classic_move(state, DEFAULTS)
    assert move == Roll(set_aside=(0, 1, 2))
    rolled = [e for e in apply(state, move) if e.type == "rolled"]
    assert rolled[0].data["thrown"] == [3, 4, 5]


def test_classic_with_all_six_used_throws_all_six_again_even_above_350() -> None:
    state = throw_state([1, 1, 1, 5, 5, 5])  # 1500, no die free
    assert classic_move(state, DEFAULTS) == Roll(set_aside=(0, 1, 2, 3, 4, 5))
    state = throw_state([5, 1], turn_points=900)  # hot dice later in the turn
    assert classic_move(state, DEFAULTS) == Roll(set_aside=(4, 5))


def test_classic_banks_from_350_with_dice_free_and_throws_below() -> None:
    assert classic_move(throw_state([5, 2, 3], 300), DEFAULTS) == Bank(set_aside=(3,))
    assert classic_move(throw_state([5, 2, 3], 250), DEFAULTS) == Roll(set_aside=(3,))
    assert classic_move(throw_state([1, 3], 250), DEFAULTS) == Bank(set_aside=(4,))
    assert classic_move(throw_state([1, 3], 200), DEFAULTS) == Roll(set_aside=(4,))


def test_classic_reads_350_as_the_games_bank_minimum() -> None:
    options = TEN.validate_options({"bank_minimum": 500})
    assert classic_move(throw_state([5, 2, 3], 300), options) == Roll(set_aside=(3,))
    assert classic_move(throw_state([5, 2, 3], 450), options) == Bank(set_aside=(3,))


def test_every_level_throws_all_six_first() -> None:
    state = TEN.new_state(seats=1, options=DEFAULTS)
    for move in (classic_move(state, DEFAULTS), greedy_move(state, DEFAULTS),
                 optimal_move(state, DEFAULTS), random_move(state, DEFAULTS, random.Random())):
        assert move == Roll()
        apply(state, move)


# -- greedy and random ---------------------------------------------------------------------


def test_greedy_takes_every_scoring_die_and_banks_as_soon_as_allowed() -> None:
    assert greedy_move(throw_state([1, 1, 1, 5, 5, 5]), DEFAULTS) == Bank(
        set_aside=(0, 1, 2, 3, 4, 5)
    )
    assert greedy_move(throw_state([5, 2, 2, 2, 3, 6]), DEFAULTS) == Roll(set_aside=(0, 1, 2, 3))
    assert greedy_move(throw_state([5, 2, 3], 300), DEFAULTS) == Bank(set_aside=(3,))


def test_random_picks_scoring_selections_and_both_endings() -> None:
    state = throw_state([1, 5, 5, 2, 3, 1], turn_points=200)
    rng = random.Random(11)
    seen = set()
    for _ in range(200):
        move = random_move(state, DEFAULTS, rng)
        assert isinstance(move, Bank | Roll) and move.set_aside is not None
        faces = [state["dice"][p] for p in move.set_aside]
        assert selection_value(faces) is not None
        if isinstance(move, Bank):
            assert 200 + selection_value(faces) >= 350
        seen.add(move)
        apply(state, move)
    assert {move.action for move in seen} == {"bank", "roll"}
    assert len(seen) > 10


# -- optimal: the dynamic programme ------------------------------------------------------


def test_one_die_by_hand_where_the_dp_banks_everything() -> None:
    # From 20 000 points every throw banks next (see below), so one die is worth, by hand:
    # a 1 (1/6): 20 100 banked; a 5 (1/6): 20 050; anything else busts.
    values = turn_values(350)
    assert values.throw_value(1, 20_000) == pytest.approx((20_100 + 20_050) / 6)
    assert values.after_value(0, 20_100) == 20_100


def test_one_die_recursion_at_low_points() -> None:
    # One die: a 1 or a 5 uses it (hot dice: six dice next, or bank); else a bust.
    values = turn_values(350)
    for points in (0, 300, 1000, 2500):
        expected = (values.after_value(0, points + 100) + values.after_value(0, points + 50)) / 6
        assert values.throw_value(1, points) == pytest.approx(expected)


def test_banking_is_optimal_when_the_turn_is_high_and_one_die_is_left() -> None:
    values = turn_values(350)
    assert values.banks(1, 1000)
    assert values.banks(2, 1000)
    assert not values.banks(6, 1000)  # hot dice: six dice are worth throwing
    # Below the minimum banking is not allowed, so the value is that of throwing.
    assert not values.banks(1, 300)
    assert values.after_value(1, 300) == values.throw_value(1, 300)
    state = throw_state([1, 3], turn_points=1000)
    assert optimal_move(state, DEFAULTS) == Bank(set_aside=(4,))


def test_every_number_of_dice_banks_well_below_the_cap() -> None:
    values = turn_values(350)
    for n in range(1, 7):
        assert all(values.banks(n, t) for t in range(12_000, 350 + CAP_MARGIN, 50))
        assert values.throw_value(n, 350 + CAP_MARGIN + 50) == 350 + CAP_MARGIN + 50


def test_the_turns_value_and_a_lower_bound() -> None:
    # Taking every scoring die of the first throw and banking at once (allowed with a
    # bank minimum of 0) is one strategy; the optimal one is worth more.
    take_all = sum(p * best_selection(faces).points for faces, p in throws(6))
    assert turn_values(0).start > take_all
    assert turn_values(350).start == pytest.approx(518.4305, abs=1e-3)
    assert turn_values(350).start < turn_values(0).start  # a minimum only constrains


def test_optimal_keeps_only_the_one_and_throws_five_dice() -> None:
    # 1-5-2-2-3-4: the 1 alone leaves five dice (100 + V(5)), better than 1 and 5 (4 dice).
    values = turn_values(350)
    assert values.throw_value(5, 100) > values.throw_value(4, 150)
    assert optimal_move(throw_state([1, 5, 2, 2, 3, 4]), DEFAULTS) == Roll(set_aside=(0,))


def test_optimal_throws_hot_dice_and_respects_the_bank_minimum() -> None:
    assert optimal_move(throw_state([5, 1], 400), DEFAULTS) == Roll(set_aside=(4, 5))
    options = TEN.validate_options({"bank_minimum": 2000})
    move = optimal_move(throw_state([1, 3], 1000), options)
    assert isinstance(move, Roll)
    apply(throw_state([1, 3], 1000), move, options)


def test_optimal_banks_a_win() -> None:
    # Hot dice at 1500 would be thrown again, but banking reaches the target: a win.
    state = throw_state([1, 1, 1, 5, 5, 5], total=9000)
    assert optimal_move(state, DEFAULTS) == Bank(set_aside=(0, 1, 2, 3, 4, 5))
    final = TEN.validate_options({"final_round": True})
    assert optimal_move(state, final) == Roll(set_aside=(0, 1, 2, 3, 4, 5))
    assert isinstance(optimal_move(throw_state([1, 1, 1, 5, 5, 5]), DEFAULTS), Roll)


def test_optimal_beats_classic_head_to_head(tmp_path: Path) -> None:
    played = duel("optimal", "classic", 300, 1, DEFAULTS, tmp_path)
    wins = sum(score(seat, game) for seat, game in played)
    low, _ = wilson(wins, len(played))
    assert wins / len(played) > 0.55
    assert low > 0.5
