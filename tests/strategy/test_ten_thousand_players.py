"""Ten Thousand computers: the classic player follows the rule text on hand-picked
throws, the optimal player plays the solved game's best option (and beats the classic
player), and greedy and random stay within the rules."""

import random
from pathlib import Path

import pytest

from scoring import get_ruleset
from scoring.commands import Bank, Command, Roll
from scoring.ruleset import State
from scoring.strategy.selfplay import play_game
from scoring.tenthousand.points import selection_value
from scoring.tenthousand.strategy.advice import advise_state
from scoring.tenthousand.strategy.duel import duel, score, wilson
from scoring.tenthousand.strategy.players import (
    classic_combinations,
    classic_move,
    greedy_move,
    optimal_move,
    random_move,
)
from scoring.tenthousand.strategy.tables import load_tables

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


def test_every_level_throws_all_six_first(folder: Path) -> None:
    state = TEN.new_state(seats=1, options=DEFAULTS)
    for move in (classic_move(state, DEFAULTS), greedy_move(state, DEFAULTS),
                 optimal_move(state, DEFAULTS, folder),
                 random_move(state, DEFAULTS, random.Random())):
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


# -- optimal: the solved game ----------------------------------------------------------------


def test_optimal_plays_the_best_option_of_the_advice(folder: Path) -> None:
    state = throw_state([1, 5, 2, 2, 3, 4], turn_points=0)
    state["totals"] = [0, 0]
    tables = load_tables(350, folder)
    best = advise_state(tables, state, DEFAULTS).best
    assert best == {"keep": [1], "then": "roll"}  # the 1 alone: five dice to throw again
    assert optimal_move(state, DEFAULTS, folder) == Roll(set_aside=(0,))


def test_optimal_banks_a_win_and_chases_it_in_a_final_round(folder: Path) -> None:
    state = throw_state([1, 1, 1, 5, 5, 5], total=9000)
    assert optimal_move(state, DEFAULTS, folder) == Bank(set_aside=(0, 1, 2, 3, 4, 5))
    # Far from the target, 1500 with hot dice is worth throwing on.
    assert isinstance(optimal_move(throw_state([1, 1, 1, 5, 5, 5]), DEFAULTS, folder), Roll)


def test_optimal_takes_more_risk_behind_than_ahead(folder: Path) -> None:
    """The single-turn player banked 400 with two dice left whatever the score; the solved
    player banks it when far ahead near the end, and throws on when far behind."""
    ahead = throw_state([1, 3], turn_points=300)
    ahead["totals"] = [9000, 2000]
    behind = throw_state([1, 3], turn_points=300)
    behind["totals"] = [2000, 9900]
    assert isinstance(optimal_move(ahead, DEFAULTS, folder), Bank)
    assert isinstance(optimal_move(behind, DEFAULTS, folder), Roll)


@pytest.mark.parametrize(
    ("seats", "options"),
    [(3, DEFAULTS), (2, TEN.validate_options({"final_round": True, "target": 2000}))],
)
def test_optimal_plays_whole_legal_games_beyond_the_solved_ones(
    seats: int, options: dict, folder: Path
) -> None:
    for seed in range(3):
        game = play_game(
            TEN, ["optimal"] * seats, options=options, rng=random.Random(seed), folder=folder
        )
        assert game.winners


@pytest.mark.slow
def test_optimal_beats_classic_head_to_head(folder: Path) -> None:
    played = duel("optimal", "classic", 300, 1, DEFAULTS, folder)
    wins = sum(score(seat, game) for seat, game in played)
    low, _ = wilson(wins, len(played))
    assert wins / len(played) > 0.55
    assert low > 0.5
