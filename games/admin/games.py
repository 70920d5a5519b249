"""The admin, for reviewing games: who played, every move, every score.

Games are created and moved only through the API, so nothing here adds a game, a seat, a
score entry or an event. The one change an admin may make is to the ``status`` of a game
that is not over yet (to abandon it); a finished or abandoned game is view-only. Deleting
games (with everything that belongs to them) is left to superusers, for storage clean-up.

Seat totals and bonuses come from the rules engine's view of the game's state, computed
once per game object and shared by every row that shows it. The game's analysis (every
seat's decisions scored against optimal play) is computed once per page likewise, and only
from a table already solved: a page never waits for a table to be built (``game_display``).
The page's rows, seats, score entries and events, are ``game_rows``'.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.admin.game_display import (
    EMPTY,
    OPEN_STATUSES,
    compact_json,
    engine_view,
    json_code,
    seat_label,
)
from games.admin.game_rows import EventInline, ScoreEntryInline, SeatInline
from games.models import STATUS_CHOICES, Game
from games.play import services
from games.play.dice import dice_shown
from games.play.errors import ServiceError
from games.play.selectors import with_seats
from scoring.match import GameStatus


class GameStatusForm(forms.ModelForm):
    """The one field an admin may change: a game not yet over may be abandoned."""

    class Meta:
        model = Game
        fields = ["status"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if "status" in self.fields:
            allowed = {self.instance.status, GameStatus.ABANDONED}
            status = self.fields["status"]
            if isinstance(status, forms.ChoiceField):  # the model field's choices
                status.choices = [
                    (value, label) for value, label in STATUS_CHOICES if value in allowed
                ]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameStatusForm
    inlines = (SeatInline, ScoreEntryInline, EventInline)

    list_display = (
        "id",
        "ruleset",
        "status",
        "ranked",
        "player_names",
        "game_round",
        "created_at",
        "finished_at",
    )
    list_filter = ("ruleset", "status", "ranked", ("created_at", admin.DateFieldListFilter))
    date_hierarchy = "created_at"
    search_fields = ("players__name", "^id")
    search_help_text = "A player's name, or a game id (or its first characters)."
    list_per_page = 50

    fieldsets = (
        (None, {"fields": ("id", "ruleset", "status", "ranked", "seed", "options_display")}),
        (
            "Progress",
            {
                "fields": (
                    "game_round",
                    "current_seat",
                    "winners_display",
                    "version",
                    "last_seq",
                )
            },
        ),
        ("Times", {"fields": ("created_at", "updated_at", "finished_at")}),
        ("Dice", {"fields": ("dice_display",)}),
        ("Engine state", {"classes": ("collapse",), "fields": ("state_display",)}),
    )
    # Everything but ``status``, which the form restricts (and which is read-only too once
    # the game is over, since the page is then view-only).
    readonly_fields = (
        "id",
        "ruleset",
        "ranked",
        "seed",
        "options_display",
        "game_round",
        "current_seat",
        "winners_display",
        "version",
        "last_seq",
        "created_at",
        "updated_at",
        "finished_at",
        "dice_display",
        "state_display",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return with_seats(super().get_queryset(request))

    # -- permissions ---------------------------------------------------------------------

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if obj is not None and obj.status not in OPEN_STATUSES:
            return False
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        user = request.user
        return user.is_active and user.is_superuser

    # -- columns and fields --------------------------------------------------------------

    @admin.display(description="players")
    def player_names(self, game: Game) -> str:
        return ", ".join(player.name for player in game.players.all())

    @admin.display(description="round")
    def game_round(self, game: Game) -> Any:
        view = engine_view(game)
        return EMPTY if view is None else view.round

    @admin.display(description="current seat")
    def current_seat(self, game: Game) -> str:
        view = engine_view(game)
        if view is None or game.status != GameStatus.ACTIVE:
            return EMPTY
        return seat_label(game, view.current_seat)

    @admin.display(description="winners")
    def winners_display(self, game: Game) -> str:
        return ", ".join(seat_label(game, seat) for seat in game.winners) or EMPTY

    @admin.display(description="dice")
    def dice_display(self, game: Game) -> SafeString:
        """As the API shows them: the secret only once the game is over."""
        return json_code(dice_shown(game))

    @admin.display(description="options")
    def options_display(self, game: Game) -> SafeString:
        return json_code(game.options)

    @admin.display(description="state")
    def state_display(self, game: Game) -> SafeString:
        """One line per top-level key, each value as compact JSON."""
        state = game.state
        lines: Iterable[tuple[str, str]] = (
            ((str(key), compact_json(value)) for key, value in state.items())
            if isinstance(state, Mapping)
            else [("", compact_json(state))]
        )
        return format_html(
            '<pre style="white-space: pre-wrap; word-break: break-word; margin: 0">{}</pre>',
            format_html_join("\n", "{}: {}", lines),
        )

    # -- saving --------------------------------------------------------------------------

    def save_model(
        self, request: HttpRequest, obj: Game, form: forms.ModelForm, change: bool
    ) -> None:
        """Abandon the game through its service (locked, versioned, logged).

        Never ``obj.save()``: that would write back the whole row as it was when the page
        was posted, undoing any move played meanwhile.
        """
        if not change or "status" not in form.changed_data:
            return
        try:
            game = services.game_abandon(game_id=obj.pk, by="admin")
        except ServiceError as refused:
            messages.warning(request, f"The status was not changed: {refused.detail}.")
            obj.status = Game.objects.values_list("status", flat=True).get(pk=obj.pk)
            return
        obj.version, obj.last_seq, obj.updated_at = game.version, game.last_seq, game.updated_at

    def save_formset(
        self, request: HttpRequest, form: forms.ModelForm, formset: BaseInlineFormSet, change: bool
    ) -> None:
        # Seats, entries and events are written only by the game services.
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
