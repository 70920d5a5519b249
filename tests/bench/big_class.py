"""A big class's results and roster: the time and the queries of one request.

    .venv/bin/python -m tests.bench.big_class [--students 300] [--games 20] [--runs 5]
    DATABASE_URL=postgres://... .venv/bin/python -m tests.bench.big_class

Makes a database of its own (Django's test database of the configured one, dropped at the
end), a classroom of ``--students`` students and an assignment of ``--games`` games that
every student has finished, with each game's figures kept as a worker keeps them once
the game has finished (``games.classrooms.figures``). Then asks, in-process through Django's test
client with the teacher's key, ``--runs`` times each: the results as JSON, the results as
CSV, and the classroom with its roster. Prints, per request, the queries (calls to the
database) and the fastest, median and slowest time.
"""

import argparse
import os
import random
import statistics
import time
from datetime import timedelta

import django


def fill(students: int, games: int) -> tuple[str, str, str]:
    """The classroom, its assignment and the teacher key, with every game finished."""
    from django.utils import timezone

    from games.classrooms.services import classroom_create
    from games.models import Assignment, Game, Player, Student

    opened = classroom_create(name="Big class")
    room = opened.classroom
    now = timezone.now()
    work = Assignment.objects.create(
        classroom=room, title="Week 3", ruleset="yahtzee", options={}, games=games,
        opens_at=now - timedelta(days=1), due_at=now + timedelta(days=1),
        secrets=["00" * 32] * games,
    )
    pupils = Student.objects.bulk_create(
        Student(classroom=room, name=f"Student {i:03}", name_key=f"student {i:03}")
        for i in range(students)
    )
    rng = random.Random(26)
    rows = [
        Game(
            ruleset="yahtzee", status="finished", ranked=False, classroom=room, student=pupil,
            assignment=work, assignment_game=k, due_at=work.due_at, finished_at=now,
            dice_secret="00" * 32, client_seed=f"game-{k}", dice_sealed=True,
            figures_kept=True,
        )
        for pupil in pupils
        for k in range(1, games + 1)
    ]
    Game.objects.bulk_create(rows, batch_size=1000)
    Player.objects.bulk_create(
        (
            Player(game=game, seat=0, name=game.student.name, total=rng.randint(120, 320),
                   accuracy=round(rng.uniform(70, 100), 2))
            for game in rows
        ),
        batch_size=1000,
    )
    return str(room.id), str(work.id), opened.teacher_key


def measure(path: str, key: str, runs: int, **headers: str) -> tuple[int, list[float], int]:
    """The queries of the first request, every request's seconds, and the answer's size."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client, seconds, queries, size = Client(), [], 0, 0
    for run in range(runs):
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            answer = client.get(path, HTTP_X_API_KEY=key, **headers)
            seconds.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.content[:500]
        if run == 0:
            queries, size = len(captured), len(answer.content)
    return queries, seconds, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["THROTTLE_ADVICE"] = ""  # one address asks over and over
    django.setup()
    from django.db import connection

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        started = time.perf_counter()
        room, work, key = fill(args.students, args.games)
        made = time.perf_counter() - started
        print(f"{connection.vendor}: {args.students} students x {args.games} finished games "
              f"made in {made:.1f} s")
        results = f"/api/v1/classrooms/{room}/assignments/{work}/results/"
        asked = {
            "results (JSON)": (results, {}),
            "results (CSV)": (results, {"HTTP_ACCEPT": "text/csv"}),
            "classroom with its roster": (f"/api/v1/classrooms/{room}/", {}),
        }
        for name, (path, headers) in asked.items():
            queries, seconds, size = measure(path, key, args.runs, **headers)
            print(f"{name}: {queries} queries, {size} bytes; seconds over {args.runs} runs: "
                  f"fastest {min(seconds):.3f}, median {statistics.median(seconds):.3f}, "
                  f"slowest {max(seconds):.3f}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print("reproduce: [DATABASE_URL=...] .venv/bin/python -m tests.bench.big_class "
          f"--students {args.students} --games {args.games} --runs {args.runs}")


if __name__ == "__main__":
    main()
