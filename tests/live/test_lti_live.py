"""A course against the live service and its worker, over HTTP as a browser sends it: the
tool registered with the LMS stand-in by ``manage.py lti_register``, an instructor's and
learners' launches through the platform's OIDC login, an assignment picked by deep linking
(the platform checks the tool's signed answer and makes a graded link), the roster synced,
and the worker process sending every learner's grade once the assignment closes, while
the platform answers 503 and after it comes back: one score each."""

import datetime as dt
import html
import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.lms import Platform

from .conftest import LiveService
from .service import manage, service_env

pytestmark = [pytest.mark.live, pytest.mark.slow]


class _LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """A browser sends ``Secure`` cookies to a loopback host over plain HTTP."""

    def return_ok_secure(self, cookie: Any, request: Any) -> bool:
        return True


class Browser:
    """Cookies, redirects and forms, as a browser handles them (no scripts: each
    auto-submitting form is submitted by ``submit``)."""

    def __init__(self) -> None:
        self.jar = http.cookiejar.CookieJar(policy=_LoopbackCookies())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.url = ""

    def open(self, url: str, fields: dict[str, str] | None = None,
             headers: dict[str, str] | None = None, body: bytes | None = None) -> str:
        data = body if body is not None else (
            urllib.parse.urlencode(fields).encode() if fields is not None else None)
        request = urllib.request.Request(url, data=data, headers=headers or {})
        with self.opener.open(request, timeout=15) as answer:
            self.url = answer.url
            return answer.read().decode()

    def submit(self, page: str, **extra: str) -> str:
        """The page's first form, its fields as given plus ``extra``."""
        form = re.search(r'<form[^>]*action="([^"]*)"[^>]*>(.*?)</form>', page, re.DOTALL)
        assert form, page[:1500]
        fields = {
            html.unescape(name): html.unescape(value)
            for name, value in re.findall(r'<input[^>]*name="([^"]*)"[^>]*value="([^"]*)"',
                                          form.group(2))
        }
        action = urllib.parse.urljoin(self.url, html.unescape(form.group(1)))
        return self.open(action, {**fields, **extra})

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name and c.value is not None)

    def api(self, service: LiveService, method: str, path: str, body: Any = None) -> Any:
        """The API as a signed-in page calls it: the session's cookie and its CSRF token."""
        headers = {"Content-Type": "application/json", "X-CSRFToken": self.cookie("csrftoken"),
                   "Accept": "application/json", "Origin": service.url}
        request = urllib.request.Request(service.url + "/api/v1" + path, method=method,
                                         data=json.dumps(body or {}).encode() if method != "GET"
                                         else None, headers=headers)
        with self.opener.open(request, timeout=15) as answer:
            return json.load(answer)


def launched(browser: Browser, lms: Platform, url: str) -> str:
    """From the platform's launch URL to the tool's page: the login initiation, the tool's
    login (redirected to the platform), the platform's form POST of the id_token."""
    return browser.submit(browser.submit(browser.open(url), lti1p3_new_window="1"))


def play_out(service: LiveService, page: str) -> None:
    """The learner's game (the seat token the page was handed), played to its end."""
    game = re.search(r'data-path="/play/([0-9a-f-]+)/"', page)
    token = re.search(r'data-token="([^"]+)"', page)
    assert game and token, page[:1500]
    moves = f"/api/v1/games/{game.group(1)}"
    for _ in range(60):
        status, state = service.call("GET", moves + "/", token=token.group(1))
        if state["status"] == "finished":
            return
        status, state = service.call("POST", moves + "/roll/", {}, token=token.group(1))
        assert status == 200, state
        choice = next(iter(state["choices"]))
        status, state = service.call("POST", moves + "/score/", {"category": choice},
                                     token=token.group(1))
        assert status == 200, state
    raise AssertionError("the game did not end")


def test_a_course_gets_its_grades_from_the_worker_through_an_outage(
    live_service: LiveService, lms: Platform, tmp_path: Path
):
    manage(service_env(tmp_path, live_service.database_url), "lti_register",
           *lms.register_args())
    tool = live_service.url + "/lti/"
    lms.tool(login_url=tool + "login/", launch_url=tool + "launch/", keyset=tool + "jwks/")
    course = lms.course("live-course", "Dice in maths")
    teacher = lms.user("teach", "Tina Teach")
    course.enrol(teacher, "Instructor")
    learners = [lms.user(sub, name) for sub, name in
                (("ann", "Ann Lee"), ("ben", "Ben Ng"), ("cleo", "Cleo Ray"))]
    for learner in learners:
        course.enrol(learner, "Learner")
    home = lms.link(course, "home", "Dice", graded=False)

    # The instructor opens the tool and sets a short assignment on the API with the session.
    desk = Browser()
    desk.submit(launched(desk, lms, lms.launch_url(teacher, course, home)))
    me = desk.api(live_service, "GET", "/me/")
    room = me["classroom"]["id"]
    due = (dt.datetime.now(dt.UTC) + dt.timedelta(seconds=20)).isoformat()
    work = desk.api(live_service, "POST", f"/classrooms/{room}/assignments/", {
        "title": "Quick one", "ruleset": "yahtzee", "games": 1, "due_at": due,
        "grade": "completion"})
    # ... and adds it to the course by deep linking: the platform makes a graded link.
    form = launched(desk, lms, lms.launch_url(teacher, course, None))
    desk.submit(desk.submit(form, assignment=work["id"]))
    assert lms.refusals == [] and len(lms.deep_link_responses) == 1
    [link] = [x for x in course.links.values() if x.title == "Quick one"]
    assert link.line_item is not None

    # Ann plays her game to the end; Ben only opens it; Cleo never launches.
    for learner in learners[:2]:
        seat = Browser()
        page = seat.submit(launched(seat, lms, lms.launch_url(learner, course, link)))
        if learner.sub == "ann":
            play_out(live_service, page)
    synced = desk.api(live_service, "POST", f"/classrooms/{room}/lti-sync/")
    assert synced["added"] == 1

    lms.away("503")
    deadline = time.monotonic() + 60
    while lms.answered_away < 2:  # the closing ran and the worker tried twice, refused
        assert time.monotonic() < deadline, "no score was tried within a minute"
        time.sleep(0.2)
    assert lms.scores_for(link) == []
    lms.back()
    back = time.monotonic()
    while len(lms.scores_for(link)) < 3:
        assert time.monotonic() - back < 40, "the scores did not all go after the return"
        time.sleep(0.2)
    time.sleep(1)
    scores = {s.body["userId"]: s.body for s in lms.scores_for(link)}
    assert len(lms.scores_for(link)) == 3
    assert {u: s["scoreGiven"] for u, s in scores.items()} == {"ann": 100, "ben": 0, "cleo": 0}
    assert scores["ann"]["activityProgress"] == "Completed"
    results = desk.api(live_service, "GET", f"/classrooms/{room}/assignments/{work['id']}/results/")
    assert {r["passback"]["status"] for r in results["students"]} == {"sent"}
