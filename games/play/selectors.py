"""Reads of games, each in a fixed, small number of queries: every query the API's views
answer from goes through here (or ``games.play.privacy``, for who may see what), so that a
view parses, calls one service or selector, and renders."""

import contextlib
import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from games.models import Event, Game, Player
from games.names import name_key, name_normal
from games.play.privacy import PRIVACY_COLUMNS
from scoring import get_ruleset
from scoring.match import GameStatus


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games with their seats in seat order, read for the whole page in one more query:
    what every list of games that shows its seats (a game's answer, the admin) reads."""
    return games.prefetch_related(Prefetch("players", queryset=Player.objects.order_by("seat")))


def as_shown(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games as their answers show them: each with its student (a student's game names
    them) and its seats, in two queries for a whole page."""
    return with_seats(games.select_related("student"))


def games_shown() -> QuerySet[Game]:
    """Every game, newest first, as its answer shows it (``as_shown``); private ones too: a
    list keeps only the public ones (``privacy.only_public``), a read checks the viewer
    (``privacy.may_see``)."""
    return as_shown(Game.objects.order_by("-created_at", "id"))


def game_shown(game_id: Any) -> Game | None:
    """One game as its answer shows it (``games_shown``), or None if there is none."""
    return games_shown().filter(pk=game_id).first()


def game_by_id(game_id: Any) -> Game | None:
    """One game's row alone (no seats), or None if there is none."""
    return Game.objects.filter(pk=game_id).first()


def game_columns(game_id: Any, *columns: str) -> dict[str, Any] | None:
    """Some of one game's columns, with those that decide who may see it
    (``privacy.PRIVACY_COLUMNS``), in one query; None if there is no such game. For the
    reads that need a game's version or last event only (a refresh that may answer 304)."""
    return Game.objects.filter(pk=game_id).values(*columns, *PRIVACY_COLUMNS).first()


def game_events(game_id: Any, *, after: int, limit: int) -> list[Event]:
    """A page of the game's log: the events after ``after``, oldest first."""
    return list(Event.objects.filter(game_id=game_id, seq__gt=after).order_by("seq")[:limit])


def with_player(games: QuerySet[Game], name: str) -> QuerySet[Game]:
    """The games with a seat called ``name`` (as :func:`games.names.name_normal` writes it;
    case does not matter)."""
    seated = Player.objects.filter(game=OuterRef("pk"), name__iexact=name_normal(name))
    return games.filter(Exists(seated))


def of_student(games: QuerySet[Game], student: str) -> QuerySet[Game]:
    """The games of the student ``student`` names: by name (its folded key: case and look-alike
    forms do not matter), or by id."""
    match = Q(student__name_key=name_key(student))
    with contextlib.suppress(ValueError):
        match |= Q(student_id=uuid.UUID(student))
    return games.filter(match)


Period = Literal["day", "week", "all"]

PERIODS: dict[Period, dt.timedelta | None] = {
    "day": dt.timedelta(days=1),
    "week": dt.timedelta(days=7),
    "all": None,
}


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int
    name: str
    score: int
    game: uuid.UUID
    finished_at: dt.datetime


def leaderboard(*, ruleset: str, period: Period, limit: int) -> list[LeaderboardEntry]:
    """The best totals of people's seats in finished, ranked games of ``ruleset``.

    Highest first; equal scores share a rank (1, 2, 2, 4) and the earlier finish is listed
    first. Unfinished, abandoned and seeded (unranked) games never count, nor do computer
    seats: the table compares people. Only games played with the ruleset's default options
    count, so that every score on the table was made under the same rules (a house rule
    such as a lower Ten Thousand target would otherwise top it). ``period`` keeps the games
    finished in the last 24 hours (``day``) or 7 days (``week``). One query.
    """
    seats = Player.objects.filter(
        game__ruleset=ruleset,
        game__status=GameStatus.FINISHED,
        game__ranked=True,
        computer__isnull=True,
        game__options=get_ruleset(ruleset).validate_options({}),
    )
    window = PERIODS[period]
    if window is not None:
        seats = seats.filter(game__finished_at__gte=timezone.now() - window)
    rows = seats.order_by("-total", "game__finished_at", "game_id", "seat").values_list(
        "name", "total", "game_id", "game__finished_at"
    )[:limit]
    return _ranked(rows)


def _ranked(
    rows: Iterable[tuple[str, int, uuid.UUID, dt.datetime | None]],
) -> list[LeaderboardEntry]:
    """Standard competition ranks: a seat's rank is one more than the seats scoring more.

    Every seat scoring more is listed before it, so the rows cut at ``limit`` still rank
    right.
    """
    entries: list[LeaderboardEntry] = []
    for position, (name, score, game_id, finished_at) in enumerate(rows, start=1):
        if finished_at is None:  # the rows are finished games', which keep the time
            raise ValueError(f"game {game_id} is finished with no time")
        rank = entries[-1].rank if entries and entries[-1].score == score else position
        entries.append(LeaderboardEntry(rank, name, score, game_id, finished_at))
    return entries
