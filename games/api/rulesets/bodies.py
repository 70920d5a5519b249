"""The rulesets' answers: a ruleset with its boxes and options, the score calculator's
points, and the advice for any position."""

from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.schema.enums import MOVES
from games.api.schema.responses import BoxId, RulesetId
from games.api.schema.shapes import Choice, serializer_for
from games.http.translation import localized
from scoring import Option, Ruleset
from scoring.boxgames.strategy import Advice
from scoring.boxgames.strategy.api import BoxChoice
from scoring.tenthousand.strategy.advice import TenThousandAdvice


class CategoryBody(TypedDict):
    id: BoxId
    name: str
    section: Literal["upper", "lower"]
    description: str


class OptionBody(TypedDict):
    type: Literal["string", "integer", "boolean"]
    values: Annotated[list[Any], "The allowed values; empty when bounded instead."]
    default: Any
    minimum: NotRequired[int]
    maximum: NotRequired[int]
    step: NotRequired[Annotated[int, "The value is a multiple of it."]]
    description: str


class RulesetBody(TypedDict):
    id: RulesetId
    name: str
    description: str
    dice: int
    rolls_per_turn: Annotated[int, "0 when a turn has no limit on its throws."]
    min_players: int
    max_players: int
    moves: list[Annotated[str, Choice(MOVES)]]
    categories: list[CategoryBody]
    options: dict[str, OptionBody]


class ScoreBody(TypedDict):
    scores: NotRequired[
        Annotated[
            dict[str, int], "Box games: every box that may legally be filled now, and its points."
        ]
    ]
    points: NotRequired[
        Annotated[int, "Ten Thousand: the selection's value (0 when it does not score)."]
    ]
    scoring: NotRequired[
        Annotated[bool, "Ten Thousand: whether every die of the selection scores."]
    ]


class AdviceOptionBody(TypedDict):
    action: Literal["roll", "score"]
    hold: NotRequired[list[int]]
    category: NotRequired[BoxId]
    points: NotRequired[Annotated[int, "What the box takes now."]]
    expected_final: NotRequired[float]


class AdviceBody(TypedDict):
    method: Annotated[
        Literal["optimal", "heuristic"],
        "optimal: from the solved strategy tables; heuristic: the strongest computer "
        "player's move (Maxi Yatzy), without expected values.",
    ]
    expected_final: Annotated[
        float | None,
        "Points on the card (bonuses included) plus the expected points to come.",
    ]
    best: AdviceOptionBody | None
    options: Annotated[
        list[AdviceOptionBody], "Every distinct keep and legal box, best first."
    ]


TEN_THOUSAND_OPTION = {
    "oneOf": [
        {
            "type": "object",
            "required": ["keep", "then"],
            "additionalProperties": False,
            "properties": {
                "keep": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 1, "maximum": 6},
                    "maxItems": 6,
                    "description": "The faces set aside from this throw, sorted (a scoring "
                    "selection); empty only before the turn's first throw.",
                },
                "then": {
                    "type": "string",
                    "enum": ["roll", "bank"],
                    "description": "Throw the dice left (all six again once all are set "
                    "aside), or bank the turn score.",
                },
            },
            "description": "Set these dice aside, then throw on or bank.",
        },
        {"type": "string", "enum": ["pass"], "description": "End the turn with no points."},
    ]
}


@extend_schema_field(TEN_THOUSAND_OPTION)
class TenThousandOptionField(serializers.JSONField):
    """A Ten Thousand option: ``{"keep": [faces], "then": "roll" | "bank"}`` or ``"pass"``."""


TenThousandOption = Annotated[Any, TenThousandOptionField]
OBJECTIVE = (
    "`win_probability` (two seats in play: the seat's chance of winning) or "
    "`expected_turns` (one seat: its expected number of turns still to play, this one "
    "included)."
)


class TenThousandOptionValueBody(TypedDict):
    option: TenThousandOption
    value: Annotated[
        float,
        "The seat's value if it takes this option and plays optimally afterwards, in the "
        "objective's units, unrounded (exact to 1e-9).",
    ]


class TenThousandAdviceBody(TypedDict):
    """Ten Thousand: every distinct option of the throw to decide on, with its value."""

    method: Annotated[
        Literal["optimal", "approximate"],
        "`optimal`: the solved game (one or two seats in play, `final_round` false, "
        "`target` at most 10,000); `approximate`: the documented approximation otherwise "
        "(three or more seats: against the strongest other seat; a larger target: at most "
        "10,000 from it; a final round: its last turn solved exactly).",
    ]
    objective: Annotated[Literal["win_probability", "expected_turns"], OBJECTIVE]
    best: Annotated[TenThousandOption, "The best option (the first of `options`)."]
    options: Annotated[
        list[TenThousandOptionValueBody],
        "Every distinct option, best first: each scoring selection of the throw (as sorted "
        "faces) then `roll`, and then `bank` where the turn score reaches the bank minimum; "
        "and `pass`. Before the turn's first throw: `{\"keep\": [], \"then\": \"roll\"}` and "
        "`pass`.",
    ]


RulesetOut = serializer_for(RulesetBody)
ScoreOut = serializer_for(ScoreBody)
AdviceOut = serializer_for(AdviceBody)
TenThousandAdviceOut = serializer_for(TenThousandAdviceBody)


def render_ruleset(ruleset: Ruleset) -> RulesetBody:
    return {
        "id": ruleset.id,
        "name": gettext(ruleset.name),
        "description": gettext(ruleset.description),
        "dice": ruleset.dice,
        "rolls_per_turn": ruleset.rolls_per_turn,
        "min_players": ruleset.min_players,
        "max_players": ruleset.max_players,
        "moves": sorted(move.action for move in ruleset.moves),
        "categories": [
            {
                "id": c.id,
                "name": gettext(c.name),
                "section": c.section,
                "description": gettext(c.description),
            }
            for c in ruleset.categories
        ],
        "options": {option.id: render_option(option) for option in ruleset.options},
    }


JSON_TYPES: dict[type, Literal["string", "integer", "boolean"]] = {
    str: "string", int: "integer", bool: "boolean"
}


def render_option(option: Option) -> OptionBody:
    shown: OptionBody = {
        "type": JSON_TYPES[option.kind],
        "values": list(option.values),
        "default": option.default,
        "description": localized(option.description, option.described()),
    }
    for bound in ("minimum", "maximum", "step"):
        if getattr(option, bound, None) is not None:
            shown[bound] = getattr(option, bound)
    return shown


def render_advice(advice: Advice) -> AdviceBody:
    """Expected finals rounded to 4 places, the best move, every option."""
    return {
        "method": "optimal",
        "expected_final": round(advice.expected_final, 4),
        "best": _advice_option(advice.best) if advice.best is not None else None,
        "options": [_advice_option(option) for option in advice.options],
    }


def _advice_option(option: BoxChoice) -> AdviceOptionBody:
    rounded = {**option, "expected_final": round(option["expected_final"], 4)}
    return cast("AdviceOptionBody", rounded)  # the same keys, in the body's own shape


def render_ten_thousand_advice(advice: TenThousandAdvice) -> TenThousandAdviceBody:
    """Every option with its value, unrounded (exact to 1e-9), best first."""
    body = {
        "method": advice.method,
        "objective": advice.objective,
        "best": advice.best,
        "options": [{"option": option, "value": value} for option, value in advice.options],
    }
    return cast("TenThousandAdviceBody", body)  # method and objective: ones the body names
