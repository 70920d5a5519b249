"""Launches from a platform: a course becomes a classroom, an instructor its teacher, a
learner its student; the browser is signed in through the launch's ticket."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client, override_settings

from games.models import Classroom, LtiCourse, LtiLearner, Student
from tests.lti.platform import INSTRUCTOR, Platform

pytestmark = pytest.mark.django_db


@pytest.fixture
def platform() -> Platform:
    made = Platform()
    made.register()
    return made


def ticket_of(answer) -> str:
    found = re.search(rb'name="ticket" value="([^"]+)"', answer.content)
    assert found, answer.content[:800]
    return found.group(1).decode()


def test_instructor_lands_on_teach_signed_in(platform: Platform) -> None:
    client = Client()
    answer = platform.launch(client, roles=(INSTRUCTOR,))
    assert answer.status_code == 200
    classroom = Classroom.objects.get()
    assert classroom.name == "Maths 5B"
    went = client.post("/lti/continue/", {"ticket": ticket_of(answer)})
    assert went.status_code == 303 and went["Location"] == "/teach/"
    me = client.get("/api/v1/me/")
    assert me.status_code == 200, me.content
    assert me.json()["role"] == "teacher"
    assert me.json()["classroom"]["id"] == str(classroom.id)


def test_learner_is_a_student_of_the_courses_classroom(platform: Platform) -> None:
    platform.launch(Client(), roles=(INSTRUCTOR,), sub="teacher-1")
    client = Client()
    answer = platform.launch(client, sub="learner-1", name="Ann")
    went = client.post("/lti/continue/", {"ticket": ticket_of(answer)})
    assert went["Location"] == "/play/"
    me = client.get("/api/v1/me/").json()
    assert me["role"] == "student" and me["student"]["name"] == "Ann"
    assert Classroom.objects.count() == 1
    again = platform.launch(Client(), sub="learner-1", name="Ann")
    assert again.status_code == 200
    assert Student.objects.count() == 1


def test_two_learners_with_one_name_are_both_kept(platform: Platform) -> None:
    platform.launch(Client(), sub="a", name="Ann")
    platform.launch(Client(), sub="b", name="ann")
    names = sorted(Student.objects.values_list("name", flat=True))
    assert names == ["Ann", "ann (2)"]
    assert LtiLearner.objects.count() == 2


def test_a_ticket_works_once(platform: Platform) -> None:
    client = Client()
    ticket = ticket_of(platform.launch(client))
    assert client.post("/lti/continue/", {"ticket": ticket}).status_code == 303
    again = Client().post("/lti/continue/", {"ticket": ticket})
    assert again.status_code == 403
    assert b"lti_replayed" in again.content


def test_launch_by_get(platform: Platform) -> None:
    answer = platform.launch(Client(), method="get", roles=(INSTRUCTOR,))
    assert answer.status_code == 200, answer.content[:500]
    assert LtiCourse.objects.count() == 1


def test_one_context_id_in_two_deployments_is_two_classrooms() -> None:
    platform = Platform()
    platform.register("dep-1", "dep-2")
    platform.launch(Client(), roles=(INSTRUCTOR,))
    platform.deployment = "dep-2"
    platform.launch(Client(), roles=(INSTRUCTOR,))
    other = Platform(issuer="https://other.test", client_id="tool-client")
    other.register("dep-1")
    other.launch(Client(), roles=(INSTRUCTOR,))
    assert Classroom.objects.count() == 3


def test_session_changes_need_the_csrf_token(platform: Platform) -> None:
    client = Client(enforce_csrf_checks=True)
    answer = platform.launch(client, roles=(INSTRUCTOR,))
    client.post("/lti/continue/", {"ticket": ticket_of(answer)})
    classroom = Classroom.objects.get()
    path = f"/api/v1/classrooms/{classroom.id}/"
    body = {"quota": {"games_per_hour": 10}}
    refused = client.patch(path, body, content_type="application/json")
    assert refused.status_code == 403
    token = client.cookies["csrftoken"].value
    done = client.patch(path, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert done.status_code == 200, done.content


def test_learner_session_is_no_teacher(platform: Platform) -> None:
    client = Client()
    client.post("/lti/continue/", {"ticket": ticket_of(platform.launch(client))})
    classroom = Classroom.objects.get()
    assert client.get(f"/api/v1/classrooms/{classroom.id}/").status_code == 403


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_over_https_the_login_state_survives_a_cross_site_post(platform: Platform) -> None:
    """Behind a TLS proxy the state cookie is SameSite=None and Secure: the platform's
    cross-site form post brings it back."""
    answer = Client().post(
        "/lti/login/",
        {
            "iss": platform.issuer, "login_hint": "hint", "client_id": platform.client_id,
            "target_link_uri": "https://testserver/lti/launch/", "lti1p3_new_window": "1",
            "lti_deployment_id": platform.deployment,
        },
        HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="testserver",
    )
    assert answer.status_code == 302
    sent = parse_qs(urlsplit(answer["Location"]).query)
    assert sent["redirect_uri"] == ["https://testserver/lti/launch/"]
    state = [c for name, c in answer.cookies.items() if name.startswith("lti1p3-state")]
    assert state and state[0]["samesite"] == "None" and state[0]["secure"]
