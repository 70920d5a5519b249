"""The admin of classrooms, students and their keys.

Keys are never shown: only their public prefix (``dk_<prefix>_…``) tells them apart, and
the stored digest is not displayed either. Keys and students come from the API; here an
admin reads them, renames a classroom, closes or opens its joining, sets its quota (the one
place a quota is raised above the deployment's defaults: a teacher may only lower it), and
may revoke keys.
"""

from typing import Any, ClassVar, Protocol

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from games.arena import owners
from games.classrooms.quotas import FIELDS as QUOTA_FIELDS
from games.classrooms.quotas import quota_defaults
from games.models import ApiKey, Classroom, Game, Student
from games.names import NameRefused, name_clean
from games.play.selectors import with_seats


def key_label(key: ApiKey) -> str:
    state = f"revoked {key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "live"
    return f"dk_{key.prefix}_… ({state})"


class Counted(Protocol):
    """A classroom or a student as the lists below read them (``get_queryset`` counts)."""

    students_n: int
    games_n: int


class ReadOnlyPermissions:
    """Nobody adds, changes or deletes here: what the service keeps is reviewed, not edited."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyInline(ReadOnlyPermissions, admin.TabularInline):
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True


class StudentInline(ReadOnlyInline):
    model = Student
    fields = ("name", "joined_at")
    readonly_fields = fields


class StudentGameInline(ReadOnlyInline):
    model = Game
    fk_name = "student"
    verbose_name = "game"
    fields: ClassVar[tuple[str, ...]] = (
        "game_link", "ruleset", "status", "ranked", "totals", "created_at", "finished_at"
    )
    readonly_fields: ClassVar[tuple[str, ...]] = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return with_seats(super().get_queryset(request))

    @admin.display(description="game")
    def game_link(self, game: Game) -> str:
        url = reverse("admin:games_game_change", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, str(game.pk)[:8])

    @admin.display(description="seats and totals")
    def totals(self, game: Game) -> str:
        return ", ".join(f"{p.name} {p.total}" for p in game.players.all())


class KeyInline(ReadOnlyInline):
    model = ApiKey
    fk_name = "student"
    show_change_link = False
    fields = ("key", "created_at", "revoked_at")
    readonly_fields = fields

    @admin.display(description="key")
    def key(self, key: ApiKey) -> str:
        return key_label(key)


class ClassroomForm(forms.ModelForm):
    """The quota as one whole number per limit, empty for the deployment's default (which
    then follows the setting if it changes)."""

    games_per_hour = forms.IntegerField(min_value=1, required=False)
    advice_per_hour = forms.IntegerField(min_value=1, required=False)
    computer_moves_per_hour = forms.IntegerField(min_value=1, required=False)

    class Meta:
        model = Classroom
        fields = ("name", "joining")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = quota_defaults()
        stored = self.instance.quota if isinstance(self.instance.quota, dict) else {}
        for field in QUOTA_FIELDS:
            self.fields[field].initial = stored.get(field)
            self.fields[field].help_text = (
                f"Per key. Empty: the deployment's default, now {defaults[field]}."
            )

    def clean_name(self) -> str:
        """A renamed classroom keeps the rule every name keeps (games.names)."""
        try:
            return name_clean(self.cleaned_data["name"])
        except NameRefused as refused:
            raise forms.ValidationError(refused.detail) from None

    def save(self, commit: bool = True) -> Classroom:
        given = {f: self.cleaned_data[f] for f in QUOTA_FIELDS}
        self.instance.quota = {f: value for f, value in given.items() if value is not None}
        return super().save(commit)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    form = ClassroomForm
    list_display = ("name", "join_code", "joining", "student_count", "game_count", "created_at")
    search_fields = ("name", "join_code", "students__name")
    fields = (
        "id", "name", "join_code", "joining", "games_per_hour", "advice_per_hour",
        "computer_moves_per_hour", "created_at",
    )
    readonly_fields = ("id", "join_code", "created_at")
    inlines = (StudentInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Classroom]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                students_n=Count("students", distinct=True),
                games_n=Count("games", distinct=True),
            )
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # opened through the API, which hands out the teacher key

    @admin.display(description="students", ordering="students_n")
    def student_count(self, classroom: Counted) -> int:
        return classroom.students_n

    @admin.display(description="games", ordering="games_n")
    def game_count(self, classroom: Counted) -> int:
        return classroom.games_n


@admin.register(Student)
class StudentAdmin(admin.ModelAdmin):
    list_display = ("name", "classroom", "game_count", "joined_at")
    list_filter = ("classroom",)
    search_fields = ("name", "classroom__name")
    list_select_related = ("classroom",)
    fields = ("id", "name", "classroom", "joined_at")
    readonly_fields = fields
    inlines = (KeyInline, StudentGameInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Student]:
        return super().get_queryset(request).annotate(games_n=Count("games"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Student | None = None) -> bool:
        return False

    @admin.display(description="games", ordering="games_n")
    def game_count(self, student: Counted) -> int:
        return student.games_n


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ("key", "role", "classroom", "student", "created_at", "revoked_at")
    list_filter = ("role", ("revoked_at", admin.EmptyFieldListFilter), "classroom")
    search_fields = ("prefix", "student__name", "classroom__name")
    search_help_text = "A key's prefix (the characters after dk_), a student or a classroom."
    list_select_related = ("classroom", "student")
    # Never the digest: nothing of a key but its public prefix is shown.
    fields = ("key", "role", "classroom", "student", "created_at", "revoked_at")
    readonly_fields = fields
    actions = ("revoke",)

    @admin.display(description="key")
    def key(self, key: ApiKey) -> str:
        return key_label(key)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ApiKey | None = None) -> bool:
        return False

    @admin.action(description="Revoke the selected keys", permissions=["delete"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        live = queryset.filter(revoked_at__isnull=True)
        held = {owners.Owner(c, s) for c, s in live.values_list("classroom_id", "student_id")}
        count = live.update(revoked_at=timezone.now())
        owners.tell(held)  # their keys' open streams end
        self.message_user(request, f"{count} key(s) revoked.", messages.SUCCESS)
