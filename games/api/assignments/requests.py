"""An assignment's request: the teacher sets one."""

from rest_framework import serializers

from games.api.fields import OptionsField, RulesetField
from games.classrooms.assignments import MOST_GAMES
from games.http.strict import StrictCharField, StrictIntegerField, StrictSerializer
from games.models.assignment import GRADE_MODES


class AssignmentIn(StrictSerializer):
    title = StrictCharField(max_length=80, trim_whitespace=True, help_text="e.g. `Week 3`.")
    ruleset = RulesetField(help_text="The ruleset every game of it is played with.")
    options = OptionsField(required=False, default=dict, help_text="The ruleset's options.")
    games = StrictIntegerField(
        min_value=1, max_value=MOST_GAMES, help_text="How many games each student plays."
    )
    opens_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="When students may start its games (ISO 8601; absent: now).",
    )
    due_at = serializers.DateTimeField(
        help_text="The deadline (ISO 8601), after `opens_at` and in the future: then games "
        "still being played are abandoned and the secrets shown."
    )
    grade = serializers.ChoiceField(
        choices=GRADE_MODES, required=False, allow_null=True, default=None,
        help_text="How a learning platform's grade is made of a student's results: "
        "`accuracy` (the default where analysis covers the ruleset), `completion` (the "
        "default elsewhere) or `rank`.",
    )
