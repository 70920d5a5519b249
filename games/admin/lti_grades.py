"""The admin of the grades sent to learning platforms: each learner's score on each
resource link, whether the platform took it, how often it was tried and why the last try
failed, for an operator who answers "why has my gradebook no grade?". Read only: the worker
sends what is due (``games.courses.passback``); "send now" makes a waiting score due at
once."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from games.admin.game_display import json_code
from games.courses.passback import scores_due_now
from games.models import LtiScore


@admin.register(LtiScore)
class LtiScoreAdmin(admin.ModelAdmin):
    list_display = (
        "learner", "assignment", "status", "score", "attempts", "last_error", "next_attempt_at",
        "sent_at",
    )
    list_filter = ("status",)
    list_select_related = ("learner__student", "link__assignment")
    search_fields = ("=id", "learner__student__name", "link__assignment__title")
    fields = (
        "id", "link", "learner", "status", "attempts", "last_error", "next_attempt_at",
        "sent_at", "created_at", "sent_display",
    )
    readonly_fields = fields
    actions = ["send_now"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="assignment")
    def assignment(self, score: LtiScore) -> str:
        return score.link.assignment.title

    @admin.display(description="score")
    def score(self, score: LtiScore) -> object:
        return (score.sent or {}).get("scoreGiven")

    @admin.display(description="score sent")
    def sent_display(self, score: LtiScore) -> SafeString | str:
        return json_code(score.sent) if score.sent else "-"

    @admin.action(description="Send the selected waiting scores now")
    def send_now(self, request: HttpRequest, queryset: QuerySet[LtiScore]) -> None:
        count = scores_due_now(ids=list(queryset.values_list("pk", flat=True)))
        self.message_user(request, f"{count} score(s) due now.", messages.SUCCESS)
