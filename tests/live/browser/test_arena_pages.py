"""Tournaments on the pages, in a real Chromium, by accessible names: a teacher sets one on
/teach/ (a refusal shown by its field first) and follows it live to its end, with the
standings, the chart of points over the boards, the secrets and the CSV; a student
registers a bot on /play/, starts a scrimmage of it against the computers, follows it and
watches one of its games; and those screens in every language, to everyone (axe-core).

The device fixture already fails a test whose page asked another host or logged an error.
"""

import csv
import io
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.live.conftest import LiveService

from .accessibility import (
    BROWSER_LANGUAGES,
    ENGLISH,
    PHONE_WIDTH,
    TAGS,
    ZOOMED_WIDTH,
    axe_source,
)
from .play import button

FINISHED = 20_000  # ms: the worker plays computers' games within seconds
RATING = "Rating (\u03bc \u2212 3\u03c3)"  # mu minus three sigma


def api(
    service: LiveService, method: str, path: str, body: Any = None, *, key: str | None = None
) -> tuple[int, Any]:
    return service.call(method, f"/api/v1{path}", body, key=key)


def classroom(service: LiveService, student: str | None = None) -> tuple[dict, dict | None]:
    status, room = api(service, "POST", "/classrooms/", {"name": "Arena"})
    assert status == 201, room
    joined = None
    if student:
        status, joined = api(
            service, "POST", "/classrooms/join/", {"join_code": room["join_code"], "name": student}
        )
        assert status == 201, joined
    return room, joined


def enter_teacher_key(page: Page, key: str) -> None:
    page.goto("/teach/")
    page.get_by_label("Teacher key").fill(key)
    button(page, "Continue with the key").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Arena classroom")


def test_a_teacher_sets_a_tournament_and_follows_it_to_its_end(new_device, live_service, tmp_path):
    device = new_device()
    device.recorder.allowed_errors.append("status of 400")  # the refusal, below
    page = device.page
    room, _ = classroom(live_service)
    enter_teacher_key(page, room["teacher_key"])
    form = page.get_by_role("form", name="Set a tournament")
    expect(form.get_by_text("No bot plays")).to_be_visible()

    # No entrant: refused, and the refusal is said by the entrants' fieldset.
    form.get_by_label("Title").fill("Spring cup")
    form.get_by_label("Ruleset").select_option("forced-yatzy")
    form.get_by_label("Boards").fill("2")
    expect(form.get_by_text("0 entrants, 0 games in all.")).to_be_visible()
    with page.expect_response(  # the POST, not the list's polling GET
        lambda r: r.url.endswith("/tournaments/") and r.request.method == "POST"
    ) as refused:
        button(form, "Set the tournament").click()
    assert refused.value.status == 400
    entrants = form.get_by_role("group", name="Entrants")
    expect(entrants).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_role("alert")).to_contain_text("1 field needs a change")

    # Two computers, round robin on two boards: 4 games, counted before it is set.
    form.get_by_label("Computers playing random").fill("1")
    form.get_by_label("Computers playing greedy").fill("1")
    expect(form.get_by_text("2 entrants, 4 games in all.")).to_be_visible()
    with page.expect_response(
        lambda r: r.url.endswith("/tournaments/") and r.request.method == "POST"
    ) as created:
        button(form, "Set the tournament").click()
    assert created.value.status == 201
    tournament = created.value.json()
    assert (tournament["seats"], tournament["boards"], tournament["rated"]) == (2, 2, True)
    expect(form.get_by_role("status")).to_have_text("The tournament “Spring cup” is set.")
    expect(page.get_by_role("button", name=re.compile("^Spring cup"))).to_have_attribute(
        "aria-pressed", "true"
    )
    title = page.get_by_role("heading", name="Spring cup", level=2)
    expect(title).to_be_focused()

    # Followed live to its end, without a reload.
    progress = page.get_by_role("status").filter(has_text="games finished")
    expect(progress).to_have_text(re.compile(r"^finished: 4 of 4 games finished"), timeout=FINISHED)
    standings = page.get_by_role("table", name="Standings of Spring cup, best first")
    expect(standings.get_by_role("rowheader")).to_have_count(2)
    status, final = api(
        live_service, "GET", f"/classrooms/{room['id']}/tournaments/{tournament['id']}/",
        key=room["teacher_key"],
    )
    assert status == 200, final
    expect(standings.get_by_role("rowheader")).to_have_text([r["name"] for r in final["standings"]])
    expect(standings.get_by_role("columnheader", name=RATING)).to_be_visible()
    chart = page.get_by_role("img", name="Points over the boards")
    expect(chart).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Points after each of 2 boards"))).to_be_visible()
    expect(page.get_by_role("list", name="Secrets").get_by_role("listitem")).to_have_count(2)
    expect(page.get_by_role("table", name="Games started: 4").get_by_role("link")).to_have_count(4)
    expect(button(page, "Cancel the tournament")).to_have_count(0)

    with page.expect_download() as download:
        button(page, "Download the standings (CSV)").click()
    saved = Path(tmp_path) / "standings.csv"
    download.value.save_as(saved)
    rows = list(csv.DictReader(io.StringIO(saved.read_text())))
    assert [row["name"] for row in rows] == [r["name"] for r in final["standings"]]


def test_a_teacher_cancels_a_tournament_that_has_not_started(new_device, live_service):
    page = new_device().page
    room, _ = classroom(live_service)
    enter_teacher_key(page, room["teacher_key"])
    form = page.get_by_role("form", name="Set a tournament")
    form.get_by_label("Title").fill("Later")
    form.get_by_label("Starts (optional)").fill("2099-01-01T10:00")
    form.get_by_label("Computers playing random").fill("2")
    button(form, "Set the tournament").click()
    expect(page.get_by_role("heading", name="Later", level=2)).to_be_focused()
    button(page, "Cancel the tournament").click()
    confirm = button(page, "Yes, cancel the tournament")
    expect(confirm).to_be_focused()
    confirm.click()
    final = "The tournament is cancelled: these standings are final."
    expect(page.get_by_text(final)).to_be_visible()
    expect(page.get_by_role("list", name="Secrets").get_by_role("listitem")).to_have_count(2)


def test_a_student_registers_a_bot_and_follows_its_scrimmage(new_device, live_service):
    device = new_device()
    page = device.page
    _, student = classroom(live_service, "Ann")
    assert student is not None
    page.goto("/play/")
    page.get_by_label("Student API key").fill(student["api_key"])
    button(page, "Show my assignments").click()
    bots = page.get_by_role("region", name="My bots")
    expect(bots.get_by_text("You have no bot yet")).to_be_visible()

    # Registering a bot: it is listed, and the scrimmage form offers it.
    register = bots.get_by_role("form", name="Register a bot")
    register.get_by_label("Bot name").fill("Gus")
    with page.expect_response(
        lambda r: r.url.endswith("/api/v1/bots/") and r.request.method == "POST"
    ) as made:
        button(register, "Register the bot").click()
    assert made.value.status == 201, made.value.text()
    bot = made.value.json()
    expect(bots.get_by_role("list", name="My bots")).to_contain_text("Gus")
    expect(bots.get_by_role("status").filter(has_text="registered")).to_have_text(
        "The bot “Gus” is registered."
    )
    # A second bot of the same name is refused by the name's field.
    register = bots.get_by_role("form", name="Register a bot")
    register.get_by_label("Bot name").fill("gus")
    device.recorder.allowed_errors.append("status of 409")
    button(register, "Register the bot").click()
    expect(register.get_by_label("Bot name")).to_have_attribute("aria-invalid", "true")

    # The scrimmage: Gus against one computer of each level but optimal, one board.
    form = bots.get_by_role("form", name="Start a scrimmage")
    expect(form.get_by_role("checkbox", name="Gus")).to_be_checked()
    form.get_by_label("Computers playing optimal").fill("0")
    form.get_by_label("Boards").fill("1")
    expect(form.get_by_text("3 entrants, 6 games in all.")).to_be_visible()
    with page.expect_response(
        lambda r: r.url.endswith("/tournaments/") and r.request.method == "POST"
    ) as set_:
        button(form, "Start the scrimmage").click()
    assert set_.value.status == 201, set_.value.text()
    scrimmage = set_.value.json()
    assert scrimmage["rated"] is False and scrimmage["scrimmage"] is True
    assert {e["bot"] for e in scrimmage["entrants"]} == {bot["id"], None}
    expect(page).to_have_url(re.compile(rf"/play/tournaments/{scrimmage['id']}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(scrimmage["title"])
    standings = page.get_by_role("table", name=re.compile("^Standings of"))
    expect(standings.get_by_role("rowheader")).to_have_count(3)
    expect(standings.get_by_role("columnheader", name=RATING)).to_have_count(0)

    # The computers' own game is over at once; Gus's games wait for it (no program runs
    # it here). Any game can be watched, read-only: this student holds no seat in it.
    games = page.get_by_role("table", name=re.compile("^Games started"))
    rows = games.get_by_role("row")
    expect(rows.filter(has_text="finished")).not_to_have_count(0, timeout=FINISHED)
    rows.filter(has_text="Gus").first.get_by_role("link", name=re.compile("^Watch")).click()
    expect(page).to_have_url(re.compile(r"/play/[0-9a-f-]{36}/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(re.compile("Yahtzee|Yatzy"))
    expect(page.get_by_role("cell", name="Gus").or_(page.get_by_text("Gus")).first).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Roll"))).to_be_disabled()
    page.go_back()
    expect(page.get_by_role("heading", level=1)).to_have_text(scrimmage["title"])


def check(page: Page, language: str, state: str, part: str, problems: list[str]) -> None:
    """The checks of the pages' languages and accessibility, on the part of the page that
    shows tournaments and bots (the CSS selector `part`): axe-core's WCAG A and AA rules,
    nothing wider than a phone or a zoomed window but inside a table's own scrolling box,
    and no English word left in another language."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(
        """async ([part, tags]) => {
          const result = await axe.run(part, { runOnly: { type: "tag", values: tags } });
          return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target)}`);
        }""",
        [part, TAGS],
    )
    problems.extend(f"{state}: {violation}" for violation in found)
    before = page.viewport_size
    for width in (PHONE_WIDTH, ZOOMED_WIDTH):
        page.set_viewport_size({"width": width, "height": 720})
        page.wait_for_timeout(50)
        wide = page.evaluate(
            """([part, width]) => [...document.querySelectorAll(`${part}, ${part} *`)]
              .filter((e) => !e.parentElement.closest(".table-wrap, .plot"))
              .filter((e) => e.getBoundingClientRect().right > width + 0.5)
              .map((e) => `${e.tagName.toLowerCase()} ${e.textContent.slice(0, 30)}`)""",
            [part, width],
        )
        problems.extend(f"{state}: wider than {width} px: {element}" for element in wide)
    if before:
        page.set_viewport_size(before)
    if language != "en":
        words = page.evaluate(
            """(part) => [...document.querySelectorAll(part)].flatMap((root) => [root.innerText,
              ...[...root.querySelectorAll("[aria-label], [title]")].map((e) =>
                `${e.getAttribute("aria-label") || ""} ${e.getAttribute("title") || ""}`)])
              .join(" ")""",
            part,
        )
        english = sorted({match.group(0) for match in ENGLISH.finditer(words)})
        if english:
            problems.append(f"{state}: English words {english}")


@pytest.fixture(scope="module")
def arena(live_service: LiveService) -> dict[str, Any]:
    """A classroom with a finished rated tournament of two computers, and a student with a
    bot in a scrimmage of their own."""
    room, student = classroom(live_service, "Ann")
    assert student is not None
    key = room["teacher_key"]
    status, bot = api(live_service, "POST", "/bots/", {"name": "Gus", "rulesets": ["yatzy"]},
                      key=student["api_key"])
    assert status == 201, bot
    path = f"/classrooms/{room['id']}/tournaments/"
    body = {"title": "Cup 1", "ruleset": "yatzy", "seats": 2, "boards": 1,
            "entrants": [{"computer": "random"}, {"computer": "greedy"}]}
    status, cup = api(live_service, "POST", path, body, key=key)
    assert status == 201, cup
    body = {"title": "Gus 1", "ruleset": "yatzy", "seats": 2, "boards": 1,
            "entrants": [{"bot": bot["id"]}, {"computer": "random"}]}
    status, scrimmage = api(live_service, "POST", path, body, key=student["api_key"])
    assert status == 201, scrimmage
    deadline = time.monotonic() + FINISHED / 1000
    while cup["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.5)
        status, cup = api(live_service, "GET", f"{path}{cup['id']}/", key=key)
    assert cup["status"] == "finished", cup
    return {"key": key, "student": student["api_key"], "scrimmage": scrimmage["id"]}


@pytest.mark.parametrize("language", list(BROWSER_LANGUAGES))
def test_the_arena_screens_in_every_language(new_device, arena: dict[str, Any], language: str):
    """The teacher's tournament followed to its end, the student's bots and their scrimmage:
    no English left in another language, no axe-core violation, nothing wider than the
    screen."""
    page = new_device(locale=BROWSER_LANGUAGES[language]).page
    problems: list[str] = []
    page.goto("/teach/")
    page.locator("#teacher-key").fill(arena["key"])
    page.locator("#teacher-key").press("Enter")
    page.locator("[data-key^=tournament-]").filter(has_text="Cup 1").click()
    expect(page.locator("#standings-table tbody tr")).to_have_count(2)
    expect(page.locator(".boards-chart svg")).to_be_visible()
    expect(page.locator("ol.hashes").first).to_be_visible()
    check(page, language, "a finished tournament", "#tournaments", problems)

    page.goto("/play/")
    page.locator("#api-key").fill(arena["student"])
    page.locator("#api-key").press("Enter")
    expect(page.locator("#bots form")).to_have_count(2)
    check(page, language, "a student's bots", "#bots", problems)

    page.goto(f"/play/tournaments/{arena['scrimmage']}/")
    expect(page.locator("#standings-table tbody tr")).to_have_count(2)
    check(page, language, "a scrimmage", "main", problems)
    assert not problems, "\n".join(problems)
