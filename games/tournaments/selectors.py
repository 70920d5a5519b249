"""Reads of tournaments: a classroom's list, one tournament, its games, its standings.
Reads only: nothing here starts, changes or finishes anything (the ratings worked out are
kept in the shared cache)."""

import hashlib
import uuid
from collections import Counter
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.utils.translation import gettext_noop

from games.models import Entrant, Event, Game, Player, Tournament
from games.play.errors import ServiceCode, ServiceError
from games.play.selectors import as_shown
from games.tournaments import plan, standings
from scoring.match import GameStatus

# How long a tournament's ratings after a set of finished games stay in the cache.
RATINGS_KEPT_SECONDS = 3600


@dataclass(frozen=True)
class Progress:
    games: int
    finished: int


def tournaments_of(*, classroom_id: uuid.UUID) -> list[Tournament]:
    """The classroom's tournaments, newest first, with their entrants."""
    return list(
        Tournament.objects.filter(classroom_id=classroom_id)
        .prefetch_related("entrants")
        .order_by("-created_at")
    )


def tournament_of(*, classroom_id: uuid.UUID, tournament_id: uuid.UUID) -> Tournament:
    """The classroom's tournament with its entrants: ``not_found`` if it has none with
    this id."""
    found = (
        Tournament.objects.filter(pk=tournament_id, classroom_id=classroom_id)
        .prefetch_related("entrants")
        .first()
    )
    if found is None:
        raise ServiceError(
            ServiceCode.NOT_FOUND, gettext_noop("no tournament with this id in this classroom")
        )
    return found


def tournament_over(*, classroom_id: uuid.UUID, tournament_id: uuid.UUID) -> bool:
    """Whether the classroom has this tournament and it is over (finished or cancelled):
    then anyone may read it."""
    return Tournament.objects.filter(
        pk=tournament_id, classroom_id=classroom_id,
        status__in=(Tournament.Status.FINISHED, Tournament.Status.CANCELLED),
    ).exists()


def set_by(*, classroom_id: uuid.UUID, tournament_id: uuid.UUID) -> list[uuid.UUID | None]:
    """Who set the classroom's tournament: ``[student id]`` for a scrimmage, ``[None]`` for
    the teacher's, ``[]`` if the classroom has no such tournament."""
    return list(
        Tournament.objects.filter(pk=tournament_id, classroom_id=classroom_id).values_list(
            "student_id", flat=True
        )
    )


def progress_of(tournaments: list[Tournament]) -> dict[uuid.UUID, Progress]:
    """Each tournament's games in all and finished. One query."""
    finished = dict(
        Game.objects.filter(tournament__in=tournaments, status=GameStatus.FINISHED)
        .values("tournament_id")
        .annotate(n=Count("pk"))
        .values_list("tournament_id", "n")
    )
    return {t.id: Progress(t.games, finished.get(t.id, 0)) for t in tournaments}


def tournament_games(*, tournament: Tournament) -> QuerySet[Game]:
    """The tournament's games started so far, in the schedule's order, as their answers
    show them."""
    return as_shown(Game.objects.filter(tournament=tournament).order_by("tournament_game"))


def standings_of(*, tournament: Tournament) -> list[standings.Row]:
    """The standings from the finished games: three queries (entrants, seats, timeouts),
    whatever the tournament's size."""
    entrants = list(Entrant.objects.filter(tournament=tournament).order_by("number"))
    size = {"seats": tournament.seats, "boards": tournament.boards, "entrants": len(entrants)}
    seats: dict[int, dict[int, tuple[int, float | None]]] = {}
    rows = Player.objects.filter(
        game__tournament=tournament, game__status=GameStatus.FINISHED
    ).values_list("game__tournament_game", "seat", "total", "accuracy")
    for number, seat, total, accuracy in rows:
        seats.setdefault(number or 0, {})[seat] = (total, accuracy)
    finished = []
    for number, by_seat in sorted(seats.items()):
        fixture = plan.fixture(number=number, **size)
        ordered = [by_seat[s] for s in range(len(fixture.entrants))]
        finished.append(standings.Finished(
            number=number,
            board=fixture.board,
            entrants=fixture.entrants,
            totals=tuple(total for total, _ in ordered),
            accuracy=tuple(accuracy for _, accuracy in ordered),
        ))
    timeouts: Counter[int] = Counter()
    timed_out = (
        Event.objects.filter(game__tournament=tournament, type="timed_out")
        .order_by()
        .values_list("game__tournament_game", "seat")
        .annotate(n=Count("pk"))
    )
    for number, seat, count in timed_out:
        timeouts[plan.fixture(number=number, **size).entrants[seat]] += count
    return standings.standings(
        seats=tournament.seats,
        names={e.number: e.name for e in entrants},
        games=finished,
        timeouts=timeouts,
        rated=tournament.rated,
        rated_already=_ratings(tournament, finished, len(entrants)) if tournament.rated else None,
    )


def _ratings(
    tournament: Tournament, finished: list[standings.Finished], entrants: int
) -> dict[int, standings.Rating]:
    """The ratings after these finished games, worked out once for them and kept in the
    shared cache: a finished game's totals never change, so the games' numbers name them.
    Every reader of a tournament while no game ends reads them from there."""
    numbers = ",".join(str(game.number) for game in finished)
    key = f"tournament-ratings:{tournament.id}:{hashlib.sha256(numbers.encode()).hexdigest()}"
    kept = cache.get(key)
    if isinstance(kept, dict):
        return kept
    found = standings.ratings(seats=tournament.seats, games=finished, entrants=entrants)
    cache.set(key, found, timeout=RATINGS_KEPT_SECONDS)
    return found
