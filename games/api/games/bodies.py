"""A game's answers: the game with its seats, and its log's events; each shape declared
once (``games.api.schema.shapes``) and rendered here."""

from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from games.api.schema.enums import COMPUTERS, EVENT_TYPES, GAME_STATUSES
from games.api.schema.responses import Face, RulesetId
from games.api.schema.shapes import Bounds, Choice, DateTime, Uuid, iso_time, serializer_for
from games.models import Event, Game, Player
from games.play.clocks import clock_shown
from games.play.dice import dice_shown
from scoring.match import GameStatus


class BustBody(TypedDict):
    """A Ten Thousand throw in which no die could score: the turn ended with no points."""

    seat: Annotated[int, "The seat whose turn busted."]
    dice: Annotated[
        list[Face],
        Bounds(6, 6),
        "All six dice on the table after the throw (set-aside dice included).",
    ]
    thrown: Annotated[
        list[Annotated[int, Bounds(0, 5)]],
        "The positions of the dice of the throw (the others were set aside earlier).",
    ]
    lost: Annotated[int, "The turn points lost with the bust."]


class TurnBody(TypedDict):
    """One shape for every ruleset: box games fill the first group, Ten Thousand the second."""

    dice: Annotated[
        list[Face] | None, "The dice after the last throw; null before the turn's first throw."
    ]
    held: NotRequired[list[bool]]
    rolls_used: NotRequired[int]
    rolls_left: NotRequired[
        Annotated[int, "Rolls still allowed this turn (Maxi Yatzy: saved rolls too)."]
    ]
    set_aside: NotRequired[list[bool]]
    turn_points: NotRequired[int]
    throw_points_available: NotRequired[bool]
    can_bank: NotRequired[bool]
    last_bust: NotRequired[
        Annotated[
            BustBody,
            "Ten Thousand, only in the answer to the move whose throw busted (until the "
            "game's next move): the throw that ended that turn, since the turn itself is "
            "already cleared for the next seat.",
        ]
    ]


class PlayerBody(TypedDict):
    seat: int
    name: str
    computer: Annotated[
        str | None,
        Choice(COMPUTERS),
        "Null for a person; a computer seat's strategy (`classic`: Ten Thousand only).",
    ]
    bot: Annotated[Uuid | None, "The bot that holds the seat (its id); null for none."]
    scorecard: NotRequired[dict[str, int | None]]
    upper_total: NotRequired[int]
    upper_bonus: NotRequired[int]
    yahtzee_bonus: NotRequired[int]
    total: int
    left: Annotated[bool, "The seat resigned: its turns are skipped."]
    token: NotRequired[
        Annotated[str, "Only in the answer that created the seat: keep it to move."]
    ]


class DiceBody(TypedDict):
    """How the game's dice are found: every die from the secret committed to at creation
    (docs/contract.md, "Verifiable dice and records"; the README has a verifier)."""

    algorithm: Annotated[
        Literal["hmac-sha256-v1", "legacy"],
        "`hmac-sha256-v1`: each die is derived from the secret and the client seed; "
        "`legacy`: a game created before, whose dice were drawn and cannot be checked.",
    ]
    commitment: Annotated[
        str | None, "Hex SHA-256 of the secret's 32 bytes, fixed before the first roll."
    ]
    client_seed: str | None
    secret: Annotated[
        str | None,
        "The hex secret, once the game is finished or abandoned; null until then.",
    ]


class ClockBody(TypedDict):
    """The game's turn clock (docs/contract.md, "Turn clocks")."""

    turn_seconds: int
    max_timeouts: int
    deadline: Annotated[
        DateTime | None,
        "When the person to move must have moved; null while the game waits, while a "
        "computer is to move and once it is over.",
    ]


class GameBody(TypedDict):
    id: Uuid
    ruleset: RulesetId
    options: dict[str, Any]
    status: Annotated[str, Choice(GAME_STATUSES)]
    ranked: bool
    seed: int | None
    dice: DiceBody
    clock: Annotated[ClockBody | None, "Null for a game without a turn clock."]
    open_seats: Annotated[int, "Seats still open to `join`."]
    version: int
    round: int
    current_seat: int | None
    turn: TurnBody
    choices: Annotated[
        dict[str, int],
        "Every box the current player may fill now, with the points it would take.",
    ]
    players: list[PlayerBody]
    winners: list[int]
    created_at: DateTime
    updated_at: DateTime
    finished_at: DateTime | None
    classroom: Annotated[
        Uuid | None, "The classroom of the student who created the game, if any."
    ]
    student: Annotated[
        str | None, "The name of the student whose API key created the game; null otherwise."
    ]
    assignment: Annotated[Uuid | None, "The assignment the game belongs to, if any."]
    assignment_game: Annotated[
        int | None, "In an assignment: which of the student's games it is (from 1)."
    ]


class EventBody(TypedDict):
    seq: int
    type: Annotated[str, Choice(EVENT_TYPES)]
    seat: int | None
    data: dict[str, Any]
    created_at: DateTime


GameOut = serializer_for(GameBody)
EventOut = serializer_for(EventBody)


def render_game(
    game: Game, players: list[Player], tokens: dict[int, str] | None = None
) -> GameBody:
    view = game.view()
    seats: list[PlayerBody] = []
    for player, shown in zip(players, view.players, strict=True):
        # The engine's view of the seat (an untyped dict) completes the shape.
        seat = cast(
            "PlayerBody",
            {"seat": player.seat, "name": player.name, "computer": player.computer,
             "bot": str(player.bot_id) if player.bot_id is not None else None, **shown},
        )
        seat["left"] = bool(view.left and view.left[player.seat])
        if tokens and player.seat in tokens:
            seat["token"] = tokens[player.seat]
        seats.append(seat)
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "options": game.options,
        "status": game.status,
        "ranked": game.ranked,
        "seed": game.seed,
        "dice": cast("DiceBody", dice_shown(game)),  # the algorithm: one the body names
        "clock": clock_shown(game),
        "open_seats": game.open_seats,
        "version": game.version,
        "round": view.round,
        "current_seat": view.current_seat if game.status == GameStatus.ACTIVE else None,
        "turn": cast("TurnBody", view.turn),  # the engine's view, an untyped dict
        "choices": view.choices if game.status == GameStatus.ACTIVE else {},
        "players": seats,
        "winners": view.winners,
        "created_at": iso_time(game.created_at),
        "updated_at": iso_time(game.updated_at),
        "finished_at": iso_time(game.finished_at) if game.finished_at else None,
        # A student's game: its classroom and the student (one query when not prefetched).
        "classroom": str(game.classroom_id) if game.classroom_id else None,
        "student": game.student.name if game.student is not None else None,
        "assignment": str(game.assignment_id) if game.assignment_id else None,
        "assignment_game": game.assignment_game,
    }


def render_event(event: Event) -> EventBody:
    return {
        "seq": event.seq,
        "type": event.type,
        "seat": event.seat,
        "data": event.data,
        "created_at": iso_time(event.created_at),
    }
