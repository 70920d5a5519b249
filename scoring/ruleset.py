"""What every ruleset offers the service: its description, its options, and its moves.

A ruleset is pure: it takes a game state (a JSON-ready dict that only the ruleset reads)
and an action, and returns the new state with the events and score entries the move
produced, or raises a :class:`RuleError` carrying the contract's stable code.
"""

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .dice import Rng
from .errors import RuleError

State = dict[str, Any]


@dataclass(frozen=True)
class Category:
    id: str
    name: str
    section: str
    description: str


@dataclass(frozen=True)
class Option:
    id: str
    values: tuple[Any, ...]
    default: Any
    description: str
    kind: type = str

    def check(self, value: object) -> Any:
        # bool is a subclass of int: compare types exactly so that true is not 1.
        if type(value) is not self.kind or (self.values and value not in self.values):
            allowed = ", ".join(str(v) for v in self.values) or self.kind.__name__
            raise RuleError(
                "invalid", f"option {self.id!r} takes one of: {allowed}", field=f"options.{self.id}"
            )
        return value


@dataclass(frozen=True)
class Event:
    type: str
    seat: int | None
    data: dict[str, Any]


@dataclass(frozen=True)
class Entry:
    """One filled box (or, in games without boxes, one banked turn)."""

    seat: int
    category: str
    points: int
    round: int


@dataclass
class Outcome:
    state: State
    events: list[Event] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


@dataclass(frozen=True)
class View:
    """What the API shows of a state."""

    round: int
    current_seat: int | None
    turn: dict[str, Any]
    choices: dict[str, int]
    players: list[dict[str, Any]]
    totals: list[int]
    finished: bool
    winners: list[int]


class Ruleset(ABC):
    id: str
    name: str
    description: str
    dice: int
    rolls_per_turn: int
    min_players: int = 1
    max_players: int = 8
    categories: tuple[Category, ...] = ()
    options: tuple[Option, ...] = ()
    actions: frozenset[str] = frozenset()

    def validate_options(self, given: Mapping[str, object] | None) -> dict[str, Any]:
        """The full set of options for a new game: defaults filled in, unknown ones refused."""
        given = given or {}
        known = {option.id: option for option in self.options}
        for name in given:
            if name not in known:
                raise RuleError(
                    "invalid", f"{self.id} has no option {name!r}", field=f"options.{name}"
                )
        return {
            option.id: option.check(given[option.id]) if option.id in given else option.default
            for option in self.options
        }

    def check_seats(self, seats: int) -> None:
        if not self.min_players <= seats <= self.max_players:
            raise RuleError(
                "invalid",
                f"{self.name} takes {self.min_players} to {self.max_players} players",
                field="players",
            )

    @abstractmethod
    def new_state(self, *, seats: int, options: Mapping[str, Any]) -> State:
        """The state before anyone has moved."""

    @abstractmethod
    def move(
        self,
        state: State,
        *,
        seat: int,
        action: str,
        args: Mapping[str, Any],
        options: Mapping[str, Any],
        rng: Rng,
    ) -> Outcome:
        """Apply one move of ``seat``; the given state is never modified."""

    @abstractmethod
    def view(self, state: State, *, options: Mapping[str, Any]) -> View:
        """What players see of ``state``."""

    @abstractmethod
    def calculate(self, body: Mapping[str, Any], *, options: Mapping[str, Any]) -> dict[str, Any]:
        """The stateless score calculator's answer for a request body."""
