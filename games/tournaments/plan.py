"""A tournament's schedule: which entrants play game k, on which board (plain Python).

Entrants are numbered 1..n and boards 1..b; games are numbered 1..N in the order the worker
starts them. A field (``seats: 1``) plays board by board, each entrant alone on it. A round
robin (``seats: 2``) plays board by board too; within a board every pair of entrants meets
twice, once in each seat order, in rounds of the circle method: each round pairs every
entrant with another (one sits out when n is odd), so the games of a round are between
different entrants and can run side by side, and the second leg repeats the rounds with
the seats swapped.
"""

from dataclasses import dataclass
from functools import cache

MOST_GAMES = 10_000
MOST_ENTRANTS = 64


@dataclass(frozen=True)
class Fixture:
    """Game ``number`` (1-based) of a tournament: its board and its entrants in seat order."""

    number: int
    board: int
    entrants: tuple[int, ...]


def games_count(*, seats: int, boards: int, entrants: int) -> int:
    """How many games the schedule holds."""
    per_board = entrants if seats == 1 else entrants * (entrants - 1)
    return boards * per_board


@cache
def _board_order(seats: int, entrants: int) -> tuple[tuple[int, ...], ...]:
    """The entrants of each game of one board, in order."""
    if seats == 1:
        return tuple((e,) for e in range(1, entrants + 1))
    circle: list[int | None] = list(range(1, entrants + 1))
    if len(circle) % 2:
        circle.append(None)  # sits out
    size = len(circle)
    rounds: list[list[tuple[int, int]]] = []
    for _ in range(size - 1):
        pairs = []
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b))
        rounds.append(pairs)
        # The first stays; the others turn one place.
        circle = [circle[0], circle[-1], *circle[1:-1]]
    first_leg = [pair for pairs in rounds for pair in pairs]
    return tuple(first_leg + [(b, a) for a, b in first_leg])


def fixture(*, number: int, seats: int, boards: int, entrants: int) -> Fixture:
    """Game ``number`` of the schedule (1..games_count)."""
    order = _board_order(seats, entrants)
    board, index = divmod(number - 1, len(order))
    if not 0 <= board < boards:
        raise ValueError(f"the schedule has no game {number}")
    return Fixture(number, board + 1, order[index])


def schedule(*, seats: int, boards: int, entrants: int) -> list[Fixture]:
    """Every game of the schedule, in order."""
    order = _board_order(seats, entrants)
    return [
        Fixture(board * len(order) + index + 1, board + 1, playing)
        for board in range(boards)
        for index, playing in enumerate(order)
    ]
