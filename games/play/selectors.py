"""Reads that answer questions across games, each in a fixed, small number of queries."""

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from games.models import Game, Player
from scoring import get_ruleset
from scoring.match import GameStatus


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games with their seats in seat order, read for the whole page in one more query:
    what every list of games that shows its seats (a game's answer, the admin) reads."""
    return games.prefetch_related(Prefetch("players", queryset=Player.objects.order_by("seat")))


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
