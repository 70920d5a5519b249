"""Workers racing for the same scores, with real threads on PostgreSQL: each score is
taken by one of them and sent once; two roster syncs of one course at once add each
learner once."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from games.courses import passback, roster
from games.models import LtiLearner, Student
from tests.conftest import postgres_only
from tests.lms import Platform
from tests.lti.course import close, linked_course, played, tool_registered

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def race(count: int, work: Callable[[], object]) -> list:
    barrier = threading.Barrier(count)
    answers: list = []

    def run() -> None:
        try:
            barrier.wait()
            answers.append(work())
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_racing_workers_send_each_score_once(lms: Platform):
    linked = linked_course(lms, tool_registered(lms), lms.course("c1", "Maths"))
    for n in range(30):
        user = lms.user(f"u{n}", f"Learner {n}")
        linked.course.enrol(user, "Learner")
        linked.launched(user)
    link = lms.link(linked.course, "week-1")
    work = linked.assignment(link, grade="completion", games=1)
    played(work, linked.learners["u0"], (200, None))
    close(work)

    taken = race(4, lambda: passback.scores_send(most=10))

    assert sum(taken) == 30
    assert passback.run_due() == 0
    users = sorted(s.body["userId"] for s in lms.scores_for(link))
    assert users == sorted(f"u{n}" for n in range(30))


def test_racing_syncs_add_each_learner_once(lms: Platform):
    linked = linked_course(lms, tool_registered(lms), lms.course("c1", "Maths"))
    for n in range(6):
        linked.course.enrol(lms.user(f"u{n}", "Same Name"), "Learner")
    classroom = linked.lti_course.classroom

    synced = race(3, lambda: roster.lti_roster_sync(classroom=classroom))

    assert sum(s.added for s in synced) == 6
    assert LtiLearner.objects.count() == Student.objects.count() == 6
    assert len(set(Student.objects.values_list("name", flat=True))) == 6
