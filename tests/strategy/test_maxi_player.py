"""The Maxi Yatzy heuristic: its value model's parts, its use of saved rolls, and that it
plays better than greedy."""

import itertools
import random
import statistics
from pathlib import Path

import pytest

from scoring import get_ruleset
from scoring.boxgames.boxgame import BoxGame
from scoring.boxgames.strategy.maxi import TurnPlan, bonus_chance, maxi_move
from scoring.commands import Roll, Score
from scoring.ruleset import State
from scoring.strategy.selfplay import play_game

MAXI = get_ruleset("maxi-yatzy")
assert isinstance(MAXI, BoxGame)
OPTIONS = MAXI.validate_options({})
BOXES = [box.id for box in MAXI.boxes]


def card(*open_boxes: str, **filled: int) -> dict[str, int | None]:
    """Open boxes as given, the named ones filled, every other box filled with 0."""
    result: dict[str, int | None] = dict.fromkeys(BOXES, 0)
    result.update(filled)
    for box in open_boxes:
        result[box] = None
    return result


def state_with(the_card: dict, dice: list[int], rolls_used: int, saved: int) -> State:
    state = MAXI.new_state(seats=1, options=OPTIONS)
    state.update(cards=[the_card], dice=dice, rolls_used=rolls_used, saved=[saved])
    return state


def test_bonus_chance() -> None:
    assert bonus_chance(0, (), 6) == 1.0
    assert bonus_chance(-5, (1,), 6) == 1.0
    assert bonus_chance(37, (6,), 6) == 0.0  # six sixes make 36 at most
    assert bonus_chance(36, (6,), 6) > 0
    chances = [bonus_chance(need, (4, 5, 6), 6) for need in range(0, 91, 10)]
    assert chances == sorted(chances, reverse=True)


def test_pars_and_saved_rolls() -> None:
    plan = TurnPlan(MAXI, card(*BOXES))
    par = dict(zip(BOXES, plan.game.par, strict=True))
    assert 25 < par["chance"] < 36
    assert 0 < par["maxi_yatzy"] < 10
    assert par["full_straight"] < 21
    saves = [plan.save(k) for k in range(8)]
    assert saves[0] == 0
    assert all(b > a for a, b in itertools.pairwise(saves))  # rolls are worth something
    last_turn = TurnPlan(MAXI, card("chance"))
    assert last_turn.save(5) == 0  # no later turn to save rolls for


def test_the_last_turn_spends_saved_rolls_on_a_weak_box() -> None:
    state = state_with(card("maxi_yatzy"), [1, 2, 3, 4, 4, 6], rolls_used=3, saved=4)
    move = maxi_move(MAXI, state, OPTIONS)
    assert isinstance(move, Roll) and move.hold is not None
    assert sorted(state["dice"][i] for i in move.hold) == [4, 4]


def test_good_dice_are_scored_and_the_rolls_kept() -> None:
    state = state_with(card(*BOXES), [6, 6, 6, 6, 6, 6], rolls_used=1, saved=0)
    assert maxi_move(MAXI, state, OPTIONS) == Score(category="maxi_yatzy")
    state = state_with(card(*BOXES), [1, 2, 3, 4, 5, 6], rolls_used=1, saved=0)
    assert maxi_move(MAXI, state, OPTIONS) == Score(category="full_straight")


def test_the_upper_bonus_steers_the_fill() -> None:
    # 72 in the upper boxes: three fours make the 84 sure, so they go in 'fours' rather
    # than a middling chance; with the bonus out of reach the same fill is worth less.
    in_reach = card("fours", "chance", ones=3, twos=8, threes=12, fives=25, sixes=24)
    state = state_with(in_reach, [4, 4, 4, 1, 2, 3], rolls_used=3, saved=0)
    assert maxi_move(MAXI, state, OPTIONS) == Score(category="fours")
    plan_in = TurnPlan(MAXI, in_reach)
    plan_out = TurnPlan(MAXI, card("fours", "chance"))
    r = plan_in.space.roll_index[(1, 2, 3, 4, 4, 4)]
    fours = BOXES.index("fours")
    assert plan_in.fill[fours][r] > plan_out.fill[fours][r]


def test_saves_rolls_during_the_game_and_plays_every_turn(tmp_path: Path) -> None:
    saved_at_some_point = 0
    for seed in range(4):
        state = MAXI.new_state(seats=1, options=OPTIONS)
        rng = random.Random(seed)
        while not state["finished"]:
            saved_at_some_point = max(saved_at_some_point, state["saved"][0])
            move = maxi_move(MAXI, state, OPTIONS)
            state = MAXI.move(state, seat=0, command=move, options=OPTIONS, rng=rng).state
    assert saved_at_some_point >= 3


@pytest.mark.parametrize("seats", [1, 2])
def test_the_heuristic_beats_greedy(seats: int, tmp_path: Path) -> None:
    heuristic, greedy = [], []
    for seed in range(15):
        for level, scores in (("optimal", heuristic), ("greedy", greedy)):
            game = play_game(MAXI, [level] * seats, rng=random.Random(seed), folder=tmp_path)
            scores.extend(game.totals)
    assert statistics.mean(heuristic) > statistics.mean(greedy) + 30
