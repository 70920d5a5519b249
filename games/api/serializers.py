"""Request validation and response shapes. No rules here: the engine owns them."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import RULESETS

from .strict import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)

BOX_IDS = sorted({box.id for ruleset in RULESETS.values() for box in ruleset.categories})


@extend_schema_field({"type": "string", "enum": list(RULESETS)})
class RulesetField(StrictCharField):
    """A ruleset id; an unknown one is refused with the code ``unknown_ruleset``."""


INT64 = 2**63 - 1
MOST_POINTS = 10_000  # far above any box's points or a game's Yahtzee bonuses


# -- requests ------------------------------------------------------------------------------


class SeatIn(StrictSerializer):
    name = StrictCharField(max_length=50, trim_whitespace=True)
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
    options = serializers.DictField(
        required=False, default=dict, help_text="House rules; see the ruleset's options."
    )
    players = SeatIn(many=True, min_length=1, max_length=8, help_text="The seats, in turn order.")
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


def positions(help_text: str, *, required: bool = True) -> serializers.ListField:
    return serializers.ListField(
        child=StrictIntegerField(min_value=0, max_value=5),
        max_length=6,
        required=required,
        help_text=help_text,
    )


class RollIn(StrictSerializer):
    hold = positions(
        "Box games: positions (from 0) of the dice to keep; the others are thrown.",
        required=False,
    )
    set_aside = positions(
        "Ten Thousand: positions of a scoring selection of the last throw to set aside before "
        "throwing the free dice (absent or empty for the turn's first throw).",
        required=False,
    )


class BankIn(StrictSerializer):
    set_aside = positions(
        "Positions of a scoring selection of the last throw, set aside before banking."
    )


class PassIn(StrictSerializer):
    pass


class HoldIn(StrictSerializer):
    hold = positions(
        "Positions (from 0) of the dice to keep at the next roll; all others are freed."
    )


class JoinIn(StrictSerializer):
    name = StrictCharField(max_length=50, trim_whitespace=True)


class CategoryIn(StrictSerializer):
    category = StrictChoiceField(
        choices=BOX_IDS, help_text="A box id of the game's ruleset (see /api/v1/rulesets/)."
    )


class ScoreIn(StrictSerializer):
    dice = serializers.ListField(
        child=StrictIntegerField(),
        max_length=32,
        help_text="Box games: all the dice. Ten Thousand: a selection of 1 to 6 dice.",
    )
    scorecard = serializers.DictField(
        child=StrictIntegerField(allow_null=True),
        required=False,
        allow_null=True,
        help_text="Box id to points, or null for an open box; missing boxes are open.",
    )
    options = serializers.DictField(required=False, default=dict)


class EventsQuery(serializers.Serializer):
    after = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, default=0, help_text="Only events with a larger seq."
    )
    limit = serializers.IntegerField(min_value=1, max_value=1000, default=1000)


# -- responses (documentation of the shapes the views render) ------------------------------


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


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    computer = serializers.CharField(allow_null=True)
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
    ruleset = serializers.CharField()
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
    type = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    data = serializers.DictField()
    created_at = serializers.DateTimeField()


class CategoryOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    section = serializers.CharField()
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
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    dice = serializers.IntegerField()
    rolls_per_turn = serializers.IntegerField(help_text="0 when a turn has no limit on its throws.")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    moves = serializers.ListField(child=serializers.CharField())
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
    scorecard = serializers.DictField(
        child=StrictIntegerField(allow_null=True, min_value=0, max_value=MOST_POINTS),
        required=False,
        help_text="Box id to points, or null for an open box; missing boxes are open.",
    )
    yahtzee_bonus = StrictIntegerField(
        min_value=0,
        max_value=MOST_POINTS,
        default=0,
        help_text="Yahtzee bonus points earned so far.",
    )
    dice = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=6),
        allow_null=True,
        required=False,
        help_text="The dice after this turn's last roll; null for the start of a turn.",
    )
    rolls_left = StrictIntegerField(
        min_value=0, max_value=2, required=False, help_text="Rolls still allowed after these dice."
    )
    options = serializers.DictField(required=False, default=dict)


class AdviceOptionOut(serializers.Serializer):
    action = serializers.ChoiceField(choices=["roll", "score", "bank", "pass"])
    hold = serializers.ListField(child=serializers.IntegerField(), required=False)
    set_aside = serializers.ListField(child=serializers.IntegerField(), required=False)
    category = serializers.CharField(required=False)
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
