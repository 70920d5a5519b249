"""What a game record is (docs/contract.md, "Verifiable dice and records"): its parts and their
types, read from a JSON document (:func:`parse`) and stated as a JSON Schema (:func:`shape`),
so that the two cannot disagree. What a record says is judged by ``scoring.records``."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, cast, overload

from .errors import ProblemCode, RuleError, gettext_noop, worded
from .match import GameStatus, Seat
from .registry import RULESETS
from .ruleset import Ruleset
from .state import Json
from .verifiable import ALGORITHMS, check_client_seed

FORMAT: Final = "dice-games-record/1"
# Each logged move costs one engine move; a megabyte of JSON holds fewer events than this.
MOST_EVENTS = 20_000


# The field of an event's data that differs names the problem.
CODES_BY_FIELD = {
    "dice": "die_mismatch",
    "thrown": "die_mismatch",
    "held": "die_mismatch",
    "points": "score_mismatch",
    "yahtzee_bonus": "score_mismatch",
    "lost": "score_mismatch",
    "total": "total_mismatch",
    "totals": "total_mismatch",
    "winners": "total_mismatch",
}
PROBLEM_CODES = (
    "commitment_mismatch", "die_mismatch", "illegal_move", "score_mismatch", "total_mismatch",
    "status_mismatch",
)


@dataclass(frozen=True)
class Problem:
    """What is wrong with a record: ``message`` marked for translation (``gettext_noop``),
    with ``params`` in its named fields; ``detail`` is the English."""

    seq: int | None
    code: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict)

    @property
    def detail(self) -> str:
        return worded(self.message, self.params)


@dataclass
class Verdict:
    """What a check found: its problems (the first one first), the dice checked against the
    secret (None when the secret is not revealed) and the moves replayed."""

    problems: list[Problem] = field(default_factory=list)
    dice: int | None = None
    moves: int = 0

    @property
    def valid(self) -> bool:
        return not self.problems


class NotARecord(RuleError):
    """The document is not a game record at all: refused (``invalid``), not judged. The
    message names the part at fault in its field ``{field}``."""

    def __init__(self, where: str, message: str, **params: object) -> None:
        super().__init__(ProblemCode.INVALID, message, field=where, **params)


@dataclass(frozen=True)
class Logged:
    seq: int
    type: str
    seat: int | None
    data: dict[str, Json]


@dataclass(frozen=True)
class Record:
    ruleset: Ruleset
    options: dict[str, Json]
    players: list[Seat]
    seat_numbers: list[int]
    algorithm: str
    commitment: str | None
    client_seed: str | None
    secret: str | None = field(repr=False)
    events: list[Logged]
    status: str
    totals: list[int]
    winners: list[int]


def parse(document: object) -> Record:
    """The record's parts, each of the type it must have (:func:`shape` states them all).
    What the types cannot say (the log's order, the options' values) is the replay's to
    find, as a problem."""
    doc = _object(document, "record", RECORD_KEYS)
    if doc["format"] != FORMAT:
        raise NotARecord("format", gettext_noop('{field} must be "{format}"'), format=FORMAT)
    _text(doc["id"], "id")
    ruleset = RULESETS.get(doc["ruleset"]) if isinstance(doc["ruleset"], str) else None
    if ruleset is None:
        raise NotARecord(
            "ruleset", gettext_noop("{field} must be one of {known}"), known=", ".join(RULESETS)
        )
    options = _object(doc["options"], "options", ())
    players = _list(doc["players"], "players", most=MOST_SEATS)
    seats = [_seat(player, index) for index, player in enumerate(players)]
    dice = _object(doc["dice"], "dice", DICE_KEYS)
    algorithm = dice["algorithm"]
    if algorithm not in ALGORITHMS:
        raise NotARecord(
            "dice.algorithm", gettext_noop("{field} must be one of {known}"),
            known=", ".join(ALGORITHMS),
        )
    client_seed = _text(dice["client_seed"], "dice.client_seed", null=True)
    if client_seed is not None:
        try:
            check_client_seed(client_seed)
        except RuleError as error:
            given = {name: value for name, value in error.params.items() if name != "field"}
            raise NotARecord("dice.client_seed", error.message, **given) from None
    events = _list(doc["events"], "events", most=MOST_EVENTS)
    logged = [_event(event, index) for index, event in enumerate(events)]
    if not isinstance(doc["status"], str) or doc["status"] not in set(GameStatus):
        raise NotARecord(
            "status", gettext_noop("{field} must be one of {known}"), known=", ".join(GameStatus)
        )
    return Record(
        ruleset=ruleset,
        options=options,
        players=seats,
        seat_numbers=[cast(dict[str, int], player)["seat"] for player in players],  # _seat checked
        algorithm=algorithm,
        commitment=_text(dice["commitment"], "dice.commitment", null=True),
        client_seed=client_seed,
        secret=_text(dice["secret"], "dice.secret", null=True),
        events=logged,
        status=str(doc["status"]),
        totals=_numbers(doc["totals"], "totals"),
        winners=_numbers(doc["winners"], "winners"),
    )


RECORD_KEYS = (
    "format", "id", "ruleset", "options", "players", "dice", "events", "status", "totals",
    "winners",
)
PLAYER_KEYS = ("seat", "name", "computer")
DICE_KEYS = ("algorithm", "commitment", "client_seed", "secret")
EVENT_KEYS = ("seq", "type", "seat", "data")
MOST_SEATS = 8
CLIENT_SEED_PATTERN = "^[ -9;-~]{1,64}$"


def shape() -> dict[str, object]:
    """The JSON Schema of what :func:`parse` takes: a document that fits it is a record (and
    is judged), any other is refused."""
    text, number = {"type": "string"}, {"type": "integer"}

    def nullable(schema: Mapping[str, object]) -> dict[str, object]:
        return {**schema, "nullable": True}

    def obj(keys: tuple[str, ...], **properties: Mapping[str, object]) -> dict[str, object]:
        return {"type": "object", "required": list(keys), "properties": properties}

    numbers = {"type": "array", "maxItems": MOST_NUMBERS, "items": number}
    return obj(
        RECORD_KEYS,
        format={"type": "string", "enum": [FORMAT]},
        id=text,
        ruleset={"type": "string", "enum": list(RULESETS)},
        options={"type": "object", "additionalProperties": True},
        players={
            "type": "array",
            "maxItems": MOST_SEATS,
            "items": obj(PLAYER_KEYS, seat=number, name=text, computer=nullable(text)),
        },
        dice=obj(
            DICE_KEYS,
            algorithm={"type": "string", "enum": list(ALGORITHMS)},
            commitment=nullable(text),
            client_seed=nullable({"type": "string", "pattern": CLIENT_SEED_PATTERN}),
            secret=nullable(text),
        ),
        events={
            "type": "array",
            "maxItems": MOST_EVENTS,
            "items": obj(
                EVENT_KEYS,
                seq=number,
                type=text,
                seat=nullable(number),
                data={"type": "object", "additionalProperties": True},
            ),
        },
        status={"type": "string", "enum": [status.value for status in GameStatus]},
        totals=numbers,
        winners=numbers,
    )


MOST_NUMBERS = 64


def _object(value: object, where: str, keys: tuple[str, ...]) -> dict[str, Json]:
    if not isinstance(value, dict):
        raise NotARecord(where, gettext_noop("{field} must be an object"))
    missing = [key for key in keys if key not in value]
    if missing:
        raise NotARecord(
            f"{where}.{missing[0]}" if where != "record" else missing[0],
            gettext_noop("{field} is missing"),
        )
    return value


def _list(value: object, where: str, *, most: int) -> list[object]:
    if not isinstance(value, list):
        raise NotARecord(where, gettext_noop("{field} must be a list"))
    if len(value) > most:
        raise NotARecord(where, gettext_noop("{field} holds more than {most} items"), most=most)
    return value


@overload
def _text(value: object, where: str) -> str: ...


@overload
def _text(value: object, where: str, *, null: bool) -> str | None: ...


def _text(value: object, where: str, *, null: bool = False) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str):
        raise NotARecord(where, gettext_noop("{field} must be a string or null") if null
                         else gettext_noop("{field} must be a string"))
    return value


@overload
def _int(value: object, where: str) -> int: ...


@overload
def _int(value: object, where: str, *, null: bool) -> int | None: ...


def _int(value: object, where: str, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if type(value) is not int:
        raise NotARecord(where, gettext_noop("{field} must be a whole number or null") if null
                         else gettext_noop("{field} must be a whole number"))
    return value


def _numbers(value: object, where: str) -> list[int]:
    items = _list(value, where, most=MOST_NUMBERS)
    return [_int(item, f"{where}.{i}") for i, item in enumerate(items)]


def _seat(value: object, index: int) -> Seat:
    player = _object(value, f"players.{index}", PLAYER_KEYS)
    _int(player["seat"], f"players.{index}.seat")
    name = _text(player["name"], f"players.{index}.name")
    return Seat(name, _text(player["computer"], f"players.{index}.computer", null=True))


def _event(value: object, index: int) -> Logged:
    event = _object(value, f"events.{index}", EVENT_KEYS)
    return Logged(
        seq=_int(event["seq"], f"events.{index}.seq"),
        type=_text(event["type"], f"events.{index}.type"),
        seat=_int(event["seat"], f"events.{index}.seat", null=True),
        data=_object(event["data"], f"events.{index}.data", ()),
    )
