"""Game analysis: every decision of a logged game, valued exactly as ``advise`` values the
same position, with losses, labels, accuracy and luck that add up.

Games are played through the engine's own ``move`` by computer players and by a careless
player who holds dice without rolling, rolls with every die held, scratches boxes worth
points and leaves. The positions are taken from the engine's state before each move, not
from the log, so the log reading is checked too. Forced Yatzy's table solves in a fraction
of a second; the Yahtzee tests need whole tables (seconds each) and are ``slow``.
"""

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from math import isclose
from pathlib import Path
from typing import Any

import pytest

from scoring import get_ruleset
from scoring.boxgames.boxgame import BoxGame
from scoring.boxgames.strategy import Strategy, advise_with, load_strategy
from scoring.boxgames.strategy.analysis import (
    BEST_TOLERANCE,
    INACCURACY_BELOW,
    MISTAKE_BELOW,
    Analysis,
    LogError,
    accuracy_of,
    analyse,
    analyse_with,
    label_of,
)
from scoring.commands import Command, Hold, Roll, Score, Scratch
from scoring.ruleset import State
from scoring.strategy.combinatorics import dice_space, probability
from scoring.strategy.players import computer_command
from scoring.strategy.selfplay import play_game

SPACE = dice_space(5)


@pytest.fixture(scope="module")
def forced(folder: Path) -> Strategy:
    return load_strategy("forced-yatzy", {}, folder)


@pytest.fixture(scope="module")
def yahtzee(folder: Path) -> Strategy:
    return load_strategy("yahtzee", {}, folder)


# -- playing games that remember every position ------------------------------------------


@dataclass
class Position:
    seat: int
    card: dict[str, int | None]
    bonus: int
    dice: list[int]
    rolls_left: int
    move: Command


@dataclass
class Played:
    log: list[dict[str, Any]] = field(default_factory=list)
    # The position each decision was made in, by the seq of the event that records it.
    decided: dict[int, Position] = field(default_factory=dict)
    state: State | None = None


Chooser = Callable[[BoxGame, State, dict[str, Any], random.Random], Command]


def record(
    ruleset: BoxGame,
    options: dict[str, Any],
    choosers: list[Chooser],
    rng: Any,
    *,
    leave: Callable[[State], int | None] = lambda state: None,
) -> Played:
    """Play a game through ``Ruleset.move``; each seat's moves come from its chooser.

    ``leave(state)`` may name a seat that resigns before the next move.
    """
    played = Played()
    state = ruleset.new_state(seats=len(choosers), options=options)
    while not state["finished"]:
        leaving = leave(state)
        if leaving is not None:
            outcome = ruleset.leave(state, seat=leaving, options=options, end=False)
            state = _logged(played, outcome)
            continue
        seat = state["current"]
        move = choosers[seat](ruleset, state, options, rng)
        outcome = ruleset.move(state, seat=seat, command=move, options=options, rng=rng)
        decides = state["dice"] is not None and isinstance(move, Roll | Score | Scratch)
        if decides:
            played.decided[len(played.log) + 1] = Position(
                seat=seat,
                card=dict(state["cards"][seat]),
                bonus=state["bonus"][seat],
                dice=list(state["dice"]),
                rolls_left=ruleset.rolls_left(state),
                move=move,
            )
        state = _logged(played, outcome)
    played.state = state
    return played


def _logged(played: Played, outcome: Any) -> State:
    for event in outcome.events:
        played.log.append(
            {"seq": len(played.log) + 1, "type": event.type, "seat": event.seat,
             "data": event.data}
        )
    return outcome.state


def level(name: str, folder: Path) -> Chooser:
    def choose(ruleset: BoxGame, state: State, options: dict[str, Any], rng: Any) -> Command:
        return computer_command(ruleset, state, name, options, rng, folder=folder)

    return choose


def careless(ruleset: BoxGame, state: State, options: dict[str, Any], rng: Any) -> Command:
    """Any legal move: holds without rolling, rolls with every die held, scratches boxes
    that would score, scores boxes that take nothing."""
    if state["dice"] is None:
        return Roll()
    n = len(state["dice"])
    seat = state["current"]
    legal = ruleset.legal(state["cards"][seat], state["dice"], options)
    if ruleset.rolls_left(state) > 0:
        pick = rng.random()
        if pick < 0.2:
            return Hold(hold=tuple(i for i in range(n) if rng.random() < 0.5))
        if pick < 0.3:
            return Roll(hold=tuple(range(n)))
        if pick < 0.4:
            return Roll()  # whatever the last hold was
        if pick < 0.6:
            return Roll(hold=tuple(i for i in range(n) if rng.random() < 0.5))
    box = rng.choice(sorted(legal))
    return Scratch(category=box) if rng.random() < 0.3 else Score(category=box)


# -- the checks every analysed game must pass ----------------------------------------------


def check(strategy: Strategy, played: Played, analysis: Analysis, seats: set[int]) -> None:
    """Every decision against ``advise`` in the position the engine was in; the labels
    from the thresholds; the per-seat sums; and the luck identity."""
    ruleset = strategy.model.ruleset
    options = strategy.model.options
    expected = {seq: p for seq, p in played.decided.items() if p.seat in seats}
    assert [d.seq for d in analysis.decisions] == sorted(expected)
    for d in analysis.decisions:
        p = expected[d.seq]
        assert (d.seat, d.dice, d.rolls_left) == (p.seat, sorted(p.dice), p.rolls_left)
        assert d.round == sum(v is not None for v in p.card.values()) + 1
        advice = advise_with(strategy, p.card, p.bonus, p.dice, p.rolls_left)
        values = {}
        for option in advice.options:
            if option["action"] == "roll":
                key: Any = tuple(sorted(p.dice[i] for i in option["hold"]))
            else:
                key = option["category"]
            values[key] = option["expected_final"]
        action, args = p.move.action, p.move.args()
        if action == "roll":
            held = args["hold"] if "hold" in args else _held_before(played, d.seq, p.seat)
            chosen: Any = tuple(sorted(p.dice[i] for i in held))
            assert d.kind == "keep" and tuple(d.chosen) == chosen
            chosen_value = values[chosen]
        else:
            assert d.kind == "box" and d.chosen == args["category"]
            points = 0 if action == "scratch" else ruleset.legal(p.card, p.dice, options)[
                args["category"]
            ]
            # The value of a box is the value of the next turn's start.
            after = {**p.card, args["category"]: points}
            earned = ruleset.fill_bonus(p.card, p.dice, options, p.bonus)
            chosen_value = advise_with(strategy, after, p.bonus + earned, None, None).expected_final
            if action == "score":
                assert isclose(chosen_value, values[args["category"]], abs_tol=1e-6)
        best_value = advice.expected_final
        assert d.best_value == pytest.approx(best_value, abs=1e-5)
        assert d.chosen_value == pytest.approx(chosen_value, abs=1e-5)
        assert d.loss == pytest.approx(best_value - chosen_value, abs=2e-5)
        assert d.loss == pytest.approx(d.best_value - d.chosen_value, abs=1e-9)
        assert d.label == label_of(d.loss)
        best_key = tuple(d.best) if isinstance(d.best, list) else d.best
        assert values[best_key] == pytest.approx(d.best_value, abs=1e-5)
        if d.label == "best":
            assert d.best == d.chosen and d.loss == 0
    for seat in analysis.seats:
        mine = [d for d in analysis.decisions if d.seat == seat.seat]
        assert seat.expected_loss == pytest.approx(sum(d.loss for d in mine), abs=1e-6)
        assert seat.counts == {
            label: sum(d.label == label for d in mine)
            for label in ("best", "inaccuracy", "mistake", "blunder")
        }
        assert seat.total == ruleset.view(played.state, options=options).totals[seat.seat]
        assert seat.luck == pytest.approx(
            seat.total - seat.expected_start + seat.expected_loss, abs=1e-6
        )
        assert seat.accuracy == (accuracy_of(seat.expected_loss, seat.expected_start)
                                 if mine else None)
        card_full = all(v is not None for v in played.state["cards"][seat.seat].values())
        if mine and card_full:
            # The last box fills the card: after it nothing is to come but the total.
            assert mine[-1].chosen_value == pytest.approx(seat.total, abs=1e-4)


def _held_before(played: Played, seq: int, seat: int) -> list[int]:
    """What a plain roll at ``seq`` kept: the dice it did not throw."""
    event = played.log[seq - 1]
    assert event["type"] == "rolled" and event["seat"] == seat
    return [i for i in range(len(event["data"]["dice"])) if i not in event["data"]["thrown"]]


def analysed(strategy: Strategy, played: Played, seats: set[int]) -> Analysis:
    analysis = analyse_with(strategy, played.log, seats)
    check(strategy, played, analysis, seats)
    return analysis


FORCED = get_ruleset("forced-yatzy")
YAHTZEE = get_ruleset("yahtzee")


# -- Forced Yatzy: whole games of every kind of player --------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_every_decision_of_careless_and_computer_players_matches_the_advice(
    forced: Strategy, folder: Path, seed: int
) -> None:
    choosers = [careless, level("random", folder), level("greedy", folder)]
    played = record(FORCED, FORCED.validate_options({}), choosers, random.Random(seed))
    analysis = analysed(forced, played, {0, 1, 2})
    assert {d.kind for d in analysis.decisions} == {"keep", "box"}
    assert all(s.accuracy is not None and 0 <= s.accuracy <= 100 for s in analysis.seats)


def test_forced_yatzy_offers_only_the_next_box_besides_the_keeps(
    forced: Strategy, folder: Path
) -> None:
    played = record(FORCED, FORCED.validate_options({}), [careless], random.Random(7))
    analysis = analysed(forced, played, {0})
    order = [box.id for box in FORCED.boxes]
    boxes = [d for d in analysis.decisions if d.kind == "box"]
    assert [d.chosen for d in boxes] == order
    # The one box that may be filled is the next in the order: the only box ever best.
    assert all(
        isinstance(d.best, tuple) or d.best == order[d.round - 1] for d in analysis.decisions
    )


def test_an_optimal_seat_loses_nothing(forced: Strategy, folder: Path) -> None:
    for seed in range(5):
        game = play_game(FORCED, ["optimal"], rng=random.Random(seed), folder=folder)
        analysis = analyse_with(forced, game.log, [0])
        (seat,) = analysis.seats
        assert seat.expected_loss == 0 and seat.accuracy == 100
        assert seat.counts["best"] == len(analysis.decisions) > 15
        assert seat.total == game.totals[0]
        assert seat.luck == pytest.approx(seat.total - seat.expected_start, abs=1e-6)


def test_only_the_seats_asked_for_are_analysed(forced: Strategy, folder: Path) -> None:
    choosers = [careless, level("greedy", folder)]
    played = record(FORCED, FORCED.validate_options({}), choosers, random.Random(3))
    analysis = analysed(forced, played, {1})
    assert [s.seat for s in analysis.seats] == [1]
    assert {d.seat for d in analysis.decisions} == {1}


def test_a_hold_is_not_a_decision_the_roll_after_it_is(forced: Strategy) -> None:
    dice = deque([1, 1, 2, 3, 4, 6, 6, 5, 1, 1, 1, 1, 1])
    rng = type("Scripted", (), {"randint": lambda self, a, b: dice.popleft()})()
    moves = deque([
        Roll(),  # 1 1 2 3 4
        Hold(hold=(2, 3)),  # held 2 and 3: not a decision
        Hold(hold=(0, 1)),  # changed its mind: the ones
        Roll(),  # threw positions 2, 3, 4: 6 6 5 -> keep [1, 1]
        Roll(hold=(0, 1, 3)),  # keep [1, 1, 6]; throws 1 1
        Score(category="ones"),
    ])
    played = record(FORCED, FORCED.validate_options({}), [lambda *_: moves.popleft()], rng,
                    leave=lambda state: 0 if not moves else None)
    analysis = analysed(forced, played, {0})
    assert [(d.kind, d.chosen, d.rolls_left) for d in analysis.decisions] == [
        ("keep", (1, 1), 2), ("keep", (1, 1, 6), 1), ("box", "ones", 0)
    ]
    assert [played.log[d.seq - 1]["type"] for d in analysis.decisions] == [
        "rolled", "rolled", "scored"
    ]


def test_a_seat_that_left_keeps_its_decisions_until_then(
    forced: Strategy, folder: Path
) -> None:
    # Seat 0 leaves in its fifth turn, after rolling once: that roll decides nothing.
    def leave(state: State) -> int | None:
        left = state["left"][0]
        filled = sum(v is not None for v in state["cards"][0].values())
        if not left and state["current"] == 0 and filled == 4 and state["rolls_used"] == 1:
            return 0
        return None

    choosers = [level("greedy", folder), level("random", folder)]
    played = record(FORCED, FORCED.validate_options({}), choosers, random.Random(11), leave=leave)
    analysis = analysed(forced, played, {0, 1})
    seat0 = analysis.seats[0]
    boxes0 = [d for d in analysis.decisions if d.seat == 0 and d.kind == "box"]
    assert len(boxes0) == 4 and seat0.total < 100
    assert seat0.luck == pytest.approx(seat0.total - seat0.expected_start + seat0.expected_loss)
    assert sum(s.counts["best"] for s in analysis.seats[1:]) > 0


def test_keep_values_are_the_expected_best_value_of_the_next_roll(
    forced: Strategy, folder: Path
) -> None:
    """Independent of the solver's own recursion: a keep is worth the probability-weighted
    best value (by ``advise``) of every roll it can lead to."""
    played = record(FORCED, FORCED.validate_options({}), [careless], random.Random(5))
    analysis = analysed(forced, played, {0})
    keeps = [d for d in analysis.decisions if d.kind == "keep" and len(d.chosen) < 5][:4]
    assert keeps
    for d in keeps:
        p = played.decided[d.seq]
        keep = tuple(d.chosen)
        mean = sum(
            probability(roll, keep)
            * advise_with(forced, p.card, p.bonus, list(roll), d.rolls_left - 1).expected_final
            for roll in SPACE.rolls
            if probability(roll, keep)
        )
        assert d.chosen_value == pytest.approx(mean, abs=1e-4)


def test_a_game_not_yet_over_is_analysed_so_far(forced: Strategy, folder: Path) -> None:
    played = record(FORCED, FORCED.validate_options({}), [careless], random.Random(2))
    cut = next(i for i, e in enumerate(played.log) if e["type"] == "scored") + 2
    analysis = analyse_with(forced, played.log[:cut], [0])
    assert analysis.decisions and analysis.decisions[-1].kind == "box"
    assert all(d.seq <= cut for d in analysis.decisions)
    assert analysis.seats[0].total == played.log[cut - 2]["data"]["points"]


def test_a_seat_with_no_decision_has_no_accuracy(forced: Strategy) -> None:
    analysis = analyse_with(forced, [], [0, 1])
    assert [s.accuracy for s in analysis.seats] == [None, None]
    assert analysis.seats[0].luck == pytest.approx(-analysis.seats[0].expected_start)
    assert analysis.seats[0].expected_start == pytest.approx(122.5585, abs=1e-3)


def test_a_log_the_rules_could_not_produce_is_refused(forced: Strategy) -> None:
    fill = {"category": "ones", "points": 3, "dice": [1, 1, 1, 2, 3], "yahtzee_bonus": 0}
    with pytest.raises(LogError):
        analyse_with(forced, [{"seq": 1, "type": "scored", "seat": 0, "data": fill}], [0])
    rolled = {"dice": [1, 1, 1, 2, 3], "thrown": [0, 1, 2, 3, 4]}
    log = [{"seq": 1, "type": "rolled", "seat": 0, "data": rolled},
           {"seq": 2, "type": "scored", "seat": 0, "data": {**fill, "points": 4}}]
    with pytest.raises(LogError):
        analyse_with(forced, log, [0])


def test_analyse_loads_the_table_as_advise_does(folder: Path, forced: Strategy) -> None:
    game = play_game(FORCED, ["random"], rng=random.Random(1), folder=folder)
    assert analyse("forced-yatzy", {}, game.log, [0], folder) == analyse_with(
        forced, game.log, [0]
    )


# -- labels and accuracy -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loss", "label"),
    [
        (0.0, "best"),
        (BEST_TOLERANCE, "best"),
        (2 * BEST_TOLERANCE, "inaccuracy"),
        (INACCURACY_BELOW - 0.01, "inaccuracy"),
        (INACCURACY_BELOW, "mistake"),
        (MISTAKE_BELOW - 0.01, "mistake"),
        (MISTAKE_BELOW, "blunder"),
        (60.0, "blunder"),
    ],
)
def test_labels_follow_the_documented_thresholds(loss: float, label: str) -> None:
    assert label_of(loss) == label


def test_accuracy_is_the_share_of_the_expected_score_kept() -> None:
    assert accuracy_of(0.0, 254.5877) == 100
    assert accuracy_of(25.45877, 254.5877) == 90
    assert accuracy_of(300.0, 254.5877) == 0


# -- Yahtzee: the Joker, the bonus, every option -------------------------------------------


class Scripted:
    def __init__(self, *faces: int) -> None:
        self.faces = deque(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.popleft()


def scripted_moves(*moves: Command) -> Chooser:
    queue = deque(moves)
    return lambda *_: queue.popleft()


@pytest.mark.slow
def test_joker_and_bonus_turns_are_valued_as_advise_values_them(yahtzee: Strategy) -> None:
    six = [6] * 5
    dice = Scripted(*six, *six, *six, 6, 6, 6, 6, 1, 6, 1, 2, 3, 4, 5)
    moves = scripted_moves(
        Roll(), Score(category="yahtzee"),  # 50 in the yahtzee box
        Roll(), Score(category="sixes"),  # forced Joker: sixes, +100
        Roll(), Score(category="large_straight"),  # Joker at 40, +100
        Roll(), Roll(hold=(0, 1, 2, 3)),  # four 6s and a 1: roll the 1
        Scratch(category="chance"),  # five 6s again, scratched chance: a blunder
        Roll(), Scratch(category="small_straight"),  # 30 thrown away
    )
    played = record(YAHTZEE, YAHTZEE.validate_options({}), [moves], dice,
                    leave=lambda state: 0 if sum(
                        v is not None for v in state["cards"][0].values()) == 5 else None)
    analysis = analysed(yahtzee, played, {0})
    by_box = {d.chosen: d for d in analysis.decisions if d.kind == "box"}
    assert by_box["sixes"].label == "best" and by_box["sixes"].dice == six
    assert by_box["chance"].label == "blunder" and by_box["chance"].dice == six
    assert by_box["small_straight"].loss > MISTAKE_BELOW
    assert analysis.seats[0].total == 50 + 30 + 100 + 40 + 100 + 100 + 0 + 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_yahtzee_games_of_every_player_match_the_advice(
    yahtzee: Strategy, folder: Path, seed: int
) -> None:
    choosers = [careless, level("random", folder), level("greedy", folder),
                level("optimal", folder)]
    played = record(YAHTZEE, YAHTZEE.validate_options({}), choosers, random.Random(seed))
    analysis = analysed(yahtzee, played, {0, 1, 2, 3})
    optimal = analysis.seats[3]
    assert optimal.expected_loss == 0 and optimal.accuracy == 100
    assert analysis.seats[1].expected_loss > analysis.seats[2].expected_loss > 0


@pytest.mark.slow
def test_free_joker_and_a_single_bonus_are_analysed_with_their_own_table(folder: Path) -> None:
    options = YAHTZEE.validate_options({"joker": "free", "yahtzee_bonus": "single"})
    strategy = load_strategy("yahtzee", options, folder)
    for seed in range(2):
        played = record(YAHTZEE, options, [careless, level("optimal", folder)],
                        random.Random(seed))
        analysis = analysed(strategy, played, {0, 1})
        assert analysis.seats[1].expected_loss == 0
        assert analysis.seats[0].expected_start == pytest.approx(
            strategy.table.start_value, abs=1e-5
        )


@pytest.mark.slow
def test_yatzy_games_match_the_advice(folder: Path) -> None:
    yatzy = get_ruleset("yatzy")
    strategy = load_strategy("yatzy", {}, folder)
    choosers = [careless, level("random", folder), level("greedy", folder),
                level("optimal", folder)]
    played = record(yatzy, yatzy.validate_options({}), choosers, random.Random(1))
    analysis = analysed(strategy, played, {0, 1, 2, 3})
    assert analysis.seats[3].expected_loss == 0
    assert analysis.seats[0].expected_start == pytest.approx(248.44, abs=1e-3)
