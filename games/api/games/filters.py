"""What the lists of games filter on, and how they are paged."""

from django.db.models import QuerySet
from django_filters import rest_framework as filters
from rest_framework.pagination import PageNumberPagination

from games.models import STATUS_CHOICES, Game
from games.play.selectors import with_player
from scoring import RULESETS


class RulesetStatusFilter(filters.FilterSet):
    """What every list of games filters on; the lists add who played."""

    ruleset = filters.ChoiceFilter(choices=[(r, r) for r in RULESETS])
    status = filters.ChoiceFilter(choices=STATUS_CHOICES)


class GameFilter(RulesetStatusFilter):
    player = filters.CharFilter(
        method="with_player",
        max_length=50,
        help_text="Games with a seat of this name (case does not matter).",
    )

    class Meta:
        model = Game
        fields = ["ruleset", "status", "player"]

    def with_player(self, queryset: QuerySet[Game], name: str, value: str) -> QuerySet[Game]:
        return with_player(queryset, value)


class GamePagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
