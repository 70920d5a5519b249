"""A classroom's requests: opening and joining one, the teacher's changes, and the query of
its students' games."""

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError

from games.api.fields import name_field
from games.api.games.filters import GamePagination, RulesetStatusFilter
from games.api.schema.enums import GAME_STATUSES
from games.http.strict import (
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictSerializer,
)
from games.models import Classroom, Game
from games.play.selectors import of_student
from scoring import RULESETS

MOST_PER_HOUR = 1_000_000


class ClassroomCreateIn(StrictSerializer):
    name = name_field(
        max_length=80, help_text="e.g. `5B`. Normalised as every name is (docs/contract.md)."
    )


class ClassroomJoinIn(StrictSerializer):
    join_code = StrictCharField(
        max_length=32, help_text="The code the teacher handed out (any case; dashes ignored)."
    )
    name = name_field(
        help_text="The student's name, unique in the classroom: names that differ only in "
        "case, width or Unicode form are one name (docs/contract.md).",
    )


class QuotaIn(StrictSerializer):
    games_per_hour = StrictIntegerField(
        min_value=1,
        max_value=MOST_PER_HOUR,
        required=False,
        help_text="Games each key of the classroom may create (or seats it may join) per "
        "hour. At most the deployment's default, or the classroom's current limit if higher.",
    )
    advice_per_hour = StrictIntegerField(
        min_value=1,
        max_value=MOST_PER_HOUR,
        required=False,
        help_text="Hints and advice each key of the classroom may ask per hour. At most the "
        "deployment's default, or the classroom's current limit if higher.",
    )
    computer_moves_per_hour = StrictIntegerField(
        min_value=1,
        max_value=MOST_PER_HOUR,
        required=False,
        help_text="The computer seats' moves each key's requests may have played per hour, "
        "weighted by their cost (see the limits in the docs). At most the deployment's "
        "default, or the classroom's current limit if higher.",
    )


class ClassroomPatchIn(StrictSerializer):
    quota = QuotaIn(
        required=False, help_text="The limits to change; those not given stay as they are."
    )
    joining = StrictChoiceField(
        choices=[c.value for c in Classroom.Joining],
        required=False,
        help_text="`closed`: joins are refused (409 `joining_closed`) until it is `open` again.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise ValidationError({"body": [gettext("give `quota`, `joining` or both")]})
        return attrs


class EmptyIn(StrictSerializer):
    pass


class ClassroomGameFilter(RulesetStatusFilter):
    student = filters.CharFilter(
        method="with_student",
        max_length=50,
        help_text="The student's id, or name (case does not matter).",
    )

    class Meta:
        model = Game
        fields = ["ruleset", "status", "student"]

    def with_student(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return of_student(queryset, value)


GAMES_QUERY = [
    OpenApiParameter("ruleset", {"type": "string", "enum": list(RULESETS)}),
    OpenApiParameter("status", {"type": "string", "enum": GAME_STATUSES}),
    OpenApiParameter(
        "student", {"type": "string", "maxLength": 50}, description="The student's id or name."
    ),
    OpenApiParameter("page", {"type": "integer", "minimum": 1}),
    OpenApiParameter(
        "page_size", {"type": "integer", "minimum": 1, "maximum": GamePagination.max_page_size}
    ),
]
