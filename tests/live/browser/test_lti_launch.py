"""Launches from a learning platform in a real Chromium: the LMS stand-in (tests/lms/)
started locally, the live service registered with it by ``manage.py lti_register``. The
browser goes the whole way: the platform's login initiation, the tool's OIDC login, the
platform's authorization, the launch, and the page signed in by the session.

The pages may ask the platform's host as well as the service's (the platform's own pages are
part of the flow); any other host is refused.
"""

import datetime as dt
import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.live.conftest import LiveService
from tests.live.service import manage, service_env
from tests.lms import Platform

from .accessibility import axe_violations
from .conftest import TIMEOUT_MS


@pytest.fixture
def course_platform(lms: Platform, live_service: LiveService, tmp_path: Path) -> Platform:
    """The stand-in platform, with the live service registered as its tool."""
    env = service_env(tmp_path, live_service.database_url)
    manage(env, "lti_register", *lms.register_args())
    with urllib.request.urlopen(live_service.url + "/lti/jwks/", timeout=10) as answer:
        keyset = json.load(answer)
    lms.tool(login_url=live_service.url + "/lti/login/",
             launch_url=live_service.url + "/lti/launch/", keyset=keyset)
    return lms


@pytest.fixture
def browse(chromium: Any, live_service: LiveService, lms: Platform) -> Iterator[Callable[[], Page]]:
    """New browser contexts whose pages may reach the service and the platform only; after
    the test none may have logged an error."""
    hosts = {urlsplit(live_service.url).netloc, urlsplit(lms.issuer).netloc}
    contexts: list[Any] = []
    errors: list[str] = []

    def make() -> Page:
        context = chromium.new_context()
        context.set_default_timeout(TIMEOUT_MS)
        context.route(
            "**/*",
            lambda route: route.continue_()
            if urlsplit(route.request.url).netloc in hosts or route.request.url.startswith("data:")
            else route.abort(),
        )
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        contexts.append(context)
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors


def test_an_instructor_lands_on_teach_signed_in(
    course_platform: Platform, browse: Callable[[], Page], live_service: LiveService
) -> None:
    lms = course_platform
    course = lms.course("algebra-1", "Algebra 1")
    teacher = lms.user("t-1", "Tess Teacher")
    course.enrol(teacher, "Instructor")
    link = lms.link(course, "dice-1", "Dice")
    page = browse()
    page.goto(lms.launch_url(teacher, course, link))
    page.wait_for_url(re.compile(r"/teach/$"))
    expect(page.get_by_text("Algebra 1").first).to_be_visible()
    assert "key" not in page.url
    # The session is the teacher's: the page's own API calls work with it.
    me = page.evaluate("fetch('/api/v1/me/').then((r) => r.json())")
    assert me["role"] == "teacher" and me["classroom"]["name"] == "Algebra 1"


def test_deep_linking_then_a_learner_plays_the_assignment(
    course_platform: Platform, browse: Callable[[], Page], live_service: LiveService
) -> None:
    lms = course_platform
    course = lms.course("stats-2", "Statistics 2")
    teacher = lms.user("t-2", "Theo Teacher")
    ann = lms.user("s-ann", "Ann Lee")
    course.enrol(teacher, "Instructor")
    course.enrol(ann, "Learner")
    # The instructor adds an activity: the tool's form, a new assignment.
    page = browse()
    page.goto(lms.launch_url(teacher, course, None))
    expect(page.get_by_role("heading", name="Add an assignment to the course")).to_be_visible()
    assert axe_violations(page) == []
    page.get_by_label("Title").fill("Week 3")
    page.get_by_label("Ruleset").select_option("yatzy")
    page.get_by_label("Games per student").fill("2")
    due = dt.datetime.now() + dt.timedelta(days=3)
    page.get_by_label("Due").fill(due.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Add to the course").click()
    expect(page.get_by_text("Content added.")).to_be_visible()
    [response] = lms.deep_link_responses
    [item] = response["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["title"] == "Week 3" and item["lineItem"]["scoreMaximum"] == 100
    link = next(link for link in course.links.values() if link.title == "Week 3")
    # The learner opens the link: their first game of the assignment, its id in the address.
    learner = browse()
    learner.goto(lms.launch_url(ann, course, link))
    learner.wait_for_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
    game_id = learner.url.rstrip("/").rsplit("/", 1)[1]
    # Until it is due, an assignment game is its student's to see: the session is.
    game = learner.evaluate(f"fetch('/api/v1/games/{game_id}/').then((r) => r.json())")
    assert game["assignment_game"] == 1 and game["student"] == "Ann Lee"
    me = learner.evaluate("fetch('/api/v1/me/').then((r) => r.json())")
    assert me["role"] == "student" and me["student"]["name"] == "Ann Lee"
    # The page holds the seat: the learner rolls from it.
    learner.get_by_role("button", name=re.compile("^Roll")).first.click()
    expect(learner.get_by_role("button", name=re.compile("^Roll")).first).to_be_visible()


def test_a_launch_by_get_works_too(
    course_platform: Platform, browse: Callable[[], Page]
) -> None:
    lms = course_platform
    course = lms.course("geo-3", "Geography 3")
    teacher = lms.user("t-3", "Gina Teacher")
    course.enrol(teacher, "Instructor")
    page = browse()
    page.goto(lms.launch_url(teacher, course, lms.link(course, "g-1", "Dice"), method="GET"))
    page.wait_for_url(re.compile(r"/teach/$"))
    expect(page.get_by_text("Geography 3").first).to_be_visible()


def test_a_launch_inside_the_platforms_frame_goes_on_in_a_new_window(
    course_platform: Platform, browse: Callable[[], Page], live_service: LiveService
) -> None:
    lms = course_platform
    course = lms.course("bio-4", "Biology 4")
    teacher = lms.user("t-4", "Bo Teacher")
    course.enrol(teacher, "Instructor")
    url = lms.launch_url(teacher, course, lms.link(course, "b-1", "Dice"))
    page = browse()
    # The course page of the platform (its origin), framing the tool as platforms do.
    page.goto(lms.url("/jwks"))
    page.set_content(f'<iframe src="{url}" width="800" height="600"></iframe>')
    frame = page.frame_locator("iframe")
    button = frame.get_by_role("button", name="Open the classroom")
    expect(button).to_be_visible()
    assert axe_violations(page.frames[1]) == []  # the tool's page in the frame
    with page.context.expect_page() as opened:
        button.click()
    window = opened.value
    window.wait_for_url(re.compile(r"/teach/$"))
    expect(window.get_by_text("Biology 4").first).to_be_visible()


@pytest.mark.parametrize(("language", "title"), [("en", "Launch refused"), ("sv", None)])
def test_a_refused_launch_is_a_page_anyone_can_read(
    course_platform: Platform, chromium: Any, live_service: LiveService,
    language: str, title: str | None,
) -> None:
    """A launch whose token does not verify: the page says so, in the browser's language,
    to a screen reader as to anyone."""
    context = chromium.new_context(locale={"en": "en-GB", "sv": "sv-SE"}[language])
    try:
        page = context.new_page()
        page.goto(live_service.url + "/lti/launch/?id_token=forged&state=none")
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_be_visible()
        if title:
            expect(heading).to_have_text(title)
        assert page.evaluate("document.documentElement.lang").lower().startswith(language)
        expect(page.get_by_role("alert")).to_be_visible()
        assert axe_violations(page) == []
    finally:
        context.close()
