"""The admin of assignments: read-only, as the teacher set them, with each student's games.

An assignment's secrets are shown here only once it is closed, as the API shows them: before
that they are the dice of games still to be played.
"""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from games.admin.classrooms import StudentGameInline
from games.admin.game_display import json_code
from games.models import Assignment, Game
from games.play.selectors import with_seats
from scoring.verifiable import commitment


class AssignmentGameInline(StudentGameInline):
    fk_name = "assignment"
    fields = ("game_link", "student", "assignment_game", "status", "totals", "finished_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return with_seats(
            Game.objects.filter(assignment__isnull=False)
            .select_related("student")
            .order_by("student__name_key", "assignment_game")
        )


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("title", "classroom", "ruleset", "games", "opens_at", "due_at", "state")
    list_filter = ("ruleset", "classroom")
    list_select_related = ("classroom",)
    search_fields = ("title", "classroom__name")
    fields = (
        "id", "title", "classroom", "ruleset", "options_display", "games", "opens_at", "due_at",
        "state", "closed_at", "created_at", "commitments", "secrets_display",
    )
    readonly_fields = fields
    inlines = [AssignmentGameInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="status")
    def state(self, assignment: Assignment) -> str:
        return assignment.status()

    @admin.display(description="options")
    def options_display(self, assignment: Assignment) -> SafeString:
        return json_code(assignment.options)

    @admin.display(description="commitments")
    def commitments(self, assignment: Assignment) -> SafeString:
        return json_code([commitment(bytes.fromhex(s)) for s in assignment.secrets])

    @admin.display(description="secrets")
    def secrets_display(self, assignment: Assignment) -> SafeString | str:
        if assignment.closed_at is None:
            return "hidden until the assignment closes"
        return json_code(assignment.secrets)
