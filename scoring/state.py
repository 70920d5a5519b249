"""The shapes of what the engine keeps and writes: game states, turn views and event data.

A game's state is stored as JSON and copied once a move, so it stays a plain dict at run
time; these ``TypedDict`` s only let the type checker see every key the rules read and
write (a misspelt key or a wrong value type is an error before any test runs). Each rule
family has its own state, turn and events; the keys every state shares, which the match
and the service read without knowing the family, are :class:`CommonState`.

Values that are truly open (a record read from a caller, a request body) are :data:`Json`.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NotRequired, TypeAlias, TypedDict, cast

# A JSON value as read: the containers are read-only views, so that a ``list[int]`` or a
# TypedDict's values may be given where a JSON value is expected.
Json: TypeAlias = (
    bool | int | float | str | Sequence["Json"] | Mapping[str, "Json"] | None
)
JsonObject: TypeAlias = Mapping[str, Json]
# An event of a stored log, as the analyses read it back from the database: written by this
# engine (see the event data below), so they take its values as they are.
LoggedEvent: TypeAlias = Mapping[str, Any]

# A house rule's value, as JSON gives it: a word, a whole number or a flag.
OptionValue: TypeAlias = str | int | bool
Options: TypeAlias = Mapping[str, OptionValue]


class TenThousandOptions(TypedDict):
    """Ten Thousand's options, every one filled in by ``Ruleset.validate_options``."""

    target: int
    bank_minimum: int
    final_round: bool


# -- states ------------------------------------------------------------------------------


class CommonState(TypedDict):
    """The keys of every family's state.

    ``open_seats`` and ``abandoned`` belong to the match (the lobby), which adds them to
    the ruleset's state; states saved before it did lack them.
    """

    round: int
    current: int
    left: list[bool]
    finished: bool
    winners: list[int]
    open_seats: NotRequired[int]
    abandoned: NotRequired[bool]


# A box game's scorecard: every box's points, ``None`` while it is open.
Card: TypeAlias = dict[str, int | None]


class BoxState(CommonState):
    """A box game's state (Yahtzee and the Yatzy family); see ``scoring/boxgames/boxgame.py``."""

    dice: list[int] | None
    held: list[bool]
    rolls_used: int
    holds: NotRequired[int]  # states saved before the count was kept lack it
    saved: list[int]
    cards: list[Card]
    bonus: list[int]


class Bust(TypedDict):
    """The throw that busted during the last move (Ten Thousand)."""

    seat: int
    dice: list[int]
    thrown: list[int]
    lost: int


class TenThousandState(CommonState):
    """Ten Thousand's state; ``scoring/tenthousand/rules.py`` tells what each key
    means."""

    dice: list[int] | None
    set_aside: list[bool]
    turn_points: int
    throws: NotRequired[int]  # states saved before the count was kept lack it
    totals: list[int]
    final_from: int | None
    last_bust: NotRequired[Bust]


# The state of either family, for code that serves them all.
GameState: TypeAlias = BoxState | TenThousandState


# -- what players see --------------------------------------------------------------------


class BoxTurn(TypedDict):
    dice: list[int] | None
    held: list[bool]
    rolls_used: int
    rolls_left: int


class TenThousandTurn(TypedDict):
    dice: list[int] | None
    set_aside: list[bool]
    turn_points: int
    throw_points_available: bool
    can_bank: bool
    last_bust: NotRequired[Bust]


class BoxSeat(TypedDict):
    """A seat's card as shown; Yahtzee adds the seat's Yahtzee bonus."""

    scorecard: Card
    upper_total: int
    upper_bonus: int
    total: int
    yahtzee_bonus: NotRequired[int]


class TenThousandSeat(TypedDict):
    total: int


# -- event data, by event type ------------------------------------------------------------


class Rolled(TypedDict):
    """``rolled``: all the dice after the throw and the positions thrown."""

    dice: list[int]
    thrown: list[int]


class Held(TypedDict):
    held: list[int]


class Filled(TypedDict):
    """``scored`` or ``scratched``: a box filled, and any Yahtzee bonus it earned."""

    category: str
    points: int
    dice: list[int]
    yahtzee_bonus: int


class SetAside(TypedDict):
    dice: list[int]
    points: int


class Busted(TypedDict):
    """``busted``: the faces of the throw that could not score, and the turn points lost."""

    dice: list[int]
    lost: int


class Banked(TypedDict):
    points: int
    total: int


class Passed(TypedDict):
    lost: int


class Finished(TypedDict):
    winners: list[int]
    totals: list[int]


class Left(TypedDict):
    """``left``: nothing more than who left, which the event's seat tells."""


class Joined(TypedDict):
    name: str


class Started(TypedDict):
    seats: int


class Abandoned(TypedDict):
    by: str


class SeatListed(TypedDict):
    seat: int
    name: str
    computer: str | None


class Created(TypedDict):
    """``created``, written by the service before the game's first move."""

    ruleset: str
    options: Options
    seed: int | None
    players: list[SeatListed]
    open_seats: int


class TimedOut(TypedDict):
    """``timed_out``, written by the service when a seat's clock ran out."""

    seat: int
    deadline: str


EventData: TypeAlias = (
    Rolled | Held | Filled | SetAside | Busted | Banked | Passed | Finished | Left | Joined
    | Started | Abandoned | Created | TimedOut
)


class LogEntry(TypedDict):
    """One event of a game's log as the service stores and shows it."""

    seq: int
    type: str
    seat: int | None
    data: EventData


def ten_thousand_options(options: Options) -> TenThousandOptions:
    """Ten Thousand's options as its own shape. ``Ruleset.validate_options`` checked each
    value's type when the game was made, so this only tells the type checker (no cost)."""
    return cast(TenThousandOptions, options)
