"""Names and roles: "Sync roster" reads the course's members from the platform, page after
page, and syncs its learners into the classroom: new ones added, ones gone or inactive made
inactive, none deleted, staff never made students; the roster tells each student's source
and whether they are active."""

import pytest
from rest_framework.test import APIClient

from games.models import LtiLearner, Student
from tests.api.conftest import assert_problem
from tests.lms import Platform
from tests.lti.course import Linked, linked_course, tool_registered

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(lms: Platform) -> Linked:
    registration = tool_registered(lms)
    return linked_course(lms, registration, lms.course("maths-5b", "Maths 5B"))


def sync(linked: Linked, key: str | None = None):
    return APIClient().post(
        f"/api/v1/classrooms/{linked.classroom_id}/lti-sync/", {}, format="json",
        HTTP_X_API_KEY=key or linked.teacher_key,
    )


def roster(linked: Linked) -> dict[str, dict]:
    answer = APIClient().get(f"/api/v1/classrooms/{linked.classroom_id}/",
                             HTTP_X_API_KEY=linked.teacher_key)
    return {s["name"]: s for s in answer.json()["students"]}


def test_a_sync_adds_the_learners_of_every_page_and_never_the_staff(linked: Linked):
    lms, course = linked.lms, linked.course
    for n in range(5):
        course.enrol(lms.user(f"l{n}", f"Learner {n}"), "Learner")
    course.enrol(lms.user("t1", "Tina Teach"), "Instructor")
    course.enrol(lms.user("t2", "Tom Assist"),
                 "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant")
    course.enrol(lms.user("t3", "Dee Signer"), "ContentDeveloper", "Learner")
    course.enrol(lms.user("a1", "Ada Min"), "Administrator")
    lms.page_size = 2  # five pages

    answer = sync(linked)

    assert answer.status_code == 200, answer.json()
    assert answer.json() == {"members": 9, "added": 5, "made_inactive": 0, "made_active": 0}
    shown = roster(linked)
    assert sorted(shown) == [f"Learner {n}" for n in range(5)]
    assert all(s["source"] == "lti" and s["active"] for s in shown.values())
    pages = [r for r in lms.token_requests if "contextmembership" in r.get("scope", "")]
    assert len(pages) == 1  # one token for the five pages


def test_learners_gone_or_inactive_are_made_inactive_and_none_is_deleted(linked: Linked):
    lms, course = linked.lms, linked.course
    ann, ben, cleo = (lms.user(s, n) for s, n in (("ann", "Ann"), ("ben", "Ben"), ("cleo", "Cleo")))
    for user in (ann, ben, cleo):
        course.enrol(user, "Learner")
    assert sync(linked).json()["added"] == 3
    course.drop(ann)
    course.enrol(ben, "Learner", status="Inactive")

    assert sync(linked).json() == {"members": 2, "added": 0, "made_inactive": 2, "made_active": 0}
    shown = roster(linked)
    assert {name: s["active"] for name, s in shown.items()} == {
        "Ann": False, "Ben": False, "Cleo": True
    }
    assert Student.objects.count() == 3

    course.enrol(ann, "Learner")
    assert sync(linked).json()["made_active"] == 1
    assert roster(linked)["Ann"]["active"] is True


def test_a_join_student_stays_and_a_launched_learner_is_not_added_twice(linked: Linked):
    lms, course = linked.lms, linked.course
    ann = lms.user("ann", "Ann Lee")
    course.enrol(ann, "Learner")
    linked.launched(ann)
    joined = APIClient().post("/api/v1/classrooms/join/", {
        "join_code": linked.lti_course.classroom.join_code, "name": "Ann Lee"}, format="json")
    assert joined.status_code == 409  # the learner holds the name
    APIClient().post("/api/v1/classrooms/join/", {
        "join_code": linked.lti_course.classroom.join_code, "name": "Zed"}, format="json")
    twin = lms.user("ann-2", "Ann Lee")
    course.enrol(twin, "Learner")

    assert sync(linked).json()["added"] == 1
    shown = roster(linked)
    assert shown["Zed"]["source"] == "join" and shown["Zed"]["active"] is True
    assert shown["Ann Lee"]["source"] == shown["Ann Lee (2)"]["source"] == "lti"
    assert LtiLearner.objects.count() == 2


def test_a_platform_away_changes_nothing_and_says_so(linked: Linked):
    linked.course.enrol(linked.lms.user("ann", "Ann"), "Learner")
    for how in ("503", "refuse"):
        linked.lms.away(how)
        assert_problem(sync(linked), 502, "lti_platform_unavailable")
        linked.lms.back()
    assert Student.objects.count() == 0
    assert sync(linked).json()["added"] == 1


def test_only_a_platform_course_syncs_and_only_its_teacher(linked: Linked):
    opened = APIClient().post("/api/v1/classrooms/", {"name": "5C"}, format="json").json()
    answer = APIClient().post(f"/api/v1/classrooms/{opened['id']}/lti-sync/", {}, format="json",
                              HTTP_X_API_KEY=opened["teacher_key"])
    assert_problem(answer, 409, "lti_not_linked")
    assert_problem(sync(linked, opened["teacher_key"]), 403, "forbidden")
