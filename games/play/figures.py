"""A finished game's figures, kept once: how accurately each seat played.

The roster and an assignment's results show the mean accuracy of a whole class's games;
computed from every game's log on each read, a class of 300 students with 20 games each
would replay 6,000 logs per request. So when a student's game finishes, the change that
finishes it enqueues :func:`figures_keep` in its own transaction, and a task worker
analyses the game once and stores each seat's accuracy on its row (``Player.accuracy``);
the reads only average stored numbers. The analysis needs the ruleset's strategy table:
where it is missing the task waits for it (built in the background) and runs again later.

Only classroom games are kept this way: they are the ones whose figures are read together
(a public game's analysis is its own endpoint's, computed from its log when asked).
:func:`figures_backfill` does the same for the games that finished before the figures were
kept (enqueued by the migration that made the column).
"""

import datetime as dt
import uuid
from collections.abc import Iterable

from django.db.models import QuerySet
from django.utils import timezone
from django_tasks import task

from games.models import Game, Player
from games.play.analysis import analysable, analysis_of
from games.play.strategy import build_in_background
from scoring.match import GameStatus
from scoring.strategy import SUPPORTED, StaleTable

# Seconds before a game whose table was missing is tried again (a build takes 5 to 20).
RETRY_SECONDS = 30
# Games analysed by one run of the backfill before it enqueues the next run.
BACKFILL_BATCH = 200


def figures_due(*, game: Game, events: Iterable[str]) -> None:
    """Enqueue the figures of ``game`` if this change (its ``events``) finished it, and it
    is a student's game of a ruleset with analysis. Called inside the change's transaction,
    so the task is kept exactly when the change is."""
    if game.student_id is None or not analysable(game.ruleset) or "finished" not in events:
        return
    figures_keep.enqueue(str(game.pk))


@task()
def figures_keep(game_id: str) -> None:
    """Analyse a finished game and store each seat's accuracy (run by a worker)."""
    game = Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).first()
    if game is not None and not _keep(game):
        figures_keep.using(run_after=_later()).enqueue(game_id)


@task()
def figures_backfill(after: str = "") -> None:
    """The figures of the students' games finished before they were kept, a batch at a
    time in the order of their ids: each run enqueues the next, from where it stopped."""
    games = _finished_student_games()
    if after:
        games = games.filter(pk__gt=uuid.UUID(after))
    cursor = after
    for game in games.order_by("pk")[:BACKFILL_BATCH]:
        if not _keep(game):  # its table is being built: go on from this game later
            figures_backfill.using(run_after=_later()).enqueue(cursor)
            return
        cursor = str(game.pk)
    if cursor != after:
        figures_backfill.enqueue(cursor)


def _finished_student_games() -> QuerySet[Game]:
    return Game.objects.filter(
        status=GameStatus.FINISHED, student__isnull=False, ruleset__in=list(SUPPORTED)
    )


def _keep(game: Game) -> bool:
    """Store the accuracy of every seat of ``game``; False (nothing stored) while its
    strategy table is missing (its build is started in the background)."""
    players = list(Player.objects.filter(game=game))
    try:
        analysis = analysis_of(game, [p.seat for p in players], build_missing=False)
    except (FileNotFoundError, StaleTable):
        build_in_background(ruleset_id=game.ruleset, options=game.options)
        return False
    by_seat = {seat.seat: seat.accuracy for seat in analysis.seats}
    for player in players:
        player.accuracy = by_seat.get(player.seat)
    Player.objects.bulk_update(players, ["accuracy"])
    return True


def _later() -> dt.datetime:
    return timezone.now() + dt.timedelta(seconds=RETRY_SECONDS)
