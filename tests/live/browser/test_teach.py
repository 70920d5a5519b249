"""The teacher's page /teach/ in a real Chromium, driven by accessible names: a classroom
opened on the page, students who join and play over the API, an assignment set on the page
and its results followed live, as a table, a chart and a CSV download.

The device fixture already fails a test whose page asked another host or logged an error.
"""

import csv
import io
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.live.conftest import LiveService

from .play import button

CSV_HEADER = [
    "student", "games_started", "games_finished", "mean_score", "best_score", "mean_accuracy",
    "rank",
]
# Every element a person can reach or operate: each must have an accessible name.
CONTROLS = "a[href], button, input, select, textarea, summary, [role=button], [tabindex]"
PHONE = {"width": 360, "height": 780}


def api(
    service: LiveService, method: str, path: str, body: Any = None, *,
    key: str | None = None, token: str | None = None,
) -> tuple[int, Any]:
    """One JSON request to /api/v1, with an X-API-Key or a seat's token."""
    return service.call(method, f"/api/v1{path}", body, key=key, token=token)


def join(service: LiveService, join_code: str, name: str) -> dict[str, Any]:
    body = {"join_code": join_code, "name": name}
    status, joined = api(service, "POST", "/classrooms/join/", body)
    assert status == 201, joined
    return joined


def play_assignment_game(
    service: LiveService, classroom_id: str, assignment_id: str, student_key: str
) -> dict[str, Any]:
    """A student starts their game of the assignment and plays it to the end: each turn
    one roll, then the first box the game offers."""
    path = f"/classrooms/{classroom_id}/assignments/{assignment_id}/games/"
    status, state = api(service, "POST", path, key=student_key)
    assert status == 201, state
    token = state["players"][0]["token"]
    moves = f"/games/{state['id']}"
    for _ in range(100):
        if state["status"] == "finished":
            break
        status, state = api(service, "POST", f"{moves}/roll/", {}, token=token)
        assert status == 200, state
        category = next(iter(state["choices"]))
        status, state = api(service, "POST", f"{moves}/score/", {"category": category}, token=token)
        assert status == 200, state
    assert state["status"] == "finished"
    return state


def local_time(moment: datetime) -> str:
    """As an <input type="datetime-local"> takes it (the browser's time zone is this one's)."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def shown(value: float | None) -> str:
    """A number as the page shows it: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def expect_every_control_named(page: Page) -> int:
    """Every visible control has a non-empty accessible name; answers how many there are."""
    controls = page.locator(CONTROLS)
    checked = 0
    for index in range(controls.count()):
        control = controls.nth(index)
        if not control.is_visible():
            continue
        if control.get_attribute("tabindex") == "-1":
            continue  # focused by the page itself (a heading), not a control
        expect(control).to_have_accessible_name(re.compile(r"\S"))
        checked += 1
    return checked


def expect_no_sideways_scrolling(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def expect_key_kept_in_this_tab_only(page: Page, device, key: str) -> None:
    assert key in page.evaluate("() => Object.values(sessionStorage)")
    assert key not in page.evaluate("() => JSON.stringify(Object.values(localStorage))")
    assert key not in page.url
    assert all(key not in cookie["value"] for cookie in device.context.cookies())
    assert all(key not in url for url in device.recorder.requests)


def test_a_teacher_sets_an_assignment_and_follows_its_results_live(new_device, live_service):
    device = new_device(viewport=PHONE, is_mobile=True, has_touch=True)
    device.recorder.allowed_errors.append("status of 400")  # the refused deadline, below
    page = device.page
    page.goto("/teach/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Teaching")

    # Open a classroom: the key is shown once, with its note, and kept in this tab only.
    page.get_by_label("Classroom name").fill("5B")
    with page.expect_response(
        lambda r: r.url.endswith("/api/v1/classrooms/") and r.request.method == "POST"
    ) as opened:
        button(page, "Open the classroom").click()
    assert opened.value.status == 201
    room = opened.value.json()
    key = room["teacher_key"]
    expect(page.get_by_role("heading", level=1)).to_have_text("5B classroom")
    expect(page.get_by_role("heading", name="Keep your teacher key")).to_be_visible()
    expect(page.get_by_role("textbox", name="Your teacher key")).to_have_value(key)
    expect(page.get_by_text("This key is shown only now")).to_be_visible()
    join_code = page.get_by_role("region", name="Join code")
    expect(join_code).to_contain_text(room["join_code"])
    expect_key_kept_in_this_tab_only(page, device, key)
    button(page, "I have kept the key").click()
    expect(page.get_by_role("textbox", name="Your teacher key")).to_have_count(0)

    # Two students join over the API; the roster shows them.
    students = {name: join(live_service, room["join_code"], name) for name in ("Ann", "Ben")}
    button(page, "Refresh the students and assignments").click()
    roster = page.get_by_role("table", name="2 students of 5B")
    expect(roster.get_by_role("rowheader")).to_have_text(["Ann", "Ben"])
    expect(page.get_by_role("status").filter(has_text="joined")).to_have_text(
        "2 students have joined."
    )

    # Set an assignment on the page (its form, beside the tournaments' own): a deadline in
    # the past is refused by its field.
    form = page.get_by_role("form", name="Set an assignment")
    form.get_by_label("Title").fill("Week 1")
    form.get_by_label("Ruleset").select_option("forced-yatzy")
    form.get_by_label("Games per student").fill("1")
    due = form.get_by_label("Due", exact=True)
    due.fill(local_time(datetime.now() - timedelta(days=1)))
    with page.expect_response(lambda r: r.url.endswith("/assignments/")) as refused:
        button(page, "Set the assignment").click()
    assert refused.value.status == 400
    expect(due).to_have_attribute("aria-invalid", "true")
    expect(due).to_have_accessible_description(
        re.compile("due time must be in the future")
    )
    expect(due).to_be_focused()
    expect(page.get_by_role("alert")).to_contain_text("1 field needs a change")

    due.fill(local_time(datetime.now() + timedelta(days=1)))
    with page.expect_response(
        lambda r: r.url.endswith("/assignments/") and r.request.method == "POST"
    ) as set_:
        button(page, "Set the assignment").click()
    assert set_.value.status == 201
    assignment = set_.value.json()
    assert (assignment["title"], assignment["ruleset"], assignment["games"]) == (
        "Week 1", "forced-yatzy", 1,
    )
    assert assignment["status"] == "open"
    expect(due).not_to_have_attribute("aria-invalid", "true")
    expect(page.get_by_role("status").filter(has_text="is set")).to_have_text(
        "The assignment “Week 1” is set."
    )
    chosen = button(page, re.compile(r"^Week 1"))
    expect(chosen).to_have_attribute("aria-pressed", "true")
    results_title = page.get_by_role("heading", name="Results: Week 1")
    expect(results_title).to_be_focused()
    table = page.get_by_role("table", name="Results of Week 1, best first")
    expect(table.get_by_role("rowheader")).to_have_text(["Ann", "Ben"])  # unranked: by name
    progress = page.get_by_role("status").filter(has_text="finished all their games")
    expect(progress).to_have_text(
        "0 of 2 students finished all their games; 0 of 2 games finished in all."
    )
    expect(progress).to_have_attribute("aria-live", "polite")

    # The students play their game over the API; the page follows without a reload.
    classroom_id, assignment_id = room["id"], assignment["id"]
    for joined in students.values():
        play_assignment_game(live_service, classroom_id, assignment_id, joined["api_key"])
    expect(progress).to_have_text(
        "2 of 2 students finished all their games; 2 of 2 games finished in all.", timeout=10_000
    )
    status, results = api(
        live_service, "GET",
        f"/classrooms/{classroom_id}/assignments/{assignment_id}/results/", key=key,
    )
    assert status == 200, results
    rows = results["students"]
    assert [row["games_finished"] for row in rows] == [1, 1]

    body_rows = table.locator("tbody tr")
    expect(body_rows).to_have_count(2)
    for index, row in enumerate(rows):
        accuracy = row["mean_accuracy"]
        expect(body_rows.nth(index).locator("th, td")).to_have_text([
            str(row["rank"]),
            row["student"]["name"],
            str(row["games_started"]),
            str(row["games_finished"]),
            shown(row["mean_score"]),
            str(row["best_score"]),
            "–none" if accuracy is None else f"{shown(accuracy)}%",  # noqa: RUF001 - the page's dash
        ])

    # The chart: one image named for what it shows, described by the table, that fits.
    chart = page.get_by_role("img", name="Mean score and mean accuracy of each student in Week 1")
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("aria-describedby", "results-table")
    expect(chart).to_have_attribute("viewBox", re.compile(r"^0 0 \d+ \d+$"))
    assert table.get_attribute("id") == "results-table"
    for row in rows:
        expect(chart).to_contain_text(row["student"]["name"])
        expect(chart).to_contain_text(shown(row["mean_score"]))
    expect(chart.locator("rect.bar.score")).to_have_count(3)  # the legend's and two students'
    analysed = sum(row["mean_accuracy"] is not None for row in rows)
    expect(chart.locator("rect.bar.accuracy")).to_have_count(1 + analysed)
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    expect_no_sideways_scrolling(page)

    # The CSV: fetched with the key in a header, saved through an object URL.
    def asks_csv(request) -> bool:
        return request.url.endswith("/results/") and request.headers.get("accept") == "text/csv"

    with page.expect_request(asks_csv) as asked, page.expect_download() as downloaded:
        button(page, "Download results (CSV)").click()
    assert asked.value.headers.get("x-api-key") == key
    download = downloaded.value
    assert download.url.startswith("blob:")
    assert download.suggested_filename == "results-week-1.csv"
    lines = list(csv.reader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    expected = [
        [row["student"]["name"], *(row[name] for name in CSV_HEADER[1:])] for row in rows
    ]
    assert lines[0] == CSV_HEADER
    assert lines[1:] == [["" if value is None else str(value) for value in row] for row in expected]
    expect(page.get_by_role("status").filter(has_text="saved")).to_have_text(
        "The results were saved as results-week-1.csv."
    )

    # By keyboard: the assignment is chosen again from its button.
    chosen.focus()
    page.keyboard.press("Enter")
    expect(results_title).to_be_focused()
    expect(progress).to_contain_text("2 of 2 students")

    # Headings give the page its outline; every control has a name.
    expect(page.get_by_role("heading", level=1)).to_have_count(1)
    for name in ("Join code", "Students", "Set an assignment", "Assignments", "Results: Week 1"):
        expect(page.get_by_role("heading", level=2, name=name)).to_have_count(1)
    for role, name in [
        ("textbox", "Title"), ("combobox", "Ruleset"), ("spinbutton", "Games per student"),
        ("button", "Set the assignment"),
    ]:
        expect(form.get_by_role(role, name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="Forget the key on this tab")).to_have_count(1)
    assert expect_every_control_named(page) >= 10
    expect_no_sideways_scrolling(page)
    expect_key_kept_in_this_tab_only(page, device, key)


def test_a_teacher_key_brings_the_classroom_back_and_a_students_key_is_refused(
    device, live_service
):
    device.recorder.allowed_errors.append("status of 401")  # the wrong key, below
    page = device.page
    status, room = api(live_service, "POST", "/classrooms/", {"name": "6C"})
    assert status == 201, room
    ann = join(live_service, room["join_code"], "Ann")
    page.goto("/teach/")
    key_field = page.get_by_label("Teacher key", exact=True)
    go_on = button(page, "Continue with the key")

    key_field.fill(ann["api_key"])
    go_on.click()
    expect(key_field).to_have_accessible_description(re.compile(r"key of a student \(Ann in 6C\)"))
    expect(key_field).to_have_attribute("aria-invalid", "true")
    key_field.fill("dk_not_a_key")
    go_on.click()
    expect(key_field).to_have_accessible_description(re.compile("This key is not valid"))
    assert page.evaluate("() => sessionStorage.length") == 0

    key = room["teacher_key"]
    key_field.fill(key)
    go_on.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("6C classroom")
    expect(page.get_by_role("heading", name="Keep your teacher key")).to_have_count(0)
    expect(page.get_by_role("region", name="Join code")).to_contain_text(room["join_code"])
    expect(page.get_by_role("table", name="1 student of 6C").get_by_role("rowheader")).to_have_text(
        ["Ann"]
    )
    expect(page.get_by_text("No assignment yet")).to_be_visible()
    expect_key_kept_in_this_tab_only(page, device, key)

    # A reload keeps the classroom (the tab's session storage); another tab knows no key.
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("6C classroom")
    assert page.url.endswith("/teach/")
    other = device.context.new_page()
    other.goto("/teach/")
    expect(other.get_by_role("heading", name="Open a new classroom")).to_be_visible()
    other.close()

    button(page, "Forget the key on this tab").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Teaching")
    assert page.evaluate("() => sessionStorage.length") == 0
    assert expect_every_control_named(page) >= 4


def test_the_teacher_closes_joining_reopens_it_and_replaces_the_code(device, live_service):
    page = device.page
    status, room = api(live_service, "POST", "/classrooms/", {"name": "7D"})
    assert status == 201, room
    page.goto("/teach/")
    page.get_by_label("Teacher key", exact=True).fill(room["teacher_key"])
    button(page, "Continue with the key").click()
    region = page.get_by_role("region", name="Join code")
    expect(region).to_contain_text(room["join_code"])
    expect(region).to_contain_text("Joining is open")

    button(page, "Close joining").click()
    expect(page.get_by_role("status").filter(has_text="Joining is closed.")).to_be_visible()
    expect(region).to_contain_text("Joining is closed: nobody can join")
    refused, body = api(live_service, "POST", "/classrooms/join/",
                        {"join_code": room["join_code"], "name": "Ann"})
    assert (refused, body["code"]) == (409, "joining_closed")

    button(page, "Reopen joining").click()
    expect(region).to_contain_text("Joining is open")
    join(live_service, room["join_code"], "Ann")

    button(page, "Replace the code").click()
    expect(page.get_by_role("status").filter(has_text="new join code")).to_be_visible()
    status, read = api(live_service, "GET", f"/classrooms/{room['id']}/", key=room["teacher_key"])
    assert status == 200 and read["join_code"] != room["join_code"]
    expect(page.locator("#join-code")).to_have_text(read["join_code"])
    old, body = api(live_service, "POST", "/classrooms/join/",
                    {"join_code": room["join_code"], "name": "Ben"})
    assert (old, body["code"]) == (404, "not_found")
    join(live_service, read["join_code"], "Ben")
    assert expect_every_control_named(page) >= 6
