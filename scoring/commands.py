"""What a seat asks of a game, one frozen type per action.

The HTTP layer turns a validated request body into one of these; the engine takes nothing
else. Each knows its ``action`` (the contract's word for it, as in a path like ``/roll/``)
and its ``args`` (the body that asks for it), which is how idempotent retries are compared
and how advice spells a move.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from .state import Json

Positions = tuple[int, ...]


def positions(given: Sequence[int] | None) -> Positions | None:
    return None if given is None else tuple(given)


@dataclass(frozen=True)
class Command:
    action: ClassVar[str]

    def args(self) -> dict[str, Json]:
        """The request body that asks for this command (absent fields left out)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in vars(self).items()
            if value is not None
        }


@dataclass(frozen=True)
class Roll(Command):
    """Box games: hold exactly ``hold`` (when given), then throw the other dice.
    Ten Thousand: set aside ``set_aside`` (none on the turn's first throw), throw the rest."""

    action: ClassVar[str] = "roll"
    hold: Positions | None = None
    set_aside: Positions | None = None


@dataclass(frozen=True)
class Hold(Command):
    action: ClassVar[str] = "hold"
    hold: Positions = ()


@dataclass(frozen=True)
class Score(Command):
    action: ClassVar[str] = "score"
    category: str = ""


@dataclass(frozen=True)
class Scratch(Command):
    action: ClassVar[str] = "scratch"
    category: str = ""


@dataclass(frozen=True)
class Bank(Command):
    action: ClassVar[str] = "bank"
    set_aside: Positions = ()


@dataclass(frozen=True)
class Pass(Command):
    action: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Leave(Command):
    action: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Start(Command):
    action: ClassVar[str] = "start"


@dataclass(frozen=True)
class Join(Command):
    action: ClassVar[str] = "join"
    name: str = ""


# The moves a ruleset's turn is made of (the others act on the seats and the lobby).
TURN_MOVES: tuple[type[Command], ...] = (Roll, Hold, Score, Scratch, Bank, Pass)
_BY_ACTION = {kind.action: kind for kind in TURN_MOVES}


def command_for(action: str, args: Mapping[str, object] | None = None) -> Command:
    """A turn move from its action word and body (``("roll", {"hold": [0, 1]})``), the
    inverse of ``action`` and ``args()``: how a script or a log spells moves. The HTTP layer
    and the computer players build commands directly."""
    given = {
        name: tuple(value) if isinstance(value, list) else value
        for name, value in (args or {}).items()
    }
    return _BY_ACTION[action](**given)
