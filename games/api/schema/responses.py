"""Response shapes: the bodies the views render, each declared once
(see ``games.api.schema.shapes``).

The ``*Body`` classes type what ``games.api.render`` builds; the ``*Out`` serializers derived
from them are what the schema states (a nested shape's serializer is derived with it).
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.schema.enums import (
    ANALYSIS_METHODS,
    BOX_IDS,
    COMPUTERS,
    EVENT_TYPES,
    GAME_STATUSES,
    MOVES,
    RECORD_PROBLEMS,
    RULESET_IDS,
)
from games.api.schema.shapes import Bounds, Choice, DateTime, Uuid, serializer_for
from games.http.problems import ProblemBody

BoxId = Annotated[str, Choice(BOX_IDS)]
RulesetId = Annotated[str, Choice(RULESET_IDS)]
Face = Annotated[int, Bounds(1, 6)]
Count = Annotated[int, Bounds(0)]


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


class HealthBody(TypedDict):
    status: str
    database: str


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


class HintBody(AdviceBody):
    seat: Annotated[int, "The seat the advice is for: the current one."]


# -- Ten Thousand's advice -------------------------------------------------------------------

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


class TenThousandHintBody(TenThousandAdviceBody):
    seat: Annotated[int, "The seat the advice is for: the current one."]


# -- analysis ------------------------------------------------------------------------------


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


# -- what the schema states ----------------------------------------------------------------

GameOut = serializer_for(GameBody)
EventOut = serializer_for(EventBody)
RulesetOut = serializer_for(RulesetBody)
ScoreOut = serializer_for(ScoreBody)
HealthOut = serializer_for(HealthBody)
ProblemOut = serializer_for(ProblemBody)
AdviceOut = serializer_for(AdviceBody)
HintOut = serializer_for(HintBody)
AnalysisOut = serializer_for(AnalysisBody)
TenThousandAdviceOut = serializer_for(TenThousandAdviceBody)
TenThousandHintOut = serializer_for(TenThousandHintBody)
TenThousandAnalysisOut = serializer_for(TenThousandAnalysisBody)


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
