"""The worker's passback thread, on its own: the scores of an assignment go within seconds
of its closing, and those of a platform that went away go within seconds of its return,
each learner's once."""

import threading
import time

import pytest

from games.work.passback import Passback
from tests.conftest import postgres_only
from tests.lms import Platform
from tests.lti.course import close, linked_course, played, tool_registered

# The worker's sending thread and the test write at once: PostgreSQL, as deployed. The
# suite's SQLite database is Django's in-memory one in shared-cache mode, where two threads
# writing at once meet "database table is locked" (SQLITE_LOCKED, which no busy timeout
# waits out); the service's own SQLite file (WAL, a busy timeout) has no such lock, and
# tests/live/test_lti_live.py runs the worker's passback on it.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, postgres_only]


def waited(check, seconds: float) -> float:
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, "not done in time"
        time.sleep(0.05)
    return time.monotonic() - start


def test_scores_go_soon_after_the_closing_and_soon_after_the_platform_returns(lms: Platform):
    linked = linked_course(lms, tool_registered(lms), lms.course("c1", "Maths"))
    for sub in ("ann", "ben", "cleo", "dan"):
        user = lms.user(sub, sub.title())
        linked.course.enrol(user, "Learner")
        linked.launched(user)
    first = lms.link(linked.course, "week-1")
    second = lms.link(linked.course, "week-2")
    works = [linked.assignment(link, grade="completion", games=1) for link in (first, second)]
    played(works[0], linked.learners["ann"], (200, None))
    stop = threading.Event()
    worker = Passback(stop, interval=0.05)
    worker.start()
    try:
        close(works[0])
        assert waited(lambda: len(lms.scores_for(first)) == 4, 10) < 5

        lms.away("503")
        close(works[1])
        waited(lambda: lms.answered_away >= 2, 10)  # tried twice, refused
        lms.back()
        assert waited(lambda: len(lms.scores_for(second)) == 4, 40) < 35
        time.sleep(0.3)
    finally:
        stop.set()
        worker.join(timeout=10)
    assert sorted(s.body["userId"] for s in lms.scores_for(first)) == ["ann", "ben", "cleo", "dan"]
    assert sorted(s.body["userId"] for s in lms.scores_for(second)) == [
        "ann", "ben", "cleo", "dan"
    ]
    assert [s.body["scoreGiven"] for s in lms.scores_for(first)
            if s.body["userId"] == "ann"] == [100.0]
