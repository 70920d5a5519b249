"""The admin, for reviewing games: who played, every move, every score.

Games are created and moved only through the API, so nothing here adds a game, a seat, a
score entry or an event. The one change an admin may make is to the ``status`` of a game
that is not over yet (to abandon it); a finished or abandoned game is view-only. Deleting
games (with everything that belongs to them) is left to superusers, for storage clean-up.

Seat totals and bonuses come from the rules engine's view of the game's state, computed
once per game object and shared by every row that shows it. The game's analysis (every
seat's decisions scored against optimal play) is computed once per page likewise, and only
from a table already solved: a page never waits for a table to be built.
"""

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from games.models import STATUS_CHOICES, Event, Game, Player, ScoreEntry
from games.play import services
from games.play.analysis import analysable, analysis_of
from games.play.dice import dice_shown
from games.play.errors import ServiceError
from games.play.selectors import with_seats
from scoring import RuleError, View, get_ruleset
from scoring.boxgames.strategy import StaleTable
from scoring.boxgames.strategy.analysis import Decision, SeatAnalysis
from scoring.match import GameStatus
from scoring.tenthousand.strategy.analysis import Decision as TenThousandDecision

logger = logging.getLogger(__name__)

EMPTY = "-"  # as the admin shows an empty value
# The statuses of a game that is not over: only these may still be changed here.
OPEN_STATUSES = frozenset({GameStatus.WAITING, GameStatus.ACTIVE})
_NO_VIEW = "_admin_no_engine_view"
_ANALYSIS_CACHE = "_admin_analysis"


# -- helpers -----------------------------------------------------------------------------


def engine_view(game: Game) -> View | None:
    """The engine's view of the game's state (``Game.view``, worked out once per state).

    ``None`` when the engine cannot read the state (a retired ruleset, a damaged state):
    the admin must still open such a game, since that is when admins look at it. That
    failure is remembered for the game object too, so a page reports it once.
    """
    if vars(game).get(_NO_VIEW):
        return None
    try:
        return game.view()
    except Exception:  # any failure of the engine is shown as "no view"
        logger.warning("admin: no engine view of game %s", game.pk, exc_info=True)
        vars(game)[_NO_VIEW] = True
        return None


@dataclass(frozen=True)
class Review:
    """A game's analysis as the page reads it: per seat, and per event that decided."""

    seats: dict[int, SeatAnalysis]
    decisions: dict[int, Decision | TenThousandDecision]


def game_review(game: Game) -> Review | None:
    """The analysis of every seat of the game, computed once per game object.

    ``None`` when the ruleset has no analysis, its table is not built yet, or the log
    cannot be analysed (logged): the page shows the game without it.
    """
    if _ANALYSIS_CACHE not in vars(game):
        review: Review | None = None
        if analysable(game.ruleset):
            seats = [player.seat for player in game.players.all()]
            try:
                analysis = analysis_of(game, seats, build_missing=False)
                review = Review(
                    seats={seat.seat: seat for seat in analysis.seats},
                    decisions={decision.seq: decision for decision in analysis.decisions},
                )
            except (FileNotFoundError, StaleTable):
                logger.info("admin: no strategy table yet to analyse game %s", game.pk)
            except Exception:  # a damaged log, say: show the game without its analysis
                logger.warning("admin: no analysis of game %s", game.pk, exc_info=True)
        vars(game)[_ANALYSIS_CACHE] = review
    return vars(game)[_ANALYSIS_CACHE]


def shown_option(option: Any) -> str:
    """A keep as ``keep 1 1 6``, a box by its id."""
    return option if isinstance(option, str) else "keep " + " ".join(map(str, option))


def seat_view(game: Game, seat: int) -> Mapping[str, Any] | None:
    view = engine_view(game)
    if view is None or not 0 <= seat < len(view.players):
        return None
    return view.players[seat]


def seat_label(game: Game, seat: int | None) -> str:
    """``"0 · Ann"`` for a seat number, from the game's (prefetched) players."""
    if seat is None:
        return EMPTY
    names = {player.seat: player.name for player in game.players.all()}
    return f"{seat} · {names[seat]}" if seat in names else str(seat)


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def json_code(value: Any) -> SafeString:
    return format_html(
        '<code style="white-space: pre-wrap; word-break: break-word">{}</code>',
        compact_json(value),
    )


def category_names(ruleset_id: str) -> dict[str, tuple[str, str]]:
    """Each category of the ruleset by id: its name and its section, in the card's order."""
    try:
        categories = get_ruleset(ruleset_id).categories
    except RuleError:
        return {}
    return {category.id: (category.name, category.section) for category in categories}


def scorecard_table(ruleset_id: str, card: Mapping[str, Any]) -> SafeString:
    """A small table of the card, one column pair per section (upper, lower)."""
    known = category_names(ruleset_id)
    # The ruleset's order, not the stored one: a JSON column need not keep key order.
    boxes = [box for box in known if box in card] + sorted(box for box in card if box not in known)
    sections: dict[str, list[tuple[str, Any]]] = {}
    for box in boxes:
        name, section = known.get(box, (box, ""))
        points = card[box]
        sections.setdefault(section, []).append((name, EMPTY if points is None else points))
    columns = list(sections.values())
    height = max((len(column) for column in columns), default=0)
    rows = []
    for i in range(height):
        cells = (column[i] if i < len(column) else ("", "") for column in columns)
        rows.append(
            format_html(
                "<tr>{}</tr>",
                format_html_join(
                    "",
                    '<th style="padding: 1px 6px">{}</th>'
                    '<td style="padding: 1px 6px; text-align: right">{}</td>',
                    cells,
                ),
            )
        )
    return format_html(
        '<table class="scorecard" style="margin: 0; font-size: 0.9em">{}</table>',
        format_html_join("", "{}", ((row,) for row in rows)),
    )


# -- inlines -----------------------------------------------------------------------------


class ParentGameFormSet(BaseInlineFormSet):
    """Hands every row the very game object the page shows.

    Rows then read the game (its players, its cached engine view) without a query and
    without computing the view again.
    """

    def _construct_form(self, i: int, **kwargs: Any) -> forms.Form:
        form = super()._construct_form(i, **kwargs)  # type: ignore[misc]  # private: not in the stubs
        form.instance.game = self.instance
        return form


class ReadOnlyInline(admin.TabularInline):
    """Rows written only by the game services: shown, never added, changed or deleted."""

    formset = ParentGameFormSet
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # Whoever may see the game sees all of it: no separate permissions for its rows.
        user = request.user
        return user.has_perm("games.view_game") or user.has_perm("games.change_game")


class SeatInline(ReadOnlyInline):
    model = Player
    verbose_name = "seat"
    verbose_name_plural = "seats (totals from the rules engine)"
    ordering = ("seat",)
    fields = (
        "seat",
        "name",
        "computer",
        "scorecard",
        "upper_total",
        "upper_bonus",
        "yahtzee_bonus",
        "engine_total",
        "analysed_accuracy",
        "expected_loss",
        "luck",
    )
    # (Not "accuracy": the seat's row keeps one of that name, for classroom games only.)
    ANALYSIS_FIELDS = ("analysed_accuracy", "expected_loss", "luck")

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple[str, ...]:
        fields = list(self.fields)
        first = seat_view(obj, 0) if obj is not None else None
        if first is not None and "yahtzee_bonus" not in first:
            fields.remove("yahtzee_bonus")
        if obj is None or not analysable(obj.ruleset):
            fields = [name for name in fields if name not in self.ANALYSIS_FIELDS]
        return tuple(fields)

    def get_readonly_fields(
        self, request: HttpRequest, obj: Game | None = None
    ) -> tuple[str, ...]:
        return self.get_fields(request, obj)

    def _shown(self, player: Player, key: str) -> Any:
        shown = seat_view(player.game, player.seat)
        if shown is None or shown.get(key) is None:
            return EMPTY
        return shown[key]

    @admin.display(description="scorecard")
    def scorecard(self, player: Player) -> SafeString | str:
        shown = seat_view(player.game, player.seat)
        if shown is None or not isinstance(shown.get("scorecard"), Mapping):
            return EMPTY
        return scorecard_table(player.game.ruleset, shown["scorecard"])

    @admin.display(description="upper total")
    def upper_total(self, player: Player) -> Any:
        return self._shown(player, "upper_total")

    @admin.display(description="upper bonus")
    def upper_bonus(self, player: Player) -> Any:
        return self._shown(player, "upper_bonus")

    @admin.display(description="Yahtzee bonus")
    def yahtzee_bonus(self, player: Player) -> Any:
        return self._shown(player, "yahtzee_bonus")

    @admin.display(description="total")
    def engine_total(self, player: Player) -> Any:
        return self._shown(player, "total")

    def _analysed(self, player: Player, key: str) -> Any:
        review = game_review(player.game)
        seat = None if review is None else review.seats.get(player.seat)
        value = None if seat is None else getattr(seat, key)
        return EMPTY if value is None else value

    @admin.display(description="accuracy (%)")
    def analysed_accuracy(self, player: Player) -> Any:
        return self._analysed(player, "accuracy")

    @admin.display(description="expected loss")
    def expected_loss(self, player: Player) -> Any:
        return self._analysed(player, "expected_loss")

    @admin.display(description="luck")
    def luck(self, player: Player) -> Any:
        return self._analysed(player, "luck")


class ScoreEntryInline(ReadOnlyInline):
    model = ScoreEntry
    ordering = ("id",)
    fields = ("seat_player", "category", "points", "round", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ScoreEntry]:
        return super().get_queryset(request).select_related("player")

    @admin.display(description="seat")
    def seat_player(self, entry: ScoreEntry) -> str:
        return f"{entry.player.seat} · {entry.player.name}"


class EventInline(ReadOnlyInline):
    model = Event
    verbose_name = "event"
    verbose_name_plural = "event log"
    ordering = ("seq",)
    fields = (
        "seq", "type", "seat_display", "data_display", "loss", "label", "best", "created_at"
    )
    readonly_fields = fields
    ANALYSIS_FIELDS = ("loss", "label", "best")

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> tuple[str, ...]:
        if obj is None or not analysable(obj.ruleset):
            return tuple(name for name in self.fields if name not in self.ANALYSIS_FIELDS)
        return tuple(self.fields)

    @admin.display(description="seat")
    def seat_display(self, event: Event) -> str:
        return seat_label(event.game, event.seat)

    def _decision(self, event: Event) -> Decision | TenThousandDecision | None:
        review = game_review(event.game)
        return None if review is None else review.decisions.get(event.seq)

    @admin.display(description="loss")
    def loss(self, event: Event) -> Any:
        decision = self._decision(event)
        return EMPTY if decision is None else decision.loss

    @admin.display(description="label")
    def label(self, event: Event) -> str:
        decision = self._decision(event)
        return EMPTY if decision is None else decision.label

    @admin.display(description="best option")
    def best(self, event: Event) -> str:
        """The best option where the decision was not best: what the analysis advises."""
        decision = self._decision(event)
        if decision is None or decision.label == "best":
            return EMPTY
        return f"{shown_option(decision.best)} ({decision.best_value:.2f})"

    @admin.display(description="data")
    def data_display(self, event: Event) -> SafeString:
        return json_code(event.data)


# -- games -------------------------------------------------------------------------------


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
