"""What the strategy tables say about a game: the hint for the seat to move and the
analysis of every decision, for box games and for Ten Thousand."""

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypedDict, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.rulesets.bodies import (
    OBJECTIVE,
    AdviceBody,
    AdviceOptionBody,
    TenThousandAdviceBody,
    TenThousandOption,
    render_advice,
    render_ten_thousand_advice,
)
from games.api.schema.enums import ANALYSIS_METHODS
from games.api.schema.responses import Count, Face
from games.api.schema.shapes import Bounds, Choice, serializer_for
from games.play.advice import Hint
from games.play.analysis import GameAnalysis
from scoring.boxgames.family import BOX_GAMES
from scoring.tenthousand.family import TEN_THOUSAND


class HintBody(AdviceBody):
    seat: Annotated[int, "The seat the advice is for: the current one."]


class TenThousandHintBody(TenThousandAdviceBody):
    seat: Annotated[int, "The seat the advice is for: the current one."]


KEEP_OR_BOX = {
    "oneOf": [
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1, "maximum": 6},
            "maxItems": 5,
            "description": "A keep: the faces held for the next roll, sorted.",
        },
        {"type": "string", "description": "A box: its category id."},
    ]
}


@extend_schema_field(KEEP_OR_BOX)
class KeepOrBoxField(serializers.Field):
    """An option of a decision: a keep (sorted faces) or a box (category id)."""


KeepOrBox = Annotated[list[Face] | str, KeepOrBoxField]


class LabelCountsBody(TypedDict):
    best: Count
    inaccuracy: Count
    mistake: Count
    blunder: Count


class AnalysisSeatBody(TypedDict):
    seat: int
    name: str
    computer: Annotated[
        str | None, "Null for a person; a computer seat's strategy otherwise."
    ]
    total: Annotated[int, "The seat's total now (final once finished)."]
    expected_start: Annotated[
        float, "The expected final score of optimal play from the empty card."
    ]
    expected_loss: Annotated[float, "The sum of the decisions' `loss`."]
    accuracy: Annotated[
        float | None,
        Bounds(0, 100),
        "`100 * (1 - expected_loss / expected_start)`, at least 0, to two decimals: the "
        "share of the expected score the seat's decisions kept. Null before the seat's "
        "first decision.",
    ]
    luck: Annotated[
        float,
        "`total - expected_start + expected_loss`: how many points the dice gave above (or "
        "below) what was expected. Meaningful once the seat's card is full: until then it "
        "also counts the points still to come.",
    ]
    counts: Annotated[LabelCountsBody, "The seat's decisions per label."]


class AnalysisDecisionBody(TypedDict):
    seq: Annotated[int, "The event that records the decision."]
    seat: int
    round: int
    kind: Annotated[Literal["keep", "box"], "The kind of the option chosen."]
    dice: Annotated[list[Face], "The dice the decision was made on, sorted."]
    rolls_left: Annotated[int, Bounds(0), "The rolls still allowed when it was made."]
    chosen: KeepOrBox
    best: Annotated[
        KeepOrBox, "The best option (the chosen one itself when it is among the best)."
    ]
    chosen_value: Annotated[
        float, "Expected final score of the seat after the chosen option."
    ]
    best_value: Annotated[float, "Expected final score of the seat after the best option."]
    loss: Annotated[float, Bounds(0), "`best_value - chosen_value`."]
    label: Literal["best", "inaccuracy", "mistake", "blunder"]


class TenThousandDecisionBody(TypedDict):
    seq: Annotated[
        int, "The event that records the decision: the `set_aside`, or the `passed`."
    ]
    seat: int
    round: Annotated[int, "The seat's turn, from 1."]
    dice: Annotated[list[Face], "The faces of the throw decided on, sorted."]
    turn_points: Annotated[int, "The turn's points before this decision."]
    totals: Annotated[
        list[int], "The seat's total, then (two seats) the other's, when it decided."
    ]
    chosen: TenThousandOption
    best: Annotated[
        TenThousandOption, "The best option (the chosen one itself when it is among the best)."
    ]
    chosen_value: Annotated[float, "The value after the chosen option, in the objective's units."]
    best_value: Annotated[float, "The value after the best option."]
    loss: Annotated[
        float,
        Bounds(0),
        "The distance from the best: `best_value - chosen_value` for a chance of winning, "
        "`chosen_value - best_value` for expected turns; 0 for a best move.",
    ]
    label: Literal["best", "inaccuracy", "mistake", "blunder"]


class TenThousandAnalysisSeatBody(TypedDict):
    seat: int
    name: str
    computer: Annotated[str | None, "Null for a person; a computer seat's strategy otherwise."]
    total: Annotated[int, "The seat's total now (final once finished)."]
    expected_start: Annotated[
        float,
        "The seat's value at the start of the game under optimal play: its chance of winning "
        "(the first seat's, or one minus it for the second), or the expected turns alone.",
    ]
    expected_loss: Annotated[float, "The sum of the decisions' `loss`."]
    accuracy: Annotated[
        float | None,
        Bounds(0, 100),
        "Chance of winning: `100 * (1 - expected_loss / expected_start)`, at least 0; "
        "expected turns: `100 * expected_start / (expected_start + expected_loss)`. Two "
        "decimals; null before the seat's first decision.",
    ]
    luck: Annotated[
        float | None,
        "Once the game is finished: chance of winning, `outcome - expected_start + "
        "expected_loss` (outcome 1 for a win, else 0); expected turns, `expected_start + "
        "expected_loss - turns played` (positive: fewer turns than expected). Null while "
        "the game goes on.",
    ]
    counts: Annotated[LabelCountsBody, "The seat's decisions per label."]


class TenThousandAnalysisBody(TypedDict):
    """Ten Thousand (games of one or two seats): every decision in the game's objective."""

    method: Annotated[Literal["optimal", "approximate"], "As for the advice."]
    objective: Annotated[Literal["win_probability", "expected_turns"], OBJECTIVE]
    seats: list[TenThousandAnalysisSeatBody]
    decisions: Annotated[list[TenThousandDecisionBody], "Oldest first."]


class AnalysisBody(TypedDict):
    method: Annotated[
        str,
        Choice(ANALYSIS_METHODS),
        "`optimal`: values are exact expectations under optimal solitaire play, from the "
        "solved strategy tables (the same as `hint` and `advice`).",
    ]
    seats: list[AnalysisSeatBody]
    decisions: Annotated[list[AnalysisDecisionBody], "Oldest first."]


HintOut = serializer_for(HintBody)
AnalysisOut = serializer_for(AnalysisBody)
TenThousandHintOut = serializer_for(TenThousandHintBody)
TenThousandAnalysisOut = serializer_for(TenThousandAnalysisBody)


# Each family's advice as the API shows it, by the family's id.
ADVICE_BODIES: dict[str, Callable[[Any], AdviceBody | TenThousandAdviceBody]] = {
    BOX_GAMES.id: render_advice,
    TEN_THOUSAND.id: render_ten_thousand_advice,
}


def render_hint(hint: Hint) -> HintBody | TenThousandHintBody:
    if hint.advice is not None:
        return cast(
            "HintBody | TenThousandHintBody",
            {"seat": hint.seat, **ADVICE_BODIES[hint.family](hint.advice)},
        )
    # No table for the ruleset: the move of the strongest computer player, with no values.
    return {
        "seat": hint.seat,
        "method": "heuristic",
        "expected_final": None,
        "best": cast("AdviceOptionBody | None", hint.move),  # the engine's move, untyped
        "options": [],
    }


def render_analysis(result: GameAnalysis) -> AnalysisBody | TenThousandAnalysisBody:
    """The seats (the same fields for every ruleset) and the decisions; Ten Thousand adds
    its objective."""
    names = {player.seat: player for player in result.players}
    analysis = result.analysis
    seats = [
        {
            "seat": seat.seat,
            "name": names[seat.seat].name,
            "computer": names[seat.seat].computer,
            "total": seat.total,
            "expected_start": seat.expected_start,
            "expected_loss": seat.expected_loss,
            "accuracy": seat.accuracy,
            "luck": seat.luck,
            "counts": seat.counts,
        }
        for seat in analysis.seats
    ]
    decisions = [decision.as_dict() for decision in analysis.decisions]
    # The engine's seats and decisions (untyped dicts) are the bodies' shapes; a family
    # whose analysis states its objective (Ten Thousand's) shows it too.
    objective = getattr(analysis, "objective", None)
    head = {"method": analysis.method} | ({} if objective is None else {"objective": objective})
    body = head | {"seats": seats, "decisions": decisions}
    return cast("AnalysisBody | TenThousandAnalysisBody", body)
