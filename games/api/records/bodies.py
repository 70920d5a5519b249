"""A game's record as one document, and the verdict on a record checked."""

from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.games.bodies import DiceBody, EventBody, render_event
from games.api.schema.enums import COMPUTERS, GAME_STATUSES, RECORD_PROBLEMS
from games.api.schema.responses import RulesetId
from games.api.schema.shapes import Choice, Uuid, serializer_for
from games.http.translation import localized
from games.play.dice import dice_shown
from games.play.records import GameRecord
from scoring.record_format import FORMAT
from scoring.records import Verdict


class RecordPlayerBody(TypedDict):
    seat: int
    name: str
    computer: Annotated[str | None, Choice(COMPUTERS), "Null for a person."]


class RecordBody(TypedDict):
    """A game as one self-contained document, to keep and to check (`/records/verify/`,
    or the README's stand-alone verifier)."""

    format: Literal["dice-games-record/1"]
    id: Uuid
    ruleset: RulesetId
    options: dict[str, Any]
    players: list[RecordPlayerBody]
    dice: DiceBody
    events: Annotated[list[EventBody], "The whole log, oldest first, as `/events/` shows it."]
    status: Annotated[str, Choice(GAME_STATUSES)]
    totals: Annotated[list[int], "Each seat's total, in seat order."]
    winners: list[int]


@extend_schema_field(
    {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["unchecked"]}]}
)
class CheckedDiceField(serializers.JSONField):
    """A count of dice, or the word ``unchecked``."""


class CheckedBody(TypedDict):
    dice: Annotated[
        Any,
        CheckedDiceField,
        "How many thrown dice were derived again from the secret; `unchecked` while the "
        "secret is hidden (or for a `legacy` game).",
    ]
    moves: Annotated[int, "How many moves were played again through the rules."]


class RecordProblemBody(TypedDict):
    seq: Annotated[int | None, "The event at fault; null for the record as a whole."]
    code: Annotated[str, Choice(RECORD_PROBLEMS)]
    detail: str


class VerdictBody(TypedDict):
    valid: bool
    checked: NotRequired[Annotated[CheckedBody, "When `valid`: what was checked."]]
    problems: NotRequired[
        Annotated[list[RecordProblemBody], "When not `valid`: the first problem first."]
    ]


RecordOut = serializer_for(RecordBody)
VerdictOut = serializer_for(VerdictBody)


def render_record(record: GameRecord) -> RecordBody:
    game = record.game
    view = game.view()
    return {
        "format": FORMAT,
        "id": str(game.id),
        "ruleset": game.ruleset,
        "options": game.options,
        "players": [
            {"seat": p.seat, "name": p.name, "computer": p.computer} for p in record.players
        ],
        "dice": cast("DiceBody", dice_shown(game)),  # the algorithm: one the body names
        "events": [render_event(event) for event in record.events],
        "status": game.status,
        "totals": view.totals,
        "winners": view.winners,
    }


def render_verdict(verdict: Verdict) -> VerdictBody:
    if not verdict.valid:
        return {
            "valid": False,
            "problems": [
                {"seq": p.seq, "code": p.code, "detail": localized(p.message, p.params)}
                for p in verdict.problems
            ],
        }
    checked: CheckedBody = {
        "dice": "unchecked" if verdict.dice is None else verdict.dice,
        "moves": verdict.moves,
    }
    return {"valid": True, "checked": checked}
