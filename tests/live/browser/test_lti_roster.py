"""The "Sync roster" button of /teach/ in a real Chromium, for a classroom made by a course
of the LMS stand-in: the instructor launches, syncs, and sees the course's learners on the
roster (from the platform, the inactive one marked so), never its staff."""

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.lms import Platform

from .test_lti_launch import browse, course_platform  # noqa: F401 - the fixtures


def test_the_instructor_syncs_the_roster_from_the_platform(
    course_platform: Platform, browse: Callable[[], Page], tmp_path: Path  # noqa: F811
) -> None:
    lms = course_platform
    course = lms.course("chem-5", "Chemistry 5")
    teacher = lms.user("t-5", "Cy Teacher")
    course.enrol(teacher, "Instructor")
    course.enrol(lms.user("ta-5", "Tay Assistant"), "TeachingAssistant")
    for sub, name in (("s-1", "Ada Byron"), ("s-2", "Bo Chen"), ("s-3", "Cas Dunn")):
        course.enrol(lms.user(sub, name), "Learner")
    course.enrol(lms.users["s-3"], "Learner", status="Inactive")
    page = browse()
    page.goto(lms.launch_url(teacher, course, lms.link(course, "c-1", "Dice")))
    page.wait_for_url(re.compile(r"/teach/$"))
    sync = page.get_by_role("button", name="Sync roster")
    expect(sync).to_be_visible()
    sync.click()
    expect(page.get_by_text(re.compile(r"Roster synced: 2 learners added"))).to_be_visible()
    roster = page.locator("table.roster")
    expect(roster.get_by_role("row", name=re.compile("Ada Byron"))).to_contain_text(
        "Learning platform"
    )
    expect(roster.get_by_role("row", name=re.compile("Bo Chen"))).to_be_visible()
    expect(roster).not_to_contain_text("Cas Dunn")
    expect(roster).not_to_contain_text("Tay Assistant")
    page.screenshot(path=str(tmp_path / "roster.png"), full_page=True)
