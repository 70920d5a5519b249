"""A tournament's standings and ratings, from its finished games (plain Python).

Points: in a round robin a win counts 1 and a draw (equal totals) ½. In a field each board
compares every entrant with every other entrant who finished it: each who scored less is
a win, as much a draw, more a loss. Rows rank by points, then mean score.

Ratings come from the ``openskill`` package's Plackett-Luce model with its defaults: every
finished game is one match, applied once in game order, equal totals as equal ranks; in a
field each board is one match of all who finished it, boards in order. ``ordinal`` is
mu - 3 sigma.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from statistics import fmean

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Finished:
    """A finished game of the tournament: its number, board, entrants in seat order, and
    each seat's total and accuracy (None where there is no analysis)."""

    number: int
    board: int
    entrants: tuple[int, ...]
    totals: tuple[int, ...]
    accuracy: tuple[float | None, ...]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class Row:
    entrant: int
    name: str
    games: int
    points: float
    wins: int
    draws: int
    losses: int
    mean_score: float | None
    rating: Rating | None
    mean_accuracy: float | None
    timeouts: int


def ranks_of(scores: Sequence[int]) -> list[int]:
    """Each score's rank, best first, equal scores equal ranks (1, 2, 2, 4)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def ratings(*, seats: int, games: Iterable[Finished], entrants: int) -> dict[int, Rating]:
    """Each entrant's rating after the finished games (entrants with none keep the
    model's start)."""
    model = PlackettLuce()
    current = {e: model.rating() for e in range(1, entrants + 1)}
    for match in _matches(seats, games):
        if len(match) < 2:
            continue
        scores = [score for _, score in match]
        ranks = [float(rank) for rank in ranks_of(scores)]
        rated = model.rate([[current[e]] for e, _ in match], ranks=ranks)
        for (entrant, _), team in zip(match, rated, strict=True):
            current[entrant] = team[0]
    return {
        e: Rating(mu=r.mu, sigma=r.sigma, ordinal=r.mu - 3 * r.sigma) for e, r in current.items()
    }


def _matches(seats: int, games: Iterable[Finished]) -> list[list[tuple[int, int]]]:
    """The matches to rate, in order: (entrant, score) of each side."""
    ordered = sorted(games, key=lambda g: g.number)
    if seats != 1:
        return [list(zip(g.entrants, g.totals, strict=True)) for g in ordered]
    by_board = sorted(ordered, key=lambda g: (g.board, g.number))
    return [
        [(g.entrants[0], g.totals[0]) for g in board_games]
        for _, board_games in groupby(by_board, key=lambda g: g.board)
    ]


def standings(
    *,
    seats: int,
    names: Mapping[int, str],
    games: Sequence[Finished],
    timeouts: Mapping[int, int],
    rated: bool,
    rated_already: Mapping[int, Rating] | None = None,
) -> list[Row]:
    """One row per entrant, best first. ``rated_already``: the ratings of these very games,
    worked out before (they are the costly part: a tenth of a millisecond a game)."""
    scores: dict[int, list[int]] = defaultdict(list)
    accuracy: dict[int, list[float]] = defaultdict(list)
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, draws, losses
    for game in games:
        for seat, entrant in enumerate(game.entrants):
            scores[entrant].append(game.totals[seat])
            kept = game.accuracy[seat]
            if kept is not None:
                accuracy[entrant].append(kept)
    for match in _matches(seats, games):
        for i, (entrant, score) in enumerate(match):
            for j, (_, theirs) in enumerate(match):
                if i == j:
                    continue
                tally[entrant][0 if score > theirs else 1 if score == theirs else 2] += 1
    found: Mapping[int, Rating] = {}
    if rated:
        found = rated_already or ratings(seats=seats, games=games, entrants=len(names))
    rows = [
        Row(
            entrant=entrant,
            name=name,
            games=len(scores[entrant]),
            points=tally[entrant][0] + tally[entrant][1] / 2,
            wins=tally[entrant][0],
            draws=tally[entrant][1],
            losses=tally[entrant][2],
            mean_score=round(fmean(scores[entrant]), 2) if scores[entrant] else None,
            rating=found.get(entrant),
            mean_accuracy=round(fmean(accuracy[entrant]), 2) if accuracy[entrant] else None,
            timeouts=timeouts.get(entrant, 0),
        )
        for entrant, name in sorted(names.items())
    ]
    return sorted(
        rows,
        key=lambda r: (
            -r.points, r.mean_score is None, -(r.mean_score or 0.0), r.entrant
        ),
    )
