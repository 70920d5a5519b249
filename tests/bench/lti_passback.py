"""Grades sent to a learning platform: how long after an assignment's closing the worker's
passback thread has sent every learner's score to the LMS stand-in (``tests/lms/``), and
how long after the platform's return when it answered 503 at the closing.

    DATABASE_URL=postgres://... .venv/bin/python -m tests.bench.lti_passback [--learners 300]

Makes a database of its own (Django's test database of the configured one, dropped at the
end), a platform course of ``--learners`` learners linked to a classroom, two assignments
linked from the course, and runs the passback thread (``games.work.passback``) as a worker
does. The first assignment closes with the platform up; the second with the platform
answering 503, which comes back after ``--away`` seconds. Prints the times and how many
scores the platform holds per learner (one each, or it says so).
"""

import argparse
import os
import threading
import time
from collections import Counter

import django


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()


def waited(check, most: float) -> float:
    started = time.perf_counter()
    while not check():
        if time.perf_counter() - started > most:
            raise SystemExit(f"not done in {most:.0f} s")
        time.sleep(0.02)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--away", type=float, default=20.0)
    parser.add_argument("--profile", action="store_true",
                        help="profile sending the first assignment's scores, in this thread")
    args = parser.parse_args()
    _setup()
    from django.db import connection

    from games.work.passback import Passback
    from tests.lms import running_platform
    from tests.lti.course import close, linked_course, tool_registered

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    stop = threading.Event()
    try:
        with running_platform() as lms:
            linked = linked_course(lms, tool_registered(lms), lms.course("bench", "Bench"))
            for n in range(args.learners):
                user = lms.user(f"u{n}", f"Learner {n}")
                linked.course.enrol(user, "Learner")
                linked.launched(user)
            links = [lms.link(linked.course, f"w{k}", f"Week {k}") for k in (1, 2)]
            works = [linked.assignment(link, grade="completion", games=1) for link in links]
            if args.profile:
                import cProfile
                import pstats

                from games.courses import passback

                close(works[0])
                profile = cProfile.Profile()
                profile.runcall(passback.run_due)
                pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
                return
            worker = Passback(stop, interval=0.5)
            worker.start()

            close(works[0])
            first = waited(lambda: len(lms.scores_for(links[0])) >= 1, 60)
            every = waited(lambda: len(lms.scores_for(links[0])) >= args.learners, 120) + first

            lms.away("503")
            close(works[1])
            time.sleep(args.away)
            refused = lms.answered_away
            lms.back()
            back = waited(lambda: len(lms.scores_for(links[1])) >= args.learners, 120)
            time.sleep(1)
            stop.set()
            worker.join(timeout=15)
            per_learner = Counter(s.body["userId"] for s in lms.scores)
            once = all(count == 2 for count in per_learner.values())
            print(f"{connection.vendor}, {args.learners} learners: first score {first:.2f} s "
                  f"after the closing, all {every:.2f} s after it; platform away "
                  f"{args.away:.0f} s ({refused} requests answered 503), all sent "
                  f"{back:.2f} s after its return; one score per learner per link: {once}")
    finally:
        stop.set()
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    print(f"reproduce: [DATABASE_URL=...] .venv/bin/python -m tests.bench.lti_passback "
          f"--learners {args.learners} --away {args.away:.0f}")


if __name__ == "__main__":
    main()
