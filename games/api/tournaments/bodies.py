"""A tournament's answers: the tournament (with its progress and standings), its games, and
its standings as JSON or CSV."""

import csv
import io
from typing import Annotated, Any, TypedDict

from rest_framework.renderers import BaseRenderer

from games.api.assignments.bodies import Hex, csv_cell
from games.api.games.bodies import GameBody
from games.api.schema.responses import RulesetId
from games.api.schema.shapes import Bounds, Choice, DateTime, Uuid, iso_time, serializer_for
from games.models import Tournament
from games.tournaments.selectors import Progress
from games.tournaments.standings import Row
from scoring.verifiable import commitment

STATUSES = [status.value for status in Tournament.Status]


class EntrantBody(TypedDict):
    entrant: Annotated[int, "The entrant's number (from 1, in the order entered)."]
    bot: Annotated[Uuid | None, "The bot's id; null for a computer."]
    computer: Annotated[str | None, "The computer level; null for a bot."]
    name: str


class TournamentProgressBody(TypedDict):
    games: Annotated[int, "Every game of the schedule, started or not."]
    finished: int


class RatingBody(TypedDict):
    mu: float
    sigma: float
    ordinal: Annotated[float, "mu - 3 sigma."]


class StandingBody(TypedDict):
    entrant: int
    name: str
    games: Annotated[int, "Its finished games."]
    points: float
    wins: int
    draws: int
    losses: int
    mean_score: Annotated[float | None, "Over its finished games; null with none."]
    rating: Annotated[RatingBody | None, "Null when the tournament is not rated."]
    mean_accuracy: Annotated[
        float | None, "Over its finished games that have an analysis; null when none has."
    ]
    timeouts: Annotated[int, "Its turns played for it by greedy when its time ran out."]


class TournamentBody(TypedDict):
    id: Uuid
    title: str
    ruleset: RulesetId
    options: dict[str, Any]
    seats: Annotated[int, Bounds(1, 2)]
    boards: Annotated[int, Bounds(1, 50)]
    entrants: list[EntrantBody]
    status: Annotated[str, Choice(STATUSES)]
    starts_at: DateTime
    finished_at: DateTime | None
    progress: TournamentProgressBody
    commitments: Annotated[list[Hex], "Board b's commitment (SHA-256 of its secret), b = 1..."]
    secrets: Annotated[
        list[Hex] | None, "Once the tournament is over, board b's secret; null until then."
    ]
    standings: Annotated[list[StandingBody], "Best first."]
    rated: bool
    turn_seconds: Annotated[int, "The turn clock of every game."]
    scrimmage: Annotated[bool, "Set by a student: never rated."]
    created_at: DateTime


class TournamentGamesPageBody(TypedDict):
    count: int
    next: str | None
    previous: str | None
    results: list[GameBody]


TournamentOut = serializer_for(TournamentBody)
StandingOut = serializer_for(StandingBody)
TournamentGamesPageOut = serializer_for(TournamentGamesPageBody)
CSV_HEADER = [
    "rank", "entrant", "name", "games", "points", "wins", "draws", "losses", "mean_score",
    "mu", "sigma", "ordinal", "mean_accuracy", "timeouts",
]


def render_standing(row: Row) -> StandingBody:
    return {
        "entrant": row.entrant,
        "name": row.name,
        "games": row.games,
        "points": row.points,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "mean_score": row.mean_score,
        "rating": (
            {"mu": row.rating.mu, "sigma": row.rating.sigma, "ordinal": row.rating.ordinal}
            if row.rating is not None else None
        ),
        "mean_accuracy": row.mean_accuracy,
        "timeouts": row.timeouts,
    }


def render_tournament(
    tournament: Tournament, progress: Progress, standings: list[Row] | None = None
) -> TournamentBody:
    entrants = sorted(tournament.entrants.all(), key=lambda e: e.number)
    return {
        "id": str(tournament.id),
        "title": tournament.title,
        "ruleset": tournament.ruleset,
        "options": tournament.options,
        "seats": tournament.seats,
        "boards": tournament.boards,
        "entrants": [
            {
                "entrant": e.number,
                "bot": str(bot) if (bot := getattr(e, "bot_id", None)) else None,
                "computer": e.computer,
                "name": e.name,
            }
            for e in entrants
        ],
        "status": tournament.status,
        "starts_at": iso_time(tournament.starts_at),
        "finished_at": iso_time(tournament.finished_at) if tournament.finished_at else None,
        "progress": {"games": progress.games, "finished": progress.finished},
        "commitments": [commitment(bytes.fromhex(s)) for s in tournament.secrets],
        "secrets": list(tournament.secrets) if tournament.over else None,
        "standings": [render_standing(row) for row in standings or []],
        "rated": tournament.rated,
        "turn_seconds": tournament.turn_seconds,
        "scrimmage": tournament.student_id is not None,
        "created_at": iso_time(tournament.created_at),
    }


class StandingsCsvRenderer(BaseRenderer):
    """The standings as a spreadsheet takes them: one row per entrant, best first, empty
    where null, no cell a formula (an entrant's name is a bot's free text)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, renderer_context: Any = None
               ) -> bytes:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_HEADER)
        if isinstance(data, list):
            for rank, row in enumerate(data, start=1):
                rating = row["rating"] or {}
                values = [
                    rank, row["entrant"], row["name"], row["games"], row["points"], row["wins"],
                    row["draws"], row["losses"], row["mean_score"], rating.get("mu"),
                    rating.get("sigma"), rating.get("ordinal"), row["mean_accuracy"],
                    row["timeouts"],
                ]
                writer.writerow([csv_cell(value) for value in values])
        return out.getvalue().encode("utf-8")
