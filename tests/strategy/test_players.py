"""Computer players: every level of every ruleset plays whole games through the engine
without a refused move, answers a legal move in random reachable states, and the box
levels do what their docstrings say.

Whole games with the optimal Yahtzee and Yatzy players need their full solved tables
(seconds each), so those are ``slow``; Forced Yatzy's table solves in a fraction of a
second and Maxi Yatzy has none, so they run always.
"""

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import RuleError, get_ruleset
from scoring.boxgames.boxgame import BoxGame
from scoring.boxgames.strategy import advise, advise_with
from scoring.commands import Command, Roll, Score
from scoring.ruleset import Ruleset, State
from scoring.strategy.players import (
    BOX_LEVELS,
    box_maximum,
    computer_command,
    greedy_box_move,
    levels_for,
    optimal_box_move,
    random_box_move,
    serving_positions,
)
from scoring.strategy.selfplay import play_game
from scoring.tenthousand.strategy.players import TEN_THOUSAND_LEVELS

from .support import YAHTZEE_LOWER, YAHTZEE_UPPER, corner

BOX_RULESETS = ("yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy")
YAHTZEE_OPTIONS = [
    {"joker": joker, "yahtzee_bonus": bonus}
    for joker in ("forced", "free", "none")
    for bonus in ("unlimited", "single", "none")
]
# Bank minimums whose solved tables the service builds before serving (0 and 350): the
# optimal player of any other one waits half a minute for its table the first time.
TEN_THOUSAND_OPTIONS = [
    {},
    {"bank_minimum": 0, "target": 3000},
    {"bank_minimum": 350, "target": 5000, "final_round": True},
]


def legal(ruleset: Ruleset, state: State, move: Command, options: dict) -> State:
    """Apply the move through the engine (a refused move raises its RuleError)."""
    return ruleset.move(
        state, seat=state["current"], command=move, options=options, rng=random.Random(0)
    ).state


def reachable_states(
    ruleset: Ruleset, options: dict, seed: int, seats: int = 2
) -> Iterator[State]:
    """Every state of one game played by random computers (random reachable states)."""
    rng = random.Random(seed)
    state = ruleset.new_state(seats=seats, options=options)
    while not state["finished"]:
        yield state
        move = computer_command(ruleset, state, "random", options, rng, folder="unused")
        state = ruleset.move(
            state, seat=state["current"], command=move, options=options, rng=rng
        ).state


# -- levels and the dispatcher ------------------------------------------------------------


def test_levels_for_every_ruleset() -> None:
    for ruleset_id in BOX_RULESETS:
        assert levels_for(ruleset_id) == ("random", "greedy", "optimal")
    assert levels_for("ten-thousand") == ("random", "greedy", "classic", "optimal")
    assert levels_for("chess") == ()


def test_a_level_the_ruleset_does_not_offer_is_refused() -> None:
    yahtzee = get_ruleset("yahtzee")
    state = yahtzee.new_state(seats=1, options=yahtzee.validate_options({}))
    with pytest.raises(RuleError) as refused:
        computer_command(yahtzee, state, level="classic", options={}, rng=random.Random(),
                         folder="unused")
    assert refused.value.code == "invalid"


def test_a_finished_game_has_no_move() -> None:
    ruleset = get_ruleset("ten-thousand")
    game = ruleset.new_state(seats=1, options=ruleset.validate_options({}))
    game["finished"] = True
    with pytest.raises(RuleError) as refused:
        computer_command(ruleset, game, level="greedy", options={}, rng=random.Random(),
                         folder="unused")
    assert refused.value.code == "game_not_active"


def test_options_may_be_given_partly() -> None:
    yahtzee = get_ruleset("yahtzee")
    state = yahtzee.new_state(seats=1, options=yahtzee.validate_options({}))
    state = legal(yahtzee, state, Roll(), yahtzee.validate_options({}))
    move = computer_command(yahtzee, state, level="greedy", options={"joker": "none"},
                            rng=random.Random(1), folder="unused")
    assert isinstance(move, Roll | Score)


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "greedy"])
@pytest.mark.parametrize("ruleset_id", BOX_RULESETS)
def test_cheap_box_levels_play_whole_games(ruleset_id: str, level: str, folder: Path) -> None:
    ruleset = get_ruleset(ruleset_id)
    assert isinstance(ruleset, BoxGame)
    for seed in range(30):
        seats = 1 + seed % 3
        game = play_game(ruleset, [level] * seats, rng=random.Random(seed), folder=folder)
        assert game.turns == seats * len(ruleset.boxes)
        assert len(game.totals) == seats and game.winners


@pytest.mark.parametrize("options", YAHTZEE_OPTIONS)
def test_cheap_yahtzee_levels_play_under_every_option(options: dict, folder: Path) -> None:
    yahtzee = get_ruleset("yahtzee")
    for seed in range(10):
        game = play_game(yahtzee, ["random", "greedy"], options=options,
                         rng=random.Random(seed), folder=folder)
        assert game.turns == 2 * 13


def test_optimal_forced_yatzy_and_maxi_play_whole_games(folder: Path) -> None:
    for ruleset_id, games in (("forced-yatzy", 20), ("maxi-yatzy", 6)):
        ruleset = get_ruleset(ruleset_id)
        assert isinstance(ruleset, BoxGame)
        for seed in range(games):
            levels = ["optimal", "greedy", "random"][: 1 + seed % 3]
            game = play_game(ruleset, levels, rng=random.Random(seed), folder=folder)
            assert game.turns == len(levels) * len(ruleset.boxes)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset_id", "options"),
    [("yahtzee", o) for o in YAHTZEE_OPTIONS] + [("yatzy", {})],
)
def test_optimal_yahtzee_and_yatzy_play_whole_games(
    ruleset_id: str, options: dict, folder: Path
) -> None:
    ruleset = get_ruleset(ruleset_id)
    for seed in range(10):
        levels = ["optimal"] * (1 + seed % 2)
        game = play_game(ruleset, levels, options=options, rng=random.Random(seed),
                         folder=folder)
        assert game.turns == len(levels) * len(ruleset.categories)


@pytest.mark.parametrize("options", TEN_THOUSAND_OPTIONS)
def test_every_ten_thousand_level_plays_whole_games(options: dict, folder: Path) -> None:
    ruleset = get_ruleset("ten-thousand")
    for seed in range(12):
        rng = random.Random(seed)
        levels = [rng.choice(TEN_THOUSAND_LEVELS) for _ in range(1 + seed % 4)]
        game = play_game(ruleset, levels, options=options, rng=rng, folder=folder)
        assert game.winners
    for level in TEN_THOUSAND_LEVELS:  # each level alone, too
        game = play_game(ruleset, [level, level], options=options, rng=random.Random(7),
                         folder=folder)
        assert game.winners


# -- random reachable states -------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", [*BOX_RULESETS, "ten-thousand"])
def test_every_level_answers_a_legal_move_in_reachable_states(
    ruleset_id: str, folder: Path
) -> None:
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.validate_options({})
    levels = [lv for lv in levels_for(ruleset_id)
              if not (lv == "optimal" and ruleset_id in {"yahtzee", "yatzy"})]
    checked = 0
    for seed in range(3):
        for i, state in enumerate(reachable_states(ruleset, options, seed)):
            if ruleset_id == "maxi-yatzy" and i % 5:
                continue  # the heuristic plans a whole turn: sample its states
            for level in levels:
                move = computer_command(ruleset, state, level=level, options=options,
                                        rng=random.Random(i), folder=folder)
                legal(ruleset, state, move, options)
                checked += 1
    assert checked > 100


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", ["yahtzee", "yatzy"])
def test_optimal_answers_a_legal_move_in_reachable_states(ruleset_id: str, folder: Path) -> None:
    ruleset = get_ruleset(ruleset_id)
    options = ruleset.validate_options({})
    for seed in range(3):
        for state in reachable_states(ruleset, options, seed):
            move = computer_command(ruleset, state, level="optimal", options=options,
                                    rng=random.Random(0), folder=folder)
            legal(ruleset, state, move, options)


# Yahtzee states that random play rarely reaches: Jokers, bonuses, late cards, any rolls.
YAHTZEE = get_ruleset("yahtzee")
BOXES = YAHTZEE_UPPER + YAHTZEE_LOWER
faces = st.integers(1, 6)
five_dice = st.lists(faces, min_size=5, max_size=5)


@st.composite
def yahtzee_positions(draw: st.DrawFn, most_open: int = 13) -> dict[str, Any]:
    """A card filled with points real dice make, a consistent bonus, dice and rolls."""
    n_open = draw(st.integers(1, most_open))
    open_boxes = set(draw(st.permutations(BOXES))[:n_open])
    card: dict[str, int | None] = {}
    for box in YAHTZEE.boxes:
        if box.id in open_boxes:
            card[box.id] = None
        else:
            card[box.id] = box.score(draw(five_dice))
    options = draw(st.sampled_from(YAHTZEE_OPTIONS))
    # A bonus some game reaching this card under these options has earned (one at most
    # with a single bonus, none without).
    most = YAHTZEE.most_bonus(card, YAHTZEE.validate_options(options)) // 100
    bonus = 100 * draw(st.integers(0, min(3, most)))
    five_alike = draw(st.booleans())
    dice = [draw(faces)] * 5 if five_alike else draw(five_dice)
    return {
        "card": card, "bonus": bonus, "dice": dice, "rolls_used": draw(st.integers(1, 3)),
        "options": options,
    }


def yahtzee_state(position: dict[str, Any]) -> State:
    state = YAHTZEE.new_state(seats=1, options=YAHTZEE.validate_options({}))
    state.update(
        cards=[position["card"]], bonus=[position["bonus"]], dice=list(position["dice"]),
        rolls_used=position["rolls_used"],
    )
    return state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=yahtzee_positions(), seed=st.integers(0, 2**32))
def test_random_and_greedy_answer_legal_moves_in_any_yahtzee_position(
    position: dict[str, Any], seed: int
) -> None:
    state = yahtzee_state(position)
    options = position["options"]
    rng = random.Random(seed)
    for move in (random_box_move(YAHTZEE, state, options, rng),
                 greedy_box_move(YAHTZEE, state, options)):
        legal(YAHTZEE, state, move, options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=yahtzee_positions(most_open=6))
def test_optimal_yahtzee_follows_the_solver_in_any_position(position: dict[str, Any]) -> None:
    state = yahtzee_state(position)
    options = YAHTZEE.validate_options(position["options"])
    strategy = corner("yahtzee", options, position["card"])
    move = optimal_box_move(strategy, state)
    legal(YAHTZEE, state, move, options)
    left = 3 - position["rolls_used"]
    best = advise_with(strategy, position["card"], position["bonus"], position["dice"],
                       left).best
    assert best is not None
    if best["action"] == "roll":
        assert move == Roll(hold=tuple(best["hold"]))
    else:
        assert move == Score(category=best["category"])


# -- optimal box play follows the solver -------------------------------------------------


def test_optimal_forced_yatzy_plays_the_advised_move_in_every_reached_state(
    folder: Path,
) -> None:
    ruleset = get_ruleset("forced-yatzy")
    options = ruleset.validate_options({})
    for state in reachable_states(ruleset, options, seed=3, seats=1):
        move = computer_command(ruleset, state, level="optimal", options=options,
                                rng=random.Random(0), folder=folder)
        if state["dice"] is None:
            assert move == Roll()
            continue
        card = state["cards"][0]
        best = advise("forced-yatzy", options, card, 0, state["dice"],
                      ruleset.rolls_left(state), folder).best
        assert best is not None
        expected = (Roll(hold=tuple(best["hold"])) if best["action"] == "roll"
                    else Score(category=best["category"]))
        assert move == expected


def test_optimal_asks_the_solver_with_the_rolls_still_allowed() -> None:
    # The engine's rolls left after the dice are what the solver takes: with junk dice and
    # two rolls left it rolls; with none left it fills what the solver says for 0 rolls.
    card = dict.fromkeys(BOXES, 0) | {"yahtzee": None, "chance": None}
    strategy = corner("yahtzee", YAHTZEE.validate_options({}), card)
    state = yahtzee_state({"card": card, "bonus": 0, "dice": [4, 4, 4, 4, 4],
                           "rolls_used": 1})
    assert optimal_box_move(strategy, state) == Score(category="yahtzee")
    dice = [1, 2, 3, 5, 6]
    for rolls_used in (1, 2, 3):
        state = yahtzee_state({"card": card, "bonus": 0, "dice": dice,
                               "rolls_used": rolls_used})
        best = advise_with(strategy, card, 0, dice, 3 - rolls_used).best
        assert best is not None
        move = optimal_box_move(strategy, state)
        assert move == (Roll(hold=tuple(best["hold"])) if best["action"] == "roll"
                        else Score(category=best["category"]))
        assert isinstance(move, Roll) == (rolls_used < 3)


# -- random and greedy box play ----------------------------------------------------------


def test_every_box_level_starts_a_turn_with_a_plain_roll(folder: Path) -> None:
    for ruleset_id in BOX_RULESETS:
        ruleset = get_ruleset(ruleset_id)
        options = ruleset.validate_options({})
        state = ruleset.new_state(seats=1, options=options)
        for level in BOX_LEVELS:
            assert computer_command(ruleset, state, level=level, options=options,
                                    rng=random.Random(0), folder=folder) == Roll()


def test_random_sometimes_rolls_again_and_sometimes_scores() -> None:
    state = yahtzee_state({"card": dict.fromkeys(BOXES), "bonus": 0,
                           "dice": [1, 2, 3, 4, 6], "rolls_used": 1})
    options = YAHTZEE.validate_options({})
    rng = random.Random(5)
    actions = {random_box_move(YAHTZEE, state, options, rng).action for _ in range(50)}
    assert actions == {"roll", "score"}
    state["rolls_used"] = 3
    assert {random_box_move(YAHTZEE, state, options, rng).action for _ in range(20)} == {"score"}


def test_greedy_holds_what_serves_its_best_box_and_stops_when_it_is_strong() -> None:
    options = YAHTZEE.validate_options({})
    blank = dict.fromkeys(BOXES)
    # Best now: chance (17) < 2/3 of 30: roll, holding the dice of 4 or more.
    state = yahtzee_state({"card": blank, "bonus": 0, "dice": [6, 1, 5, 3, 2],
                           "rolls_used": 1})
    assert greedy_box_move(YAHTZEE, state, options) == Roll(hold=(0, 2))
    # A large straight (40, the box's most): score it at once.
    state["dice"] = [2, 3, 4, 5, 6]
    assert greedy_box_move(YAHTZEE, state, options) == Score(category="large_straight")
    # No roll left: the box with the most points now.
    state.update(dice=[6, 1, 5, 3, 2], rolls_used=3)
    assert greedy_box_move(YAHTZEE, state, options) == Score(category="chance")


def test_serving_positions() -> None:
    boxes = {box.id: box for box in get_ruleset("maxi-yatzy").boxes}  # type: ignore[attr-defined]
    dice = [3, 6, 3, 1, 6, 3]
    assert serving_positions(boxes["threes"], dice) == [0, 2, 5]
    assert serving_positions(boxes["chance"], dice) == [1, 4]
    assert serving_positions(boxes["full_straight"], dice) == [0, 1, 3]
    assert serving_positions(boxes["villa"], dice) == [0, 1, 2, 4, 5]
    assert serving_positions(boxes["four_of_a_kind"], dice) == [0, 2, 5]
    assert serving_positions(boxes["one_pair"], [2, 2, 5, 5, 1, 4]) == [2, 3]


def test_box_maximum() -> None:
    assert box_maximum("yahtzee", "chance") == 30
    assert box_maximum("yatzy", "one_pair") == 12
    assert box_maximum("maxi-yatzy", "maxi_yatzy") == 100
