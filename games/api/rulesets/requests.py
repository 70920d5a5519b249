"""The rulesets' requests: the score calculator's and the advice's bodies."""

from drf_spectacular.utils import extend_schema_field

from games.api.fields import (
    MOST_POINTS,
    DiceField,
    FiveDiceField,
    OptionsField,
    ScorecardField,
    nullable_dice,
)
from games.http.strict import StrictIntegerField, StrictListField, StrictSerializer
from scoring.tenthousand.rules import MOST_POINTS as TEN_THOUSAND_MOST


class ScoreIn(StrictSerializer):
    dice = DiceField(
        help_text="Box games: all the dice (5; Maxi Yatzy 6). Ten Thousand: a selection of 1 "
        "to 6 dice."
    )
    scorecard = ScorecardField(required=False, allow_null=True)
    options = OptionsField(required=False, default=dict)


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


@extend_schema_field(nullable_dice(1, 6))
class ThrowField(DiceField):
    """The faces of a Ten Thousand throw: one to six dice, the ones just thrown."""


class TenThousandAdviceIn(StrictSerializer):
    totals = StrictListField(
        child=StrictIntegerField(min_value=0, max_value=TEN_THOUSAND_MOST),
        min_length=1,
        max_length=2,
        help_text="The seat's own total, then, in a game of two seats, the other's.",
    )
    turn_points = StrictIntegerField(
        min_value=0,
        max_value=TEN_THOUSAND_MOST,
        default=0,
        help_text="The points set aside earlier this turn (0 before the turn's first throw).",
    )
    dice = ThrowField(
        allow_null=True,
        required=False,
        help_text="The faces of the throw to decide on (the dice just thrown); null or absent "
        "before the turn's first throw.",
    )
    options = OptionsField(required=False, default=dict)
