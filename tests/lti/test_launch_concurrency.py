"""First launches of one course at once, on PostgreSQL with real threads: one classroom for
the course, and learners of one name each kept under a name of their own."""

import threading

import pytest
from django.db import connection
from django.test import Client

from games.models import Classroom, LtiCourse, Student
from tests.conftest import postgres_only
from tests.lti.platform import INSTRUCTOR, LEARNER, Platform

THREADS = 6


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_first_launches_of_one_course_at_once_make_one_classroom() -> None:
    platform = Platform()
    platform.register()
    ready: list[tuple[Client, dict[str, str], str]] = []
    for n in range(THREADS):
        client = Client()
        sent = platform.login(client)
        roles = (INSTRUCTOR,) if n == 0 else (LEARNER,)
        claims = platform.claims(nonce=sent["nonce"], sub=f"user-{n}", name="Ann", roles=roles)
        ready.append((client, sent, platform.sign(claims)))
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []

    def launch(client: Client, sent: dict[str, str], token: str) -> None:
        try:
            barrier.wait()
            answer = client.post("/lti/launch/", {"id_token": token, "state": sent["state"]})
            statuses.append(answer.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=launch, args=args) for args in ready]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * THREADS
    assert Classroom.objects.count() == 1 and LtiCourse.objects.count() == 1
    names = sorted(Student.objects.values_list("name", flat=True))
    assert names == ["Ann"] + [f"Ann ({n})" for n in range(2, THREADS)]
