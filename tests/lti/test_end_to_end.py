"""A course, end to end against the LMS stand-in: the instructor adds an assignment by deep
linking (the platform checks the tool's signed answer and makes the graded link), learners
launch it through the platform's OIDC login, the roster sync brings in a learner who never
launched, and once the assignment closes every learner gets one score on the line item the
platform made, its query kept."""

import datetime as dt
import io
import re
import urllib.parse
import urllib.request
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games.classrooms.assignments import assignment_close
from games.courses import passback
from games.lti.keys import tool_jwks
from games.models import Assignment, Game, LtiLearner, Player
from scoring.match import GameStatus
from tests.lms import Course, Link, Platform, User

pytestmark = pytest.mark.django_db
TOOL = "http://testserver/lti/"


def launch(lms: Platform, client: Client, user: User, course: Course, link: Link | None) -> Any:
    """The platform's login initiation, the tool's login, the platform's authorization and
    the form POST of the signed launch, each as the browser would send it."""
    started = lms.prepare(user, course, link)
    login = client.post("/lti/login/", {**lms.login_initiation(started), "lti1p3_new_window": "1"})
    assert login.status_code == 302, login.content[:500]
    location = urllib.parse.urlsplit(login["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == lms.url("/auth")
    params = {k: v[0] for k, v in urllib.parse.parse_qs(location.query).items()}
    action, fields = lms.authorize(params)
    return client.post(urllib.parse.urlsplit(action).path, fields)


def field(answer: Any, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"'.encode(), answer.content)
    assert found, answer.content[:1500]
    return found.group(1).decode()


@pytest.fixture
def course(lms: Platform) -> Course:
    call_command("lti_register", *lms.register_args(), stdout=io.StringIO())
    lms.tool(login_url=TOOL + "login/", launch_url=TOOL + "launch/", keyset=tool_jwks())
    made = lms.course("maths-5b", "Maths 5B")
    made.enrol(lms.user("teach", "Tina Teach"), "Instructor")
    for sub, name in (("ann", "Ann Lee"), ("ben", "Ben Ng"), ("cleo", "Cleo Ray")):
        made.enrol(lms.user(sub, name), "Learner")
    return made


def test_deep_link_launch_sync_close_and_one_score_each(lms: Platform, course: Course):
    teacher = Client()
    form = launch(lms, teacher, lms.users["teach"], course, None)
    assert form.status_code == 200, form.content[:1500]
    due = (dt.datetime.now(dt.UTC) + dt.timedelta(days=1)).replace(second=0, microsecond=0)
    answer = teacher.post("/lti/deep-link/", {
        "context": field(form, "context"), "title": "Week 3", "ruleset": "yahtzee",
        "games": "1", "due_at": due.strftime("%Y-%m-%dT%H:%M"), "tz_offset": "0",
        "grade": "rank",
    })
    assert answer.status_code == 200, answer.content[:1500]
    returned = urllib.request.urlopen(lms.url("/deep-link-return"), urllib.parse.urlencode(
        {"JWT": field(answer, "JWT")}).encode())
    assert returned.status == 200 and lms.refusals == []
    [link] = [x for x in course.links.values() if x.title == "Week 3"]
    assert link.line_item is not None and link.line_item.score_maximum == 100

    for sub in ("ann", "ben"):
        browser = Client()
        entered = launch(lms, browser, lms.users[sub], course, link)
        went = browser.post("/lti/continue/", {"ticket": field(entered, "ticket")})
        assert went.status_code == 200 and b'href="/play/' in went.content, went.content[:800]
    assignment = Assignment.objects.get(title="Week 3")
    assert assignment.grade == "rank"
    for sub, total in (("ann", 250), ("ben", 200)):
        student = LtiLearner.objects.get(user__sub=sub).student_id
        game = Game.objects.get(assignment=assignment, student_id=student)
        Game.objects.filter(pk=game.pk).update(status=GameStatus.FINISHED, figures_kept=True,
                                               finished_at=timezone.now())
        Player.objects.filter(game=game, seat=0).update(total=total)

    # The instructor opens the link: /teach/, signed in by the launch's session.
    opened = launch(lms, teacher, lms.users["teach"], course, link)
    went = teacher.post("/lti/continue/", {"ticket": field(opened, "ticket")})
    assert went.status_code == 303 and went["Location"] == "/teach/"
    synced = teacher.post(  # Django's test client passes the CSRF check
        f"/api/v1/classrooms/{assignment.classroom_id}/lti-sync/", {},
        content_type="application/json",
    )
    assert synced.status_code == 200, synced.content[:500]
    assert synced.json()["added"] == 1  # Cleo, who never launched; never the instructor

    assert passback.run_due() == 0 and lms.scores_for(link) == []
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now())
    Game.objects.filter(assignment=assignment).update(due_at=timezone.now())
    assignment_close(assignment_id=assignment.id)
    assert passback.run_due() == 3
    scores = {s.body["userId"]: s for s in lms.scores_for(link)}
    assert len(scores) == len(lms.scores_for(link)) == 3
    assert {u: s.body["scoreGiven"] for u, s in scores.items()} == {
        "ann": 100.0, "ben": 50.0, "cleo": 0.0
    }
    assert all(s.query == link.line_item.query for s in scores.values())
    assert scores["ann"].body["activityProgress"] == "Completed"
    assert scores["cleo"].body["comment"] == "No game finished (0 of 1)."
