"""Ten Thousand's advice: every option of a throw valued in the game's own objective.

The objective depends on who is still in the game:

- alone: the fewest turns to reach the target (``expected_turns``: the expected number of
  turns still to play, this one included);
- with one other seat: the best chance of winning (``win_probability``).

Both are solved exactly (:mod:`.solver`) for ``final_round`` false and every
target up to 10,000; there the answer's ``method`` is ``optimal``. Elsewhere it is
``approximate``, by these documented rules:

- three or more seats: the two-seat chance of winning against the strongest other seat
  still in the game (the highest total), as if it were the only one;
- a target above 10,000: the distance to the target is counted as at most 10,000 (the
  turns far from the target are played as at 10,000 from it);
- ``final_round`` true: before anyone reaches the target, as without a final round; in the
  final round itself, the exact chance of ending this last turn above the best total of
  the others (an equal total counts half).

An option is ``{"keep": [sorted faces set aside], "then": "roll" | "bank"}`` or ``"pass"``;
before a throw of all six dice (the turn's first, or after hot dice) the options are
throwing them (``{"keep": [], "then": "roll"}``) and passing; a throw that scores nothing
leaves only ``"pass"`` (the value of the turn lost).
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import TypedDict

import numpy as np

from ...errors import ProblemCode, RuleError, gettext_noop
from ...state import Options, TenThousandState, ten_thousand_options
from ..points import DICE, POINTS_STEP
from ..rules import MOST_POINTS
from .solver import (
    SOLVED_TARGET,
    UNITS,
    TurnSolution,
    next_dice,
    scoring_subsets,
    solve_turn,
)
from .tables import SolvedTables

WIN = "win_probability"
TURNS = "expected_turns"
PASS = "pass"


class TurnChoice(TypedDict):
    """Dice to set aside (their faces) and what then: ``"bank"`` or ``"roll"``."""

    keep: list[int]
    then: str


Option = TurnChoice | str


@dataclass(frozen=True)
class Position:
    """A Ten Thousand position as the advice sees it.

    ``others``: the totals of the other seats still in the game. ``dice``: the faces of the
    throw to decide on (the free dice), or None before the turn's first throw. ``lead``:
    in a final round, the best total of the others (the one to beat); else None.
    """

    own: int
    others: tuple[int, ...]
    turn_points: int
    dice: tuple[int, ...] | None
    lead: int | None = None


@dataclass(frozen=True)
class TenThousandAdvice:
    """Every distinct option with its value, best first (see the module docstring)."""

    method: str
    objective: str
    options: list[tuple[Option, float]]

    @property
    def best(self) -> Option:
        return self.options[0][0]

    def value_of(self, option: Option) -> float:
        for candidate, value in self.options:
            if candidate == option:
                return value
        raise KeyError(option)


def exact(options: Options, seats_in_play: int) -> bool:
    """Whether the solver's tables answer exactly for these options and seats."""
    return (
        seats_in_play <= 2
        and not ten_thousand_options(options)["final_round"]
        and ten_thousand_options(options)["target"] <= SOLVED_TARGET
    )


def position_of(state: TenThousandState, options: Options) -> Position:
    """The current seat's position in a game's state."""
    seat = state["current"]
    totals, left = state["totals"], state["left"]
    others = tuple(totals[s] for s in range(len(totals)) if s != seat and not left[s])
    lead = None
    if ten_thousand_options(options)["final_round"] and state["final_from"] is not None and others:
        lead = max(others)
    dice = None
    if state["dice"] is not None:
        dice = tuple(
            face for face, aside in zip(state["dice"], state["set_aside"], strict=True)
            if not aside
        )
    return Position(totals[seat], others, state["turn_points"], dice, lead)


def advise_position(
    tables: SolvedTables, options: Options, position: Position
) -> TenThousandAdvice:
    """The advice for ``position`` under the game's ``options`` (validated, complete)."""
    check_position(options, position)
    turn = _turn(
        tables, ten_thousand_options(options)["target"], position.own,
        max(position.others) if position.others else None, position.lead,
    )
    objective = TURNS if not position.others and position.lead is None else WIN
    method = "optimal" if exact(options, 1 + len(position.others)) else "approximate"
    sign = -1.0 if objective == TURNS else 1.0
    units = position.turn_points // POINTS_STEP
    found: list[tuple[tuple[int, int, tuple[int, ...]], Option, float]] = []
    if position.dice is None:
        found.append(((0, 0, ()), {"keep": [], "then": "roll"}, turn.throw_value(units, DICE)))
    else:  # a throw that scores nothing (a bust) leaves the pass alone: the turn is lost
        faces = tuple(sorted(position.dice))
        for kept, points in scoring_subsets(faces):
            after = units + points // POINTS_STEP
            left = next_dice(len(faces), len(kept))
            bank = turn.bank_value(after)
            if bank is not None:
                found.append(((0, -points, kept), {"keep": list(kept), "then": "bank"}, bank))
            found.append(
                ((1, -points, kept), {"keep": list(kept), "then": "roll"},
                 turn.throw_value(after, left))
            )
    found.append(((2, 0, ()), PASS, turn.loss))
    # Best first; equal values: bank before roll before pass, then the most points.
    found.sort(key=lambda entry: (-entry[2], entry[0]))
    return TenThousandAdvice(
        method, objective, [(option, sign * value) for _, option, value in found]
    )


def check_position(options: Options, position: Position) -> None:
    """Refuse, with the engine's codes, what is no position at all: totals, turn points
    or faces out of their range (``invalid``, ``invalid_dice``), or a game already over
    (``game_not_active``: the seat's total has reached the target, or, without a final
    round, the other's). Every other position is valued, reachable or not (a throw of fewer
    than six dice holding no points, six dice about to be thrown holding some: after hot
    dice)."""
    target = ten_thousand_options(options)["target"]
    totals = (position.own, *position.others)
    for index, total in enumerate(totals):
        if type(total) is not int or total < 0 or total % POINTS_STEP:
            raise RuleError(
                ProblemCode.INVALID, gettext_noop("a total is a whole multiple of {step} from 0"),
                field=f"totals.{index}", step=POINTS_STEP,
            )
    if position.own >= target or (position.lead is None and max(totals) >= target):
        message = gettext_noop("a total has reached the target ({target}): the game is over")
        if position.own < target:
            message = gettext_noop(
                "a total has reached the target ({target}): the game is over "
                "(it has no final round)"
            )
        raise RuleError(ProblemCode.GAME_NOT_ACTIVE, message, field="totals", target=target)
    points = position.turn_points
    if type(points) is not int or not 0 <= points <= MOST_POINTS or points % POINTS_STEP:
        raise RuleError(
            ProblemCode.INVALID,
            gettext_noop("turn_points is a whole multiple of {step} from 0 to {most}"),
            field="turn_points", step=POINTS_STEP, most=MOST_POINTS,
        )
    dice = position.dice
    if dice is not None and (
        not 1 <= len(dice) <= DICE or not all(type(f) is int and 1 <= f <= 6 for f in dice)
    ):
        raise RuleError(
            ProblemCode.INVALID_DICE,
            gettext_noop("dice: the throw's 1 to {most} faces, each from 1 to 6"),
            field="dice", most=DICE,
        )


def units_of(total: int, target: int) -> int:
    """A total as a row of the tables: the distance to the target, at most the solved one
    (exact up to a target of 10,000, the documented approximation above it)."""
    return UNITS - min(target - total, SOLVED_TARGET) // POINTS_STEP


@lru_cache(maxsize=256)  # the moves of one turn share it
def _turn(
    tables: SolvedTables, target: int, own: int, other: int | None, lead: int | None
) -> TurnSolution:
    minimum = tables.bank_minimum // POINTS_STEP
    if lead is not None:
        return _last_turn(own, lead, minimum)
    a = units_of(own, target)
    tcap = max(UNITS - a, minimum)
    bank = np.full(tcap, -np.inf)
    banks = np.arange(minimum, tcap)
    if other is None:
        one = tables.one
        if len(banks):
            bank[banks] = -(1.0 + one[a + banks])
        return solve_turn(-(1.0 + float(one[a])), bank, -1.0, tcap, minimum)
    b = units_of(other, target)
    two = tables.two
    if len(banks):
        bank[banks] = 1.0 - two[b, a + banks]
    return solve_turn(1.0 - float(two[b, a]), bank, 1.0, tcap, minimum)


def _last_turn(own: int, lead: int, minimum: int) -> TurnSolution:
    """The final round's last turn: the chance to end it above ``lead`` (a tie: half)."""
    a, best = own // POINTS_STEP, lead // POINTS_STEP

    def outcome(total: int) -> float:
        return 1.0 if total > best else 0.5 if total == best else 0.0

    tcap = max(best - a + 1, minimum)
    bank = np.array(
        [outcome(a + t) if t >= minimum else -np.inf for t in range(tcap)], dtype=np.float64
    )
    return solve_turn(outcome(a), bank, 1.0, tcap, minimum)


def advise_state(
    tables: SolvedTables, state: TenThousandState, options: Options
) -> TenThousandAdvice:
    """The advice for the current seat of a game in progress."""
    return advise_position(tables, options, position_of(state, options))
