"""Request validation and response shapes. No rules here: the engine owns them."""

from typing import Any, ClassVar

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.http.strict import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from scoring import RULESETS, Option
from scoring.commands import Bank, Command, Hold, Join, Leave, Pass, Roll, Score, Scratch, Start

BOX_IDS = sorted({box.id for ruleset in RULESETS.values() for box in ruleset.categories})
# Closed sets of ids the responses use: the schema lists them as enums, for generated clients.
RULESET_IDS = list(RULESETS)
MOVES = sorted({move.action for ruleset in RULESETS.values() for move in ruleset.moves})
COMPUTERS = ["random", "greedy", "optimal", "classic"]
EVENT_TYPES = [
    "created", "joined", "started", "rolled", "held", "scored", "scratched", "set_aside",
    "banked", "busted", "passed", "left", "finished", "abandoned",
]


@extend_schema_field({"type": "string", "enum": list(RULESETS)})
class RulesetField(StrictCharField):
    """A ruleset id; an unknown one is refused with the code ``unknown_ruleset``."""


INT64 = 2**63 - 1
MOST_POINTS = 10_000  # far above any box's points or a game's Yahtzee bonuses


def _option_schema(option: Option) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": JSON_TYPES[option.kind], "description": option.description}
    if option.values and option.kind is not bool:
        schema["enum"] = list(option.values)
    for key, value in (
        ("minimum", option.minimum), ("maximum", option.maximum), ("multipleOf", option.step)
    ):
        if value is not None:
            schema[key] = value
    return schema


JSON_TYPES = {str: "string", int: "integer", bool: "boolean"}
OPTION_SCHEMAS = {
    option.id: _option_schema(option) for ruleset in RULESETS.values() for option in ruleset.options
}


@extend_schema_field(
    {
        "type": "object",
        "properties": OPTION_SCHEMAS,
        "additionalProperties": False,
        "description": "House rules, each named by its id; each ruleset takes only its own "
        "(see `options` of /api/v1/rulesets/); missing ones take their defaults.",
    }
)
class OptionsField(serializers.DictField):
    """House rules: a JSON object; which names and values a ruleset takes is its own check."""


@extend_schema_field(
    {
        "type": "object",
        "properties": {
            box: {"type": "integer", "minimum": 0, "maximum": MOST_POINTS, "nullable": True}
            for box in BOX_IDS
        },
        "additionalProperties": False,
        "description": "Box id to points, or null for an open box; missing boxes are open. "
        "Only the ruleset's own boxes may be named.",
    }
)
class ScorecardField(serializers.DictField):
    """A scorecard: box ids to points (or null); which boxes exist is the ruleset's check."""

    child = StrictIntegerField(allow_null=True, min_value=0, max_value=MOST_POINTS)


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 6},
        "minItems": 1,
        "maxItems": 6,
    }
)
class DiceField(serializers.ListField):
    """Faces from 1 to 6, one to six of them (how many a ruleset takes is its own check);
    any fault, a missing list included, is ``invalid_dice``, as the contract names it."""

    fewest, most = 1, 6

    def fail(self, key: str, **kwargs: Any) -> None:
        if key == "required":
            raise serializers.ValidationError("give the dice", code="invalid_dice")
        super().fail(key, **kwargs)

    def to_internal_value(self, data: Any) -> list[int]:
        if (
            not isinstance(data, list)
            or not self.fewest <= len(data) <= self.most
            or not all(type(face) is int and 1 <= face <= 6 for face in data)
        ):
            count = f"{self.fewest} to {self.most}" if self.fewest < self.most else self.most
            raise serializers.ValidationError(
                f"must be a list of {count} faces from 1 to 6", code="invalid_dice"
            )
        return data


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 1, "maximum": 6},
        "minItems": 5,
        "maxItems": 5,
        "nullable": True,
    }
)
class FiveDiceField(DiceField):
    """The five dice of the rulesets whose strategy is solved."""

    fewest = most = 5




# -- requests ------------------------------------------------------------------------------


# A name shows somewhere: at least one visible character, and no NUL (no database keeps it).
NAME = RegexValidator(r"^[^\x00]*\S[^\x00]*$", "a name needs a visible character and no NUL")


def name_field(**kwargs: Any) -> StrictCharField:
    return StrictCharField(max_length=50, trim_whitespace=True, validators=[NAME], **kwargs)


class SeatIn(StrictSerializer):
    name = name_field()
    computer = StrictCharField(
        allow_null=True,
        required=False,
        default=None,
        max_length=16,
        help_text="Null (or absent) for a person; for a computer seat its strategy: `random`, "
        "`greedy` or `optimal` (Ten Thousand also `classic`). Computer seats play their turns "
        "at once, within the request that ends the previous seat's turn.",
    )


class GameCreateIn(StrictSerializer):
    ruleset = RulesetField(help_text="The ruleset's id (see /api/v1/rulesets/).")
    options = OptionsField(required=False, default=dict)
    players = serializers.ListField(
        child=SeatIn(), min_length=1, max_length=8, help_text="The seats, in turn order."
    )
    open_seats = StrictIntegerField(
        min_value=0,
        max_value=7,
        default=0,
        help_text="Extra seats that others take with `join`; the game waits until they are "
        "filled or a seated person calls `start`.",
    )
    seed = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=-INT64 - 1,
        max_value=INT64,
        help_text="The same seed and the same moves give the same dice; seeded games are unranked.",
    )

    def validate_ruleset(self, value: str) -> str:
        if value not in RULESETS:
            raise serializers.ValidationError(
                f"no ruleset {value!r}; known: {', '.join(RULESETS)}", code="unknown_ruleset"
            )
        return value


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 5},
        "maxItems": 6,
        "uniqueItems": True,
    }
)
class PositionsField(serializers.ListField):
    """Dice positions (from 0), each at most once; any fault is ``invalid_dice``, as the
    contract names it, whatever it is (a string, a position out of range, a repeat)."""

    def to_internal_value(self, data: Any) -> list[int]:
        if (
            not isinstance(data, list)
            or len(data) > 6
            or not all(type(i) is int and 0 <= i <= 5 for i in data)
            or len(set(data)) != len(data)
        ):
            raise serializers.ValidationError(
                "must be a list of distinct dice positions from 0 to 5", code="invalid_dice"
            )
        return sorted(data)


def positions(help_text: str, *, required: bool = True) -> PositionsField:
    return PositionsField(required=required, help_text=help_text)


class CommandIn(StrictSerializer):
    """A move's body; once valid, :meth:`save` yields the engine's typed command."""

    command: ClassVar[type[Command]]

    def create(self, validated_data: dict[str, Any]) -> Command:
        return self.command(
            **{
                name: tuple(value) if isinstance(value, list) else value
                for name, value in validated_data.items()
            }
        )


class RollIn(CommandIn):
    command = Roll
    hold = positions(
        "Box games: positions (from 0) of the dice to keep; the others are thrown.",
        required=False,
    )
    set_aside = positions(
        "Ten Thousand: positions of a scoring selection of the last throw to set aside before "
        "throwing the free dice (absent or empty for the turn's first throw).",
        required=False,
    )


class BankIn(CommandIn):
    command = Bank
    set_aside = positions(
        "Positions of a scoring selection of the last throw, set aside before banking."
    )


class PassIn(CommandIn):
    command = Pass


class LeaveIn(CommandIn):
    command = Leave


class StartIn(CommandIn):
    command = Start


class HoldIn(CommandIn):
    command = Hold
    hold = positions(
        "Positions (from 0) of the dice to keep at the next roll; all others are freed."
    )


class JoinIn(CommandIn):
    command = Join
    name = name_field()


@extend_schema_field({"type": "string", "enum": BOX_IDS})
class BoxField(StrictCharField):
    """A box id of some ruleset (whether the game's ruleset has it is the engine's check);
    any other string, or none at all, is ``unknown_category``, as the contract names it."""

    def fail(self, key: str, **kwargs: Any) -> None:
        if key == "required":
            raise serializers.ValidationError("name the box to fill", code="unknown_category")
        super().fail(key, **kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        if value not in BOX_IDS:
            raise serializers.ValidationError(f"no box {value!r}", code="unknown_category")
        return value


class ScoreBoxIn(CommandIn):
    command = Score
    category = BoxField(help_text="A box id of the game's ruleset (see /api/v1/rulesets/).")


class ScratchBoxIn(ScoreBoxIn):
    command = Scratch


class ScoreIn(StrictSerializer):
    dice = DiceField(
        help_text="Box games: all the dice (5; Maxi Yatzy 6). Ten Thousand: a selection of 1 "
        "to 6 dice."
    )
    scorecard = ScorecardField(required=False, allow_null=True)
    options = OptionsField(required=False, default=dict)


class GamesQuery(serializers.Serializer):
    """The list's query, checked before any lookup: a malformed value is 400, never ignored
    (an empty ``status=`` filters nothing only if it is left out)."""

    ruleset = serializers.ChoiceField(choices=list(RULESETS), required=False)
    status = serializers.ChoiceField(
        choices=["waiting", "active", "finished", "abandoned"], required=False
    )
    player = serializers.CharField(
        max_length=50,
        required=False,
        help_text="Games with a seat of this name (case does not matter).",
    )
    page = serializers.IntegerField(
        min_value=1, max_value=2**31 - 1, required=False, help_text="From 1; past the last: 404."
    )
    page_size = serializers.IntegerField(
        min_value=1, max_value=100, required=False, help_text="Games per page (default 20)."
    )


class EventsQuery(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Only events with a larger seq."
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=1000)


# -- responses (documentation of the shapes the views render) ------------------------------


class BustOut(serializers.Serializer):
    """A Ten Thousand throw in which no die could score: the turn ended with no points."""

    seat = serializers.IntegerField(help_text="The seat whose turn busted.")
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        min_length=6,
        max_length=6,
        help_text="All six dice on the table after the throw (set-aside dice included).",
    )
    thrown = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=5),
        help_text="The positions of the dice of the throw (the others were set aside earlier).",
    )
    lost = serializers.IntegerField(help_text="The turn points lost with the bust.")


class TurnOut(serializers.Serializer):
    """One shape for every ruleset: box games fill the first group, Ten Thousand the second."""

    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        allow_null=True,
        help_text="The dice after the last throw; null before the turn's first throw.",
    )
    held = serializers.ListField(child=serializers.BooleanField(), required=False)
    rolls_used = serializers.IntegerField(required=False)
    rolls_left = serializers.IntegerField(
        required=False, help_text="Rolls still allowed this turn (Maxi Yatzy: saved rolls too)."
    )
    set_aside = serializers.ListField(child=serializers.BooleanField(), required=False)
    turn_points = serializers.IntegerField(required=False)
    throw_points_available = serializers.BooleanField(required=False)
    can_bank = serializers.BooleanField(required=False)
    last_bust = BustOut(
        required=False,
        help_text="Ten Thousand, only in the answer to the move whose throw busted (until the "
        "game's next move): the throw that ended that turn, since the turn itself is already "
        "cleared for the next seat.",
    )


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    computer = serializers.ChoiceField(
        choices=COMPUTERS,
        allow_null=True,
        help_text="Null for a person; a computer seat's strategy (`classic`: Ten Thousand only).",
    )
    scorecard = serializers.DictField(
        child=serializers.IntegerField(allow_null=True), required=False
    )
    upper_total = serializers.IntegerField(required=False)
    upper_bonus = serializers.IntegerField(required=False)
    yahtzee_bonus = serializers.IntegerField(required=False)
    total = serializers.IntegerField()
    left = serializers.BooleanField(help_text="The seat resigned: its turns are skipped.")
    token = serializers.CharField(
        required=False, help_text="Only in the answer that created the seat: keep it to move."
    )


class GameOut(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.ChoiceField(choices=RULESET_IDS)
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "abandoned"])
    ranked = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True)
    open_seats = serializers.IntegerField(help_text="Seats still open to `join`.")
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    current_seat = serializers.IntegerField(allow_null=True)
    turn = TurnOut()
    choices = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Every box the current player may fill now, with the points it would take.",
    )
    players = PlayerOut(many=True)
    winners = serializers.ListField(child=serializers.IntegerField())
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    classroom = serializers.UUIDField(
        allow_null=True, help_text="The classroom of the student who created the game, if any."
    )
    student = serializers.CharField(
        allow_null=True,
        help_text="The name of the student whose API key created the game; null otherwise.",
    )


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=EVENT_TYPES)
    seat = serializers.IntegerField(allow_null=True)
    data = serializers.DictField()
    created_at = serializers.DateTimeField()


class CategoryOut(serializers.Serializer):
    id = serializers.ChoiceField(choices=BOX_IDS)
    name = serializers.CharField()
    section = serializers.ChoiceField(choices=["upper", "lower"])
    description = serializers.CharField()


class OptionOut(serializers.Serializer):
    type = serializers.ChoiceField(choices=["string", "integer", "boolean"])
    values = serializers.ListField(
        child=serializers.JSONField(), help_text="The allowed values; empty when bounded instead."
    )
    default = serializers.JSONField()
    minimum = serializers.IntegerField(required=False)
    maximum = serializers.IntegerField(required=False)
    step = serializers.IntegerField(required=False, help_text="The value is a multiple of it.")
    description = serializers.CharField()


class RulesetOut(serializers.Serializer):
    id = serializers.ChoiceField(choices=RULESET_IDS)
    name = serializers.CharField()
    description = serializers.CharField()
    dice = serializers.IntegerField()
    rolls_per_turn = serializers.IntegerField(help_text="0 when a turn has no limit on its throws.")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    moves = serializers.ListField(child=serializers.ChoiceField(choices=MOVES))
    categories = CategoryOut(many=True)
    options = serializers.DictField(child=OptionOut())


class ScoreOut(serializers.Serializer):
    scores = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Box games: every box that may legally be filled now, and its points.",
    )
    points = serializers.IntegerField(
        required=False, help_text="Ten Thousand: the selection's value (0 when it does not score)."
    )
    scoring = serializers.BooleanField(
        required=False, help_text="Ten Thousand: whether every die of the selection scores."
    )


class HealthOut(serializers.Serializer):
    status = serializers.CharField()
    database = serializers.CharField()


class FieldErrorOut(serializers.Serializer):
    field = serializers.CharField()
    code = serializers.CharField()
    detail = serializers.CharField()


class ProblemOut(serializers.Serializer):
    type = serializers.CharField()
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField()
    errors = FieldErrorOut(many=True, required=False)


class AdviceIn(StrictSerializer):
    scorecard = ScorecardField(required=False)
    yahtzee_bonus = StrictIntegerField(
        min_value=0,
        max_value=MOST_POINTS,
        default=0,
        help_text="Yahtzee bonus points earned so far.",
    )
    dice = FiveDiceField(
        allow_null=True,
        required=False,
        help_text="The five dice after this turn's last roll; null for the start of a turn.",
    )
    rolls_left = StrictIntegerField(
        min_value=0, max_value=2, required=False, help_text="Rolls still allowed after these dice."
    )
    options = OptionsField(required=False, default=dict)


class AdviceOptionOut(serializers.Serializer):
    action = serializers.ChoiceField(choices=["roll", "score", "bank", "pass"])
    hold = serializers.ListField(child=serializers.IntegerField(), required=False)
    set_aside = serializers.ListField(child=serializers.IntegerField(), required=False)
    category = serializers.ChoiceField(choices=BOX_IDS, required=False)
    points = serializers.IntegerField(required=False, help_text="What the box takes now.")
    expected_final = serializers.FloatField(required=False)


class AdviceOut(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=["optimal", "heuristic"],
        help_text="optimal: from the solved strategy tables; heuristic: the strongest "
        "computer player's move (Maxi Yatzy, Ten Thousand), without expected values.",
    )
    expected_final = serializers.FloatField(
        allow_null=True,
        help_text="Points on the card (bonuses included) plus the expected points to come.",
    )
    best = AdviceOptionOut(allow_null=True)
    options = AdviceOptionOut(many=True, help_text="Every distinct keep and legal box, best first.")


class HintOut(AdviceOut):
    seat = serializers.IntegerField(help_text="The seat the advice is for: the current one.")


# -- analysis ------------------------------------------------------------------------------


class AnalysisQuery(StrictSerializer):
    seats = StrictChoiceField(
        choices=["persons", "all"],
        default="persons",
        help_text="`persons` (the default): the seats of people only; `all`: computer seats "
        "too.",
    )


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


class LabelCountsOut(serializers.Serializer):
    best = serializers.IntegerField(min_value=0)
    inaccuracy = serializers.IntegerField(min_value=0)
    mistake = serializers.IntegerField(min_value=0)
    blunder = serializers.IntegerField(min_value=0)


class AnalysisSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    computer = serializers.CharField(
        allow_null=True, help_text="Null for a person; a computer seat's strategy otherwise."
    )
    total = serializers.IntegerField(help_text="The seat's total now (final once finished).")
    expected_start = serializers.FloatField(
        help_text="The expected final score of optimal play from the empty card."
    )
    expected_loss = serializers.FloatField(help_text="The sum of the decisions' `loss`.")
    accuracy = serializers.FloatField(
        allow_null=True,
        min_value=0,
        max_value=100,
        help_text="`100 * (1 - expected_loss / expected_start)`, at least 0, to two decimals: "
        "the share of the expected score the seat's decisions kept. Null before the seat's "
        "first decision.",
    )
    luck = serializers.FloatField(
        help_text="`total - expected_start + expected_loss`: how many points the dice gave "
        "above (or below) what was expected. Meaningful once the seat's card is full: until "
        "then it also counts the points still to come."
    )
    counts = LabelCountsOut(help_text="The seat's decisions per label.")


class AnalysisDecisionOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The event that records the decision.")
    seat = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=["keep", "box"], help_text="The kind of the option chosen."
    )
    dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6),
        help_text="The dice the decision was made on, sorted.",
    )
    rolls_left = serializers.IntegerField(
        min_value=0, help_text="The rolls still allowed when it was made."
    )
    chosen = KeepOrBoxField()
    best = KeepOrBoxField(
        help_text="The best option (the chosen one itself when it is among the best)."
    )
    chosen_value = serializers.FloatField(
        help_text="Expected final score of the seat after the chosen option."
    )
    best_value = serializers.FloatField(
        help_text="Expected final score of the seat after the best option."
    )
    loss = serializers.FloatField(min_value=0, help_text="`best_value - chosen_value`.")
    label = serializers.ChoiceField(choices=["best", "inaccuracy", "mistake", "blunder"])


ANALYSIS_METHODS = ["optimal"]


class AnalysisOut(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=ANALYSIS_METHODS,
        help_text="`optimal`: values are exact expectations under optimal solitaire play, "
        "from the solved strategy tables (the same as `hint` and `advice`).",
    )
    seats = AnalysisSeatOut(many=True)
    decisions = AnalysisDecisionOut(many=True, help_text="Oldest first.")
