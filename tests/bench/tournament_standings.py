"""What a tournament's standings cost to work out, at the largest sizes a tournament takes:
the plain-Python part of each read of a tournament or its standings (points, ranks and the
openskill ratings over every finished game), without the database.

    .venv/bin/python -m tests.bench.tournament_standings [--runs 5]

Prints, per schedule, the games, and the fastest, median and slowest time of ``--runs``.
"""

import argparse
import random
import statistics
import time

from games.tournaments.plan import schedule
from games.tournaments.standings import Finished, standings

SIZES = [  # (seats, boards, entrants): the largest round robins and field under 10,000 games
    (2, 2, 64),
    (2, 3, 58),
    (1, 50, 64),
]


def finished(seats: int, boards: int, entrants: int) -> list[Finished]:
    chance = random.Random(7)
    return [
        Finished(
            number=f.number, board=f.board, entrants=f.entrants,
            totals=tuple(chance.randint(120, 320) for _ in f.entrants),
            accuracy=tuple(chance.uniform(50, 100) for _ in f.entrants),
        )
        for f in schedule(seats=seats, boards=boards, entrants=entrants)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    print("    .venv/bin/python -m tests.bench.tournament_standings --runs", runs)
    for seats, boards, entrants in SIZES:
        games = finished(seats, boards, entrants)
        names = {e: f"bot {e}" for e in range(1, entrants + 1)}
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            standings(seats=seats, names=names, games=games, timeouts={}, rated=True)
            times.append(time.perf_counter() - start)
        print(
            f"seats {seats}, {boards} boards, {entrants} entrants: {len(games)} games, "
            f"fastest {min(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} "
            f"ms, slowest {max(times) * 1000:.0f} ms"
        )


if __name__ == "__main__":
    main()
