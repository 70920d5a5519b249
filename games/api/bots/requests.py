"""A bot's registration and its changes."""

from rest_framework import serializers

from games.api.fields import name_field
from games.http.strict import StrictListField, StrictSerializer
from scoring import RULESETS

RULESET_NOTES = "The ruleset ids the bot plays: it takes seats in games of these only."


def rulesets_field(*, required: bool = True) -> StrictListField:
    return StrictListField(
        child=serializers.ChoiceField(choices=list(RULESETS)),
        min_length=1, max_length=len(RULESETS), required=required, help_text=RULESET_NOTES,
    )


class BotIn(StrictSerializer):
    name = name_field(
        help_text="Unique among the classroom's bots (case, width and Unicode form ignored)."
    )
    rulesets = rulesets_field()


class BotChangeIn(StrictSerializer):
    name = name_field(required=False, help_text="A new name; its seats keep the one they had.")
    rulesets = rulesets_field(required=False)
