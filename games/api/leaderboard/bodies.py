"""A row of the high-score table."""

from typing import Annotated, TypedDict

from games.api.schema.shapes import Bounds, DateTime, Uuid, iso_time, serializer_for
from games.play import selectors


class LeaderboardEntryBody(TypedDict):
    rank: Annotated[
        int, Bounds(1), "1 for the best score; equal scores share a rank (1, 2, 2, 4)."
    ]
    name: Annotated[str, "The seat's name."]
    score: Annotated[int, "The seat's final total."]
    game: Annotated[Uuid, "The game's id."]
    finished_at: DateTime


LeaderboardEntryOut = serializer_for(LeaderboardEntryBody)


def render_entry(entry: selectors.LeaderboardEntry) -> LeaderboardEntryBody:
    return {
        "rank": entry.rank,
        "name": entry.name,
        "score": entry.score,
        "game": str(entry.game),
        "finished_at": iso_time(entry.finished_at),
    }
