"""Grades: when an assignment a platform's course links to closes (never before), each of
the course's learners gets exactly one score on the link's line item, as the assignment's
grade mode makes it; sending is retried while the platform is away or refuses and done once
it is back; the teacher sees each learner's passback status."""

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.courses import passback
from games.models import Assignment, LtiScore
from tests.lms import Platform
from tests.lti.course import Linked, close, linked_course, played, tool_registered

pytestmark = pytest.mark.django_db
SCORE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"


@pytest.fixture
def linked(lms: Platform) -> Linked:
    registration = tool_registered(lms)
    linked = linked_course(lms, registration, lms.course("maths-5b", "Maths 5B"))
    for sub, name in (("ann", "Ann Lee"), ("ben", "Ben Ng"), ("cleo", "Cleo Ray")):
        user = lms.user(sub, name)
        linked.course.enrol(user, "Learner")
        linked.launched(user)
    return linked


def graded(linked: Linked, grade: str) -> tuple[Assignment, object]:
    link = linked.lms.link(linked.course, "week-3", "Week 3")
    work = linked.assignment(link, grade=grade)
    learners = linked.learners
    played(work, learners["ann"], (250, 80.0), (230, 90.0))
    played(work, learners["ben"], (200, 70.0), (-1, None))
    return work, link


def sent(lms: Platform, link) -> dict[str, dict]:
    scores = lms.scores_for(link)
    by_user = {s.body["userId"]: s.body for s in scores}
    assert len(by_user) == len(scores), "a learner got more than one score"
    return by_user


def results(linked: Linked, work: Assignment) -> dict[str, dict]:
    answer = APIClient().get(
        f"/api/v1/classrooms/{linked.classroom_id}/assignments/{work.id}/results/",
        HTTP_X_API_KEY=linked.teacher_key,
    )
    return {row["student"]["name"]: row for row in answer.json()["students"]}


def test_accuracy_grades_go_once_the_assignment_closes_and_never_before(linked: Linked):
    work, link = graded(linked, "accuracy")
    assert passback.run_due() == 0 and linked.lms.scores_for(link) == []

    close(work)
    assert passback.run_due() == 3

    scores = sent(linked.lms, link)
    closed_at = Assignment.objects.get(pk=work.pk).closed_at
    assert scores["ann"] == {
        "userId": "ann", "scoreGiven": 85.0, "scoreMaximum": 100,
        "activityProgress": "Completed", "gradingProgress": "FullyGraded",
        "comment": "Mean score 240 over 2 of 2 games finished.",
        "timestamp": closed_at.isoformat(),
    }
    assert scores["ben"]["scoreGiven"] == 70.0
    assert scores["ben"]["activityProgress"] == "InProgress"
    assert scores["cleo"]["scoreGiven"] == 0 and scores["cleo"]["activityProgress"] == "InProgress"
    assert scores["cleo"]["comment"] == "No game finished (0 of 2)."
    for score in linked.lms.scores_for(link):
        assert score.query == link.line_item.query  # the line item's URL kept whole
        assert score.content_type == "application/vnd.ims.lis.v1.score+json"
        assert score.scopes == [SCORE]
    # Done is done: nothing is sent again, however often the work runs or the closing.
    close(work)
    assert passback.run_due() == 0 and len(linked.lms.scores_for(link)) == 3


@pytest.mark.parametrize(
    ("grade", "expected"),
    [
        ("completion", {"ann": 100.0, "ben": 50.0, "cleo": 0.0}),
        ("rank", {"ann": 100.0, "ben": 50.0, "cleo": 0.0}),
    ],
)
def test_each_grade_mode_makes_its_score(linked: Linked, grade: str, expected: dict):
    work, link = graded(linked, grade)
    close(work)
    passback.run_due()
    assert {user: s["scoreGiven"] for user, s in sent(linked.lms, link).items()} == expected


def test_rank_counts_the_students_ranked(linked: Linked):
    lms = linked.lms
    dan = lms.user("dan", "Dan Oh")
    linked.course.enrol(dan, "Learner")
    linked.launched(dan)
    link = lms.link(linked.course, "week-4", "Week 4")
    work = linked.assignment(link, grade="rank", games=1)
    for sub, total in (("ann", 250), ("ben", 200), ("cleo", 150)):
        played(work, linked.learners[sub], (total, None))
    close(work)
    passback.run_due()
    assert {u: s["scoreGiven"] for u, s in sent(lms, link).items()} == {
        "ann": 100.0, "ben": 66.67, "cleo": 33.33, "dan": 0.0
    }


@pytest.mark.parametrize("how", ["refuse", "503"])
def test_a_platform_away_gets_every_score_once_it_is_back(linked: Linked, how: str):
    work, link = graded(linked, "completion")
    linked.lms.away(how)
    close(work)
    passback.run_due()
    rows = results(linked, work)
    assert {r["passback"]["status"] for r in rows.values()} == {"retrying"}
    assert rows["Ann Lee"]["passback"]["error"]
    # The next try waits a little.
    waiting = LtiScore.objects.filter(link__assignment=work)
    assert all(s.next_attempt_at > s.created_at for s in waiting)
    due_again(work)
    passback.run_due()
    assert LtiScore.objects.filter(attempts=2).count() == 3

    linked.lms.back()
    due_again(work)
    assert passback.run_due() == 3
    assert set(sent(linked.lms, link)) == {"ann", "ben", "cleo"}
    rows = results(linked, work)
    assert rows["Ann Lee"]["passback"] == {
        "status": "sent", "attempts": 3, "score": 100.0,
        "sent_at": rows["Ann Lee"]["passback"]["sent_at"], "error": "",
    }


def test_a_learner_the_platform_refuses_holds_up_no_other(linked: Linked):
    work, link = graded(linked, "completion")
    linked.lms.refused_users = {"ann"}
    close(work)
    passback.run_due()
    assert set(sent(linked.lms, link)) == {"ben", "cleo"}
    rows = results(linked, work)
    assert rows["Ann Lee"]["passback"]["status"] == "retrying"
    assert "422" in rows["Ann Lee"]["passback"]["error"]
    linked.lms.refused_users = set()
    due_again(work)
    passback.run_due()
    assert set(sent(linked.lms, link)) == {"ann", "ben", "cleo"}


def test_a_refusal_is_retried_with_growing_waits_of_at_most_half_a_minute():
    assert [passback._wait(n) for n in (1, 2, 3, 4, 5, 6, 10)] == [1, 2, 4, 8, 16, 30, 30]


def test_only_the_course_active_learners_get_scores(linked: Linked):
    APIClient().post("/api/v1/classrooms/join/", {
        "join_code": linked.lti_course.classroom.join_code, "name": "Zed"}, format="json")
    linked.learners["cleo"].active = False
    linked.learners["cleo"].save()
    work, link = graded(linked, "accuracy")
    close(work)
    passback.run_due()
    assert set(sent(linked.lms, link)) == {"ann", "ben"}
    rows = results(linked, work)
    assert rows["Zed"]["passback"] is None and rows["Cleo Ray"]["passback"] is None


def test_an_assignment_no_platform_links_to_sends_nothing(linked: Linked):
    work, _ = graded(linked, "accuracy")
    work.lti_links.all().delete()
    close(work)
    assert passback.run_due() == 0 and LtiScore.objects.count() == 0


def due_again(work: Assignment) -> None:
    """The wait before the next try has passed (as if time had gone by)."""
    LtiScore.objects.filter(link__assignment=work, status="waiting").update(
        next_attempt_at=timezone.now() - dt.timedelta(seconds=1)
    )
