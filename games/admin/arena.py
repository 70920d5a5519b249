"""The admin of the bot arena: bots (whose they are, what they play, their tournaments) and
tournaments (as set, their entrants, standings and progress, and a link to their games in
the games' own list, where each game shows every move and score). Read-only: the service
runs tournaments; a teacher cancels one through the API or /teach/.

A tournament's secrets are shown only once it is over, as the API shows them: before that
they are the dice of games still to be played.
"""

from typing import ClassVar

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.admin.classrooms import ReadOnlyInline, ReadOnlyPermissions
from games.admin.game_display import json_code
from games.models import Bot, Entrant, Tournament
from games.tournaments.selectors import standings_of
from scoring.match import GameStatus
from scoring.verifiable import commitment


class ReadOnly(ReadOnlyPermissions, admin.ModelAdmin):
    pass


class EntryInline(ReadOnlyInline):
    model = Entrant
    fk_name = "bot"
    verbose_name = "tournament entered"
    fields: ClassVar[tuple[str, ...]] = ("tournament", "number", "name")
    readonly_fields: ClassVar[tuple[str, ...]] = fields


@admin.register(Bot)
class BotAdmin(ReadOnly):
    list_display = ("name", "classroom", "owner", "rulesets_display", "created_at", "deleted_at")
    list_filter = ("classroom",)
    list_select_related = ("classroom", "student")
    search_fields = ("name", "classroom__name", "student__name")
    fields = ("id", "name", "classroom", "owner", "rulesets_display", "created_at", "deleted_at")
    readonly_fields = fields
    inlines = [EntryInline]

    @admin.display(description="owner")
    def owner(self, bot: Bot) -> str:
        return bot.student.name if bot.student else "the teacher"

    @admin.display(description="rulesets")
    def rulesets_display(self, bot: Bot) -> str:
        return ", ".join(bot.rulesets)


class EntrantInline(ReadOnlyInline):
    model = Entrant
    fk_name = "tournament"
    fields: ClassVar[tuple[str, ...]] = ("number", "name", "bot", "computer")
    readonly_fields: ClassVar[tuple[str, ...]] = fields


@admin.register(Tournament)
class TournamentAdmin(ReadOnly):
    list_display = ("title", "classroom", "ruleset", "kind", "status", "progress", "starts_at")
    list_filter = ("status", "ruleset", "classroom")
    list_select_related = ("classroom", "student")
    search_fields = ("title", "classroom__name")
    fields = (
        "id", "title", "classroom", "set_by", "ruleset", "options_display", "kind", "boards",
        "turn_seconds", "rated", "status", "progress", "games_link", "starts_at",
        "finished_at", "created_at", "standings_table", "commitments", "secrets_display",
    )
    readonly_fields = fields
    inlines = [EntrantInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        finished = Count("played", filter=Q(played__status=GameStatus.FINISHED))
        return super().get_queryset(request).annotate(finished_games=finished)

    @admin.display(description="kind")
    def kind(self, tournament: Tournament) -> str:
        return "round robin" if tournament.seats == 2 else "field"

    @admin.display(description="set by")
    def set_by(self, tournament: Tournament) -> str:
        if tournament.student is None:
            return "the teacher"
        return f"{tournament.student.name} (a scrimmage)"

    @admin.display(description="games finished")
    def progress(self, tournament: Tournament) -> str:
        finished = getattr(tournament, "finished_games", 0)
        return f"{finished} of {tournament.games} ({tournament.started} started)"

    @admin.display(description="games")
    def games_link(self, tournament: Tournament) -> SafeString:
        url = reverse("admin:games_game_changelist") + f"?tournament__id__exact={tournament.pk}"
        return format_html('<a href="{}">its games, with every move</a>', url)

    @admin.display(description="options")
    def options_display(self, tournament: Tournament) -> SafeString:
        return json_code(tournament.options)

    @admin.display(description="standings")
    def standings_table(self, tournament: Tournament) -> SafeString:
        rows = standings_of(tournament=tournament)
        head = mark_safe(  # a constant
            "<tr><th>#</th><th>entrant</th><th>games</th><th>points</th><th>wins</th>"
            "<th>draws</th><th>losses</th><th>mean score</th><th>rating (ordinal)</th>"
            "<th>mean accuracy</th><th>timeouts</th></tr>"
        )
        body = format_html_join("", (
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>"
        ), (
            (row.entrant, row.name, row.games, _shown(row.points), row.wins, row.draws, row.losses,
             _shown(row.mean_score), _shown(row.rating.ordinal if row.rating else None),
             _shown(row.mean_accuracy), row.timeouts)
            for row in rows
        ))
        return format_html("<table>{}{}</table>", head, body)

    @admin.display(description="commitments")
    def commitments(self, tournament: Tournament) -> SafeString:
        return json_code([commitment(bytes.fromhex(s)) for s in tournament.secrets])

    @admin.display(description="secrets")
    def secrets_display(self, tournament: Tournament) -> SafeString | str:
        if not tournament.over:
            return "hidden until the tournament is over"
        return json_code(tournament.secrets)


def _shown(value: float | None) -> str:
    return "" if value is None else f"{value:g}"
