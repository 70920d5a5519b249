"""A game's rows on its admin page: seats, score entries and events. Written only by the
game services, so shown and never added, changed or deleted here; each row reads the very
game object the page shows, so that the engine's view is worked out once per page."""

from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from games.admin.game_display import (
    EMPTY,
    game_review,
    json_code,
    scorecard_table,
    seat_label,
    seat_view,
    shown_option,
)
from games.models import Event, Game, Player, ScoreEntry
from games.play.analysis import analysable
from scoring.boxgames.strategy.analysis import Decision
from scoring.tenthousand.strategy.analysis import Decision as TenThousandDecision


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
