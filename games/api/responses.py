"""Response shapes: the bodies the views render, as the schema states them."""


from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.enums import (
    ANALYSIS_METHODS,
    BOX_IDS,
    COMPUTERS,
    EVENT_TYPES,
    GAME_STATUSES,
    MOVES,
    RULESET_IDS,
)


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
    status = serializers.ChoiceField(choices=GAME_STATUSES)
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


class AnalysisOut(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=ANALYSIS_METHODS,
        help_text="`optimal`: values are exact expectations under optimal solitaire play, "
        "from the solved strategy tables (the same as `hint` and `advice`).",
    )
    seats = AnalysisSeatOut(many=True)
    decisions = AnalysisDecisionOut(many=True, help_text="Oldest first.")
