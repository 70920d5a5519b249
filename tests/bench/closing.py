"""An assignment of many open games closing while a teacher reads: how long the worker's
closing takes, and how long the reads wait meanwhile.

    DATABASE_URL=postgres://... .venv/bin/python -m tests.bench.closing [--students 300]

Makes a database of its own (Django's test database of the configured one, dropped at the
end), a classroom of ``--students`` students, each with game 1 of an assignment started and
rolled once (so every game is still open), then moves the deadline to now. While another
process reads the roster, the class's games and the public game list in a loop, through
Django's test client (as a server would, apart from the worker), the worker's sweep closes
the assignment (``games.work.sweeps``). Prints the closing's time and the reads' median and
slowest. ``--profile`` profiles the closing instead, with no reads.
"""

import argparse
import datetime as dt
import multiprocessing
import os
import statistics
import time
from typing import Any

import django


def fill(client, students: int) -> tuple[dict, dict]:
    """The classroom and its assignment, with every student's game 1 started and rolled."""
    from django.utils import timezone

    room = client.post("/api/v1/classrooms/", {"name": "big"}, format="json").json()
    keys = [
        client.post("/api/v1/classrooms/join/", {"join_code": room["join_code"],
                                                 "name": f"S{i}"}, format="json").json()["api_key"]
        for i in range(students)
    ]
    due = (timezone.now() + dt.timedelta(days=1)).isoformat()
    work = client.post(f"/api/v1/classrooms/{room['id']}/assignments/",
                       {"title": "W", "ruleset": "yatzy", "games": 1, "due_at": due},
                       format="json", HTTP_X_API_KEY=room["teacher_key"]).json()
    for key in keys:
        game = client.post(f"/api/v1/classrooms/{room['id']}/assignments/{work['id']}/games/",
                           {}, format="json", HTTP_X_API_KEY=key).json()
        client.post(f"/api/v1/games/{game['id']}/roll/", {}, format="json",
                    HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}")
    return room, work


def read_meanwhile(database: str, room: dict, stop: Any, found: Any) -> None:
    """Reads until ``stop`` is set, then puts the waits in ``found`` (in a process of its own,
    on the ``database`` made for the run)."""
    _setup()
    from django.db import connection
    from rest_framework.test import APIClient

    connection.settings_dict["NAME"] = database

    client = APIClient()
    teacher = {"HTTP_X_API_KEY": room["teacher_key"]}
    reads = [(f"/api/v1/classrooms/{room['id']}/", teacher),
             (f"/api/v1/classrooms/{room['id']}/games/", teacher), ("/api/v1/games/", {})]
    waits = []
    while not stop.is_set():
        for path, headers in reads:
            started = time.perf_counter()
            assert client.get(path, **headers).status_code == 200
            waits.append(time.perf_counter() - started)
    found.put(waits)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    for limit in ("THROTTLE_CREATE", "THROTTLE_MOVES", "THROTTLE_CLASSROOMS"):
        os.environ[limit] = ""  # one address makes the whole class
    django.setup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="profile the closing, no reads")
    args = parser.parse_args()
    _setup()
    from django.db import connection
    from django.utils import timezone

    if connection.vendor != "postgresql":
        raise SystemExit("needs DATABASE_URL=postgres://...: the reader is another process")
    from rest_framework.test import APIClient

    from games.models import Assignment, Game
    from games.work.sweeps import Sweeps

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        room, work = fill(APIClient(), args.students)
        now = timezone.now()
        Assignment.objects.filter(pk=work["id"]).update(due_at=now)
        Game.objects.filter(assignment_id=work["id"]).update(due_at=now)
        waits: list[float] = []
        spawned = multiprocessing.get_context("spawn")
        stop, found = spawned.Event(), spawned.Queue()
        database = connection.settings_dict["NAME"]
        reader = spawned.Process(target=read_meanwhile, args=(database, room, stop, found))
        if args.profile:
            import cProfile
            import pstats

            profile = cProfile.Profile()
            started = time.perf_counter()
            profile.runcall(Sweeps().run)
            took = time.perf_counter() - started
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
            waits.append(0.0)
        else:
            reader.start()
            time.sleep(3)  # the reader has started and is reading
            started = time.perf_counter()
            Sweeps().run()
            took = time.perf_counter() - started
            time.sleep(0.5)
            stop.set()
            waits = found.get(timeout=60)
            reader.join()
        abandoned = Game.objects.filter(assignment_id=work["id"], status="abandoned").count()
        print(f"{connection.vendor}: closing {abandoned} open games took {took:.2f} s; "
              f"{len(waits)} reads meanwhile: median {statistics.median(waits) * 1000:.0f} ms, "
              f"slowest {max(waits) * 1000:.0f} ms")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"reproduce: [DATABASE_URL=...] .venv/bin/python -m tests.bench.closing "
          f"--students {args.students}")


if __name__ == "__main__":
    main()
