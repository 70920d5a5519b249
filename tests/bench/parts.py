"""The processor time of a move's small parts, each timed alone in a loop, in this process.

    .venv/bin/python -m tests.bench.parts [--times 3000]
    DATABASE_URL=postgres://... .venv/bin/python -m tests.bench.parts   # and a round trip

Prints, in microseconds: parsing and validating each move's body (``CommandIn``), copying a
game's state as a move does (``scoring.ruleset.copied``) against ``copy.deepcopy``,
resolving a move's URL; and, on PostgreSQL, the driver's cost of one round trip (a move's
lock and read of a game and its seats, ``games.db.rows.run``), split into user and system
time, the kernel's work on the socket being the system part. These are the figures that
``tests/bench/move_profile.py --layers`` adds up, small enough that a whole served move,
on this shared machine, drifts by more than any one of them.
"""

import argparse
import copy
import os
import resource
import time
import timeit
from collections.abc import Callable
from functools import partial
from typing import Any


def cpu_us(function: Callable[[], Any], times: int) -> float:
    """The processor time of one call, in µs, over ``times`` calls."""
    return 1e6 * timeit.timeit(function, number=times, timer=time.process_time) / times


def split_us(function: Callable[[], Any], times: int) -> tuple[float, float]:
    """User and system time of one call, in µs, over ``times`` calls."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    for _ in range(times):
        function()
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (1e6 * (after.ru_utime - before.ru_utime) / times,
            1e6 * (after.ru_stime - before.ru_stime) / times)


def parsed(body_class: Any, data: dict[str, Any]) -> Any:
    body = body_class(data=data)
    body.is_valid(raise_exception=True)
    return body.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--times", type=int, default=3000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.urls import resolve

    from games.api.games.requests import HoldIn, RollIn, ScoreBoxIn
    from scoring.registry import get_ruleset
    from scoring.ruleset import copied

    n = args.times
    for label, body_class, data in [
        ("roll {}", RollIn, {}), ("roll keeping two", RollIn, {"hold": [0, 1]}),
        ("hold three", HoldIn, {"hold": [0, 1, 2]}), ("score", ScoreBoxIn, {"category": "chance"}),
    ]:
        spent = cpu_us(partial(parsed, body_class, data), n)
        print(f"body parsed, {label:<20} {spent:7.1f} µs")
    for seats in (1, 4):
        state = get_ruleset("yahtzee").new_state(seats=seats, options={})
        ours, general = cpu_us(partial(copied, state), n), cpu_us(partial(copy.deepcopy, state), n)
        print(f"state of {seats} seat(s) copied       {ours:7.1f} µs"
              f" (copy.deepcopy: {general:.1f} µs)")
    path = "/api/v1/games/3fa85f64-5717-4562-b3fc-2c963f66afa6/roll/"
    print(f"a move's URL resolved            {cpu_us(partial(resolve, path), n):7.1f} µs")
    if connection.vendor == "postgresql":
        round_trip(n)


def round_trip(times: int) -> None:
    """A move's lock and read, without the lock: one round trip of two statements."""
    import uuid

    from games.db import rows
    from games.models import Game, Player

    key = uuid.uuid4()  # no such game: the statements run, they find nothing
    statements = [rows.select(Game, "id = %s", [key]), rows.select(Player, "game_id = %s", [key])]
    rows.run(statements)
    user, system = split_us(lambda: rows.run(statements), times)
    print(f"one round trip of two reads      {user + system:7.1f} µs"
          f" ({user:.1f} user, {system:.1f} system)")


if __name__ == "__main__":
    main()
