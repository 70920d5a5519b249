"""A tournament's request: the teacher sets one, or a student a scrimmage."""

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from games.api.fields import OptionsField, RulesetField, known_ruleset
from games.http.strict import (
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictListField,
    StrictSerializer,
)
from games.tournaments import plan
from games.tournaments.services import DEFAULT_TURN_SECONDS

TURN_SECONDS = (10, 3600)
MOST_BOARDS = 50


class EntrantIn(StrictSerializer):
    bot = serializers.UUIDField(
        required=False, allow_null=True, default=None, help_text="A bot's id."
    )
    computer = StrictCharField(
        required=False, allow_null=True, default=None, max_length=16,
        help_text="Else a computer level: `random`, `greedy` or `optimal` (one level may be "
        "entered more than once).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs["bot"] is None) == (attrs["computer"] is None):
            raise serializers.ValidationError(gettext("give exactly one of bot and computer"))
        return attrs


class TournamentClockIn(StrictSerializer):
    turn_seconds = StrictIntegerField(
        min_value=TURN_SECONDS[0], max_value=TURN_SECONDS[1],
        help_text="Seconds a bot has for each move; then greedy plays its turn.",
    )


class TournamentIn(StrictSerializer):
    title = StrictCharField(max_length=80, trim_whitespace=True, help_text="e.g. `Spring cup`.")
    ruleset = RulesetField(help_text="The ruleset every game is played with.")
    options = OptionsField(required=False, default=dict, help_text="The ruleset's options.")
    seats = StrictIntegerField(
        min_value=1, max_value=2,
        help_text="1: a field, every entrant alone on every board; 2: a round robin, every "
        "pair on every board twice, once in each seat order.",
    )
    boards = StrictIntegerField(
        min_value=1, max_value=MOST_BOARDS,
        help_text="Boards: each has its own dice, the same in every game of the board.",
    )
    entrants = StrictListField(
        child=EntrantIn(), min_length=1, max_length=plan.MOST_ENTRANTS,
        help_text="Bots and computers: 2 to 64 (1 to 64 for `seats: 1`).",
    )
    clock = TournamentClockIn(
        required=False, allow_null=True, default=None,
        help_text=f"The turn clock of every game (default {DEFAULT_TURN_SECONDS} s a turn).",
    )
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="When its first games start (ISO 8601; absent: now).",
    )
    rated = StrictBooleanField(
        required=False, allow_null=True, default=None,
        help_text="Whether the standings show ratings (default true for the teacher; a "
        "student's scrimmage is never rated).",
    )

    def validate_ruleset(self, value: str) -> str:
        return known_ruleset(value)
