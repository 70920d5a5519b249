"""Running a tournament: a worker's steps start it at ``starts_at``, start its games in the
schedule's order (at most ``MOST_ACTIVE`` of one bot at once, the next as one ends), and
finish it once every game is over. Cancelling ends it the same way.

The bots' moves are requests like anyone's, and a bot moves as fast as it is told of its
turn: a tournament's load on the service is the number of its games under way. So all the
running tournaments together have at most ``TOURNAMENT_GAMES_AT_ONCE`` games under way
(a setting), shared evenly: each of ``n`` running tournaments may have its ``1/n`` of them
(rounded up), so a large tournament neither starves a small one nor crowds ordinary play
out (docs/benchmark.md, "The bot arena at scale", measures it). Two workers stepping two
tournaments at once may pass the bound by one step's games at most.

Each step is one transaction holding the tournament's row: a worker killed mid-step leaves
nothing of it, and the next step (of any worker) does it again. A game is started with its
board's secret and client seed, the tournament's turn clock, and each bot's seat named for
the bot (its owner's stream gives the bot the seat). A bot that does not move in time has
its turn played by the greedy computer, and in a tournament never leaves its seat, so
every game ends whatever the bots do.
"""

import datetime as dt
import math
import uuid
from collections import Counter
from collections.abc import Collection

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.db.models.functions import Now

from games.db.clock import db_now
from games.hooks import services as hooks
from games.models import Entrant, Game, Tournament
from games.play import services as play
from games.play.clocks import Clock
from games.play.errors import REFUSALS
from games.tournaments import bots, plan
from scoring.match import GameStatus, Seat

# At most this many games of one bot in one tournament are being played at once.
MOST_ACTIVE = 8
# Games one step starts at most (computers' games are played out as they start); a step
# that started as many is due again at once.
PER_STEP = 16
# How often a running tournament is looked at, for games that ended.
STEP_SECONDS = 1.0
STILL_OPEN = (GameStatus.WAITING, GameStatus.ACTIVE)
# A tournament's games are the classroom's to see until it is over: their deadline to be
# seen (``due_at``) is far ahead while it runs, and the moment it ended afterwards.
SEALED_UNTIL = dt.datetime(3000, 1, 1, tzinfo=dt.UTC)

bot_columns = bots.bot_columns
bots_by_id = bots.bots_by_id


def tournament_due(*, passed_over: Collection[uuid.UUID] = ()) -> uuid.UUID | None:
    """The id of a tournament due for a step (by the database's clock), locked until the
    transaction ends; those others hold, and ``passed_over``, skipped. None if none."""
    due = (
        Tournament.objects.select_for_update(skip_locked=True)
        .filter(
            status__in=(Tournament.Status.SCHEDULED, Tournament.Status.RUNNING),
            next_step_at__lte=Now(),
        )
        .exclude(pk__in=list(passed_over))
        .order_by("next_step_at")
    )
    return due.values_list("pk", flat=True).first()


def tournament_step(*, tournament_id: uuid.UUID) -> None:
    """One step of a tournament that is due: it starts, its next games start, or it
    finishes. Safe to run many times, from many workers at once: a step that finds the
    tournament not due (another did it) does nothing."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.over or tournament.next_step_at is None:
            return
        now = db_now()
        if now < tournament.next_step_at:
            return
        if tournament.status == Tournament.Status.SCHEDULED:
            if now < tournament.starts_at:
                tournament.next_step_at = tournament.starts_at
                tournament.save(update_fields=["next_step_at"])
                return
            tournament.status = Tournament.Status.RUNNING
            bots.status_changed(tournament)
        started = _start_games(tournament)
        if tournament.started == tournament.games and not _open_games(tournament):
            tournament_end(tournament, status=Tournament.Status.FINISHED)
            return
        wait = 0.0 if started == PER_STEP else STEP_SECONDS
        tournament.next_step_at = now + dt.timedelta(seconds=wait)
        tournament.save(update_fields=["status", "started", "next_step_at"])


def _open_games(tournament: Tournament) -> list[int]:
    """The numbers of the tournament's games still being played."""
    numbers = Game.objects.filter(tournament=tournament, status__in=STILL_OPEN).values_list(
        "tournament_game", flat=True
    )
    return [number for number in numbers if number is not None]


def _start_games(tournament: Tournament) -> int:
    """Starts the next games of the schedule, in order, while their bots have room; answers
    how many it started."""
    entrants = {
        e.number: e for e in Entrant.objects.filter(tournament=tournament).select_related("bot")
    }
    size = {"seats": tournament.seats, "boards": tournament.boards, "entrants": len(entrants)}
    busy: Counter[int] = Counter()
    for number in _open_games(tournament):
        busy.update(plan.fixture(number=number, **size).entrants)
    # Games of computers only are over as they start: they take no room.
    made, room = 0, _room(tournament)
    while tournament.started < tournament.games and made < PER_STEP and room > 0:
        fixture = plan.fixture(number=tournament.started + 1, **size)
        playing = [e for e in fixture.entrants if entrants[e].computer is None]
        if any(busy[e] >= MOST_ACTIVE for e in playing):
            break
        game = _start(tournament, fixture, entrants)
        tournament.started += 1
        made += 1
        if game.status in STILL_OPEN:
            busy.update(playing)
            room -= 1
    return made


def _room(tournament: Tournament) -> int:
    """How many more games the tournament may have under way now, within its share of the
    service's bound (see the module's notes). Two queries."""
    most = settings.TOURNAMENT_GAMES_AT_ONCE
    under_way = dict(
        Game.objects.filter(
            tournament__status=Tournament.Status.RUNNING, status__in=STILL_OPEN
        ).values_list("tournament").annotate(games=Count("id")).order_by()
    )
    running = (
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .exclude(pk=tournament.pk).count() + 1  # this one, even as it starts
    )
    share = math.ceil(most / running)
    return max(0, min(share - under_way.get(tournament.pk, 0), most - sum(under_way.values())))


def _start(tournament: Tournament, fixture: plan.Fixture, entrants: dict[int, Entrant]) -> Game:
    """Game ``fixture.number``: its board's dice, the tournament's clock, its bots seated."""
    seated = [entrants[e] for e in fixture.entrants]
    played = play.game_create(
        ruleset_id=tournament.ruleset,
        options=tournament.options,
        players=[Seat(e.name, e.computer) for e in seated],
        classroom_id=tournament.classroom_id,
        clock=Clock(turn_seconds=tournament.turn_seconds),
        # A bot deleted meanwhile takes no new seat: its entrant's turns time out instead.
        bots={seat: e.bot.pk for seat, e in enumerate(seated) if e.bot and not e.bot.deleted},
        marks={
            "dice_secret": tournament.secrets[fixture.board - 1],
            "client_seed": f"board-{fixture.board}",
            "tournament_id": tournament.id,
            "board": fixture.board,
            "tournament_game": fixture.number,
            "ranked": False,
            "dice_sealed": True,
            "due_at": SEALED_UNTIL,
        },
    )
    bots.seated(played.players)
    return played.game


def tournament_end(tournament: Tournament, *, status: Tournament.Status) -> None:
    """Ends the tournament (in the caller's transaction, its row locked): games still being
    played are abandoned, every game's secret is shown and every game becomes public; the
    bots' keys hear of it, and for a finished one the teacher's webhooks."""
    for game_id in Game.objects.filter(tournament=tournament, status__in=STILL_OPEN).values_list(
        "id", flat=True
    ):
        try:
            play.game_abandon(game_id=game_id, by="cancelled")
        except REFUSALS:  # finished meanwhile, by a move that held its lock
            continue
    now = db_now()
    Game.objects.filter(tournament=tournament).update(dice_sealed=False, due_at=now)
    tournament.status = status
    tournament.finished_at = now
    tournament.next_step_at = None
    tournament.save(update_fields=["status", "started", "finished_at", "next_step_at"])
    bots.status_changed(tournament)
    if status == Tournament.Status.FINISHED:
        hooks.tournament_finished(
            classroom_id=tournament.classroom_id, tournament_id=tournament.id
        )
