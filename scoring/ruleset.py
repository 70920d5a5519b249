"""What every ruleset offers the service: its description, its options, and its moves.

A ruleset is pure: it takes a game state (a JSON-ready dict that only the ruleset reads,
typed per family in :mod:`scoring.state`) and an action, and returns the new state with the
events and score entries the move produced, or raises a :class:`RuleError` carrying the
contract's stable code.
"""

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar, cast

from .commands import Command
from .dice import Dice, DiceSource, dice_source
from .errors import ProblemCode, RuleError, gettext_noop
from .state import (
    BoxSeat,
    BoxTurn,
    CommonState,
    EventData,
    GameState,
    Json,
    JsonObject,
    Options,
    OptionValue,
    TenThousandSeat,
    TenThousandTurn,
)

# The state of whichever family (kept under its old name for code that serves them all).
State = GameState
# The state of the ruleset at hand: each family's engine reads its own keys.
S = TypeVar("S", bound=CommonState)


def copied(state: S) -> S:
    """A copy of a state that shares nothing mutable with it, as ``copy.deepcopy`` makes.

    A state is JSON-ready data, so its containers are dicts and lists of plain values; they
    are copied directly, which is several times quicker than ``deepcopy``'s general walk (a
    move copies its game's state once). Other containers are left to ``deepcopy``."""
    return _copied(state)


# The walker takes any JSON value; it is typed Any rather than narrowed with ``cast``, whose
# call on every container would cost a tenth of a copy.
def _copied(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind in _SHARED:
        return value
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    return copy.deepcopy(value)


# Values that cannot change: a copy may hold the same object.
_SHARED = frozenset({str, int, float, bool, type(None)})


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    section: Literal["upper", "lower"]
    description: str


@dataclass(frozen=True)
class Option:
    """A house rule chosen when a game is created.

    A value must have exactly the type ``kind`` (so ``true`` is not ``1`` and ``1`` is not
    ``true``) and, when ``values`` is not empty, be one of them.  Whole-number options may
    also declare inclusive bounds ``minimum`` and ``maximum`` and a ``step`` (the value must
    be a multiple of it); these are keyword-only and unset (no limit) by default.
    """

    id: str
    values: tuple[OptionValue, ...]
    default: OptionValue
    description: str
    kind: type = str
    minimum: int | None = field(default=None, kw_only=True)
    maximum: int | None = field(default=None, kw_only=True)
    step: int | None = field(default=None, kw_only=True)

    def described(self) -> dict[str, int]:
        """The fields of :attr:`description` (a marked template): the bounds it names."""
        bounds = {"minimum": self.minimum, "maximum": self.maximum, "step": self.step}
        return {name: value for name, value in bounds.items() if value is not None}

    def check(self, value: object) -> OptionValue:
        # bool is a subclass of int: compare types exactly so that true is not 1.
        if (
            type(value) is not self.kind
            or (self.values and value not in self.values)
            or not self._within_bounds(value)
        ):
            raise RuleError(
                ProblemCode.INVALID,
                gettext_noop("option {option!r} takes {allowed}"), field=f"options.{self.id}",
                option=self.id, allowed=self.allowed(),
            )
        return cast(OptionValue, value)

    def _within_bounds(self, value: object) -> bool:
        if not isinstance(value, int):
            return True  # bounds are for whole numbers only
        return (
            (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
            and (self.step is None or value % self.step == 0)
        )

    def allowed(self) -> str:
        """The allowed values in words, for error messages."""
        if self.values:
            return "one of: " + ", ".join(_spell(v) for v in self.values)
        if self.kind is not int:
            return f"one of: {self.kind.__name__}"
        words = "a whole number"
        if self.minimum is not None:
            words += f" from {self.minimum}"
        if self.maximum is not None:
            words += f" to {self.maximum}"
        if self.step is not None:
            words += f", a multiple of {self.step}"
        return words


def _spell(value: object) -> str:
    # Options arrive as JSON: spell booleans the way callers write them.
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Event:
    type: str
    seat: int | None
    data: EventData


@dataclass(frozen=True)
class Entry:
    """One filled box (or, in games without boxes, one banked turn)."""

    seat: int
    category: str
    points: int
    round: int


@dataclass
class Outcome(Generic[S]):
    state: S
    events: list[Event] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


@dataclass(frozen=True)
class View:
    """What the API shows of a state."""

    round: int
    current_seat: int | None
    turn: BoxTurn | TenThousandTurn
    choices: dict[str, int]
    players: list[BoxSeat] | list[TenThousandSeat]
    totals: list[int]
    finished: bool
    winners: list[int]
    left: list[bool] = field(default_factory=list)


class Ruleset(ABC, Generic[S]):
    id: str
    name: str
    description: str
    dice: int
    rolls_per_turn: int
    min_players: int = 1
    max_players: int = 8
    categories: tuple[Category, ...] = ()
    options: tuple[Option, ...] = ()
    moves: frozenset[type[Command]] = frozenset()

    def validate_options(self, given: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """The full set of options for a new game: defaults filled in, unknown ones refused."""
        given = given or {}
        known = {option.id: option for option in self.options}
        for name in given:
            if name not in known:
                raise RuleError(
                    ProblemCode.INVALID,
                    gettext_noop("{game} has no option {option!r}"), field=f"options.{name}",
                    game=self.name, option=name,
                )
        return {
            option.id: option.check(given[option.id]) if option.id in given else option.default
            for option in self.options
        }

    def check_seats(self, seats: int) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError(
                ProblemCode.INVALID,
                gettext_noop("{game} takes {fewest} to {most} players"),
                field="players", game=self.name, fewest=self.min_players, most=self.max_players,
            )

    def check_unattended(self, options: Options) -> None:
        """Refuse options that would make a game of computers only too long to play at once
        (it is played to its end within the request that creates it). Box games have a
        fixed number of rounds, so nothing is refused by default."""
        return None

    @abstractmethod
    def new_state(self, *, seats: int, options: Options) -> S:
        """The state before anyone has moved."""

    def move(
        self,
        state: S,
        *,
        seat: int,
        command: Command,
        options: Options,
        rng: Dice,
    ) -> Outcome[S]:
        """Apply one move of ``seat``; the given state is never modified.

        Every state holds ``current`` (the seat to move) and ``finished``; what a move does
        is the ruleset's :meth:`play`, on a copy of the state. ``rng`` throws the dice: a
        :class:`~scoring.dice.DiceSource`, told where each throw happens, or a plain
        ``Rng`` drawn in order.
        """
        if type(command) not in self.moves:
            raise RuleError(
                ProblemCode.INVALID, gettext_noop("{game} has no {action!r} move"),
                game=self.name, action=command.action,
            )
        if state["finished"]:
            raise RuleError(ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is over"))
        if seat != state["current"]:
            raise RuleError(
                ProblemCode.NOT_YOUR_TURN, gettext_noop("it is seat {seat}'s turn"),
                seat=state["current"],
            )
        outcome = Outcome(state=copied(state))
        self.play(outcome, command=command, options=options, dice=dice_source(rng))
        return outcome

    @abstractmethod
    def play(
        self,
        outcome: Outcome[S],
        *,
        command: Command,
        options: Options,
        dice: DiceSource,
    ) -> None:
        """Play one of :attr:`moves` for the current seat on ``outcome.state``, in place;
        every throw asks ``dice`` with its coordinates (:meth:`turn_index` for the turn)."""

    @abstractmethod
    def end_turn(self, outcome: Outcome[S], options: Options) -> None:
        """Clear the current turn, then end the game or hand the dice on (:meth:`advance`)."""

    @abstractmethod
    def finish(self, outcome: Outcome[S], options: Options) -> None:
        """End the game now: the winners and a ``finished`` event."""

    def leave(self, state: S, *, seat: int, options: Options, end: bool) -> Outcome[S]:
        """``seat`` resigns: its later turns are skipped, its total stands, it cannot win.

        ``end`` (the service's word that no person is left to play) ends the game at once;
        so does the last seat leaving.
        """
        if state["finished"]:
            raise RuleError(ProblemCode.GAME_NOT_ACTIVE, gettext_noop("the game is over"))
        if state["left"][seat]:
            raise RuleError(
                ProblemCode.NOT_YOUR_TURN, gettext_noop("seat {seat} has left the game"), seat=seat
            )
        outcome = Outcome(state=copied(state))
        outcome.state["left"][seat] = True
        outcome.events.append(Event("left", seat, {}))
        if end or all(outcome.state["left"]):
            self.finish(outcome, options)
        elif outcome.state["current"] == seat:
            self.end_turn(outcome, options)
        return outcome

    @staticmethod
    def turn_index(state: CommonState) -> int:
        """How many turns the current seat has had before this one, which its dice are
        derived from. Every seat still playing has one turn a round and a seat that leaves
        never plays again, so it is the round's number from 0: the state needs no counter."""
        return state["round"] - 1

    @staticmethod
    def advance(state: CommonState, *, stop_at: int | None = None) -> bool:
        """Hand the turn to the next seat still playing; a new round when play wraps.

        Answers False, moving nothing, when play would first reach ``stop_at`` (the seat
        whose turn closes a final round) or when no seat is left to play.
        """
        left = state["left"]
        seat = state["current"]
        for step in range(1, len(left) + 1):
            following = (seat + step) % len(left)
            if following == stop_at:
                return False
            if not left[following]:
                if seat + step >= len(left):
                    state["round"] += 1
                state["current"] = following
                return True
        return False

    @abstractmethod
    def view(self, state: S, *, options: Options) -> View:
        """What players see of ``state``."""

    @abstractmethod
    def calculate(self, body: JsonObject, *, options: Options) -> dict[str, Json]:
        """The stateless score calculator's answer for a request body."""


def best_seats(totals: Sequence[int], left: Sequence[bool] | None = None) -> list[int]:
    """The winners: every seat still playing with the best total (several in a draw)."""
    playing = [seat for seat in range(len(totals)) if not (left and left[seat])]
    if not playing:
        return []
    best = max(totals[seat] for seat in playing)
    return [seat for seat in playing if totals[seat] == best]
