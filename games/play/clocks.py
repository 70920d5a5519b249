"""Turn clocks (docs/contract.md, "Turn clocks"): when a person's move is due, and what a game shows
of its clock. The firing itself is a change like any other (``services.game_time_out``),
run by a worker at the deadline.

A deadline is set by every change of a game with a clock: the person to move then has
``turn_seconds`` for their next move. Nobody has one while the game waits, while a
computer is to move (computers move at once) or once it is over.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from games.models import Game, Player
from scoring.match import GameStatus

TURN_SECONDS = (10, 604_800)
MAX_TIMEOUTS = (1, 10)
DEFAULT_MAX_TIMEOUTS = 3


@dataclass(frozen=True)
class Clock:
    """A game's turn clock: seconds for each move of a person, and how many turns in a row
    may time out before the seat leaves."""

    turn_seconds: int
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS


class ClockShown(TypedDict):
    turn_seconds: int
    max_timeouts: int
    deadline: str | None


def next_deadline(game: Game, players: Sequence[Player], now: dt.datetime) -> dt.datetime | None:
    """The deadline of the seat to move after a change made ``now``; None if there is none."""
    if game.clock_seconds is None or game.status != GameStatus.ACTIVE:
        return None
    seat = game.state.get("current")
    if seat is None or seat >= len(players) or players[seat].computer is not None:
        return None
    return now + dt.timedelta(seconds=game.clock_seconds)


def timeouts_after(game: Game, seats: int, *, moved: int | None) -> list[int]:
    """Each seat's turns timed out in a row, after a move of seat ``moved`` (which resets
    its count: it moved in time)."""
    counts = list(game.timeouts) + [0] * (seats - len(game.timeouts))
    if moved is not None and moved < seats:
        counts[moved] = 0
    return counts


def clock_shown(game: Game) -> ClockShown | None:
    if game.clock_seconds is None:
        return None
    return {
        "turn_seconds": game.clock_seconds,
        "max_timeouts": game.clock_max_timeouts or DEFAULT_MAX_TIMEOUTS,
        "deadline": iso(game.deadline) if game.deadline else None,
    }


def iso(moment: dt.datetime) -> str:
    """A time as the API writes it: ISO 8601 in UTC, with ``Z``."""
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
