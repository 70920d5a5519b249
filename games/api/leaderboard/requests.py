"""The high-score table's query string."""

from rest_framework import serializers

from games.api.fields import RulesetField, known_ruleset
from games.play import selectors


class LeaderboardQuery(serializers.Serializer):
    ruleset = RulesetField(help_text="The ruleset whose games are ranked (see /api/v1/rulesets/).")
    period = serializers.ChoiceField(
        choices=list(selectors.PERIODS),
        default="all",
        help_text="`day`: games finished in the last 24 hours; `week`: the last 7 days; "
        "`all`: every game.",
    )
    limit = serializers.IntegerField(
        min_value=1, max_value=100, default=20, help_text="How many rows, at most."
    )

    def validate_ruleset(self, value: str) -> str:
        return known_ruleset(value)
