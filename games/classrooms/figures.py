"""A finished game's figures, kept once: how accurately each seat played.

The roster and an assignment's results show the mean accuracy of a whole class's games;
computed from every game's log on each read, a class of 300 students with 20 games each
would replay 6,000 logs per request. So a student's finished game is due for its figures
until they are kept (``Game.figures_kept``): a worker's sweep (``games.work``) finds it,
analyses it once and stores each seat's accuracy on its row (``Player.accuracy``); the
reads only average stored numbers. Games that finished before figures were kept are found
the same way, with no backfill of their own.

The analysis needs the ruleset's strategy table: where it is missing, the figures are put
off (:class:`TableMissing`, the sweep tries again after a growing wait) while a worker
builds the table (``games.work.tables``). Only classroom and tournament games are kept
this way: they are
the ones whose figures are read together (a public game's analysis is its own endpoint's,
computed from its log when asked).
"""

from collections.abc import Collection
from typing import Any

from django.db.models import Q

from games.models import Game, Player
from games.play.analysis import analysable_game, analysis_of
from games.play.strategy import queue_build
from scoring.boxgames.strategy import StaleTable
from scoring.match import GameStatus


class TableMissing(RuntimeError):
    """The strategy table a game's analysis needs is not built yet: the sweep queues its
    build (:func:`table_missing`) once this piece of work is rolled back."""

    def __init__(self, ruleset_id: str, options: dict[str, Any]) -> None:
        super().__init__(f"{ruleset_id} {options}: its table is not built yet")
        self.ruleset_id, self.options = ruleset_id, options


def table_missing(missing: TableMissing) -> None:
    """Queue the build of the table a game's figures wait for (outside the rolled-back
    work, so that the queued build stays)."""
    queue_build(ruleset_id=missing.ruleset_id, options=missing.options)


def figures_due(*, passed_over: Collection[Any] = ()) -> Any | None:
    """The id of a student's (or a tournament's) finished game whose figures are not kept
    yet, locked until the transaction ends (games others hold, and ``passed_over``,
    skipped); None if none."""
    due = (
        Game.objects.select_for_update(skip_locked=True)
        .filter(Q(student__isnull=False) | Q(tournament__isnull=False),
                status=GameStatus.FINISHED, figures_kept=False)
        .exclude(pk__in=list(passed_over))
        .order_by("finished_at")
    )
    return due.values_list("pk", flat=True).first()


def figures_keep(*, game_id: Any) -> None:
    """Store the accuracy of every seat of the game (none for a game without analysis: a
    ruleset not solved, Ten Thousand of three seats or more), and mark its figures kept.
    Raises :class:`TableMissing` (nothing stored) while its strategy table is missing,
    (the sweep then queues its build)."""
    game = Game.objects.get(pk=game_id)
    if analysable_game(game):
        players = list(Player.objects.filter(game=game))
        try:
            analysis = analysis_of(game, [p.seat for p in players], build_missing=False)
        except (FileNotFoundError, StaleTable) as missing:
            raise TableMissing(game.ruleset, game.options) from missing
        by_seat = {seat.seat: seat.accuracy for seat in analysis.seats}
        for player in players:
            player.accuracy = by_seat.get(player.seat)
        Player.objects.bulk_update(players, ["accuracy"])
    Game.objects.filter(pk=game.pk).update(figures_kept=True)
