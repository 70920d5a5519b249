"""/play/ and /teach/ in every language the service speaks, and to everyone: each state of
both pages (a new game, mid-turn, a finished game with its analysis, Ten Thousand's too; the
teacher's sign-in, classroom and results) shows no English in another language, breaks none
of axe-core's WCAG 2.0/2.1/2.2 A and AA rules, and scrolls nowhere sideways at 320 CSS
pixels or at 200 % zoom.

Each language reaches each state once, from games and a classroom made over the API (the
same for every language), so that the six languages together take seconds, not minutes.
"""

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.live.conftest import LiveService

from .accessibility import BROWSER_LANGUAGES, axe_violations, english_left, keep_seat, sideways
from .play import finished_game
from .test_play import finished_ten_thousand
from .test_teach import api, join, play_assignment_game

LANGUAGES = list(BROWSER_LANGUAGES)


@pytest.fixture(scope="module")
def scene(live_service: LiveService) -> dict[str, Any]:
    """What every language is shown: two finished games, a classroom with a student who
    played the assignment's game, and its teacher key."""
    status, classroom = api(live_service, "POST", "/classrooms/", {"name": "5B"})
    assert status == 201, classroom
    key = classroom["teacher_key"]
    student = join(live_service, classroom["join_code"], "Ann")
    body = {"title": "Week 3", "ruleset": "yatzy", "games": 1, "due_at": "2099-01-01T16:00:00Z"}
    status, assignment = api(
        live_service, "POST", f"/classrooms/{classroom['id']}/assignments/", body, key=key
    )
    assert status == 201, assignment
    play_assignment_game(live_service, classroom["id"], assignment["id"], student["api_key"])
    return {
        "mid_turn": mid_turn(live_service, {
            "ruleset": "yahtzee", "seed": 11,
            "players": [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}],
        }),
        "ten_thousand_mid_turn": mid_turn(live_service, {
            "ruleset": "ten-thousand", "seed": 5,
            "players": [{"name": "Ann"}, {"name": "Bot", "computer": "classic"}],
        }),
        "yahtzee": finished_game(live_service, "yahtzee", seed=4)["id"],
        "ten_thousand": finished_ten_thousand(live_service, seed=6)["id"],
        "teacher_key": key,
        "assignment": assignment["id"],
    }


def mid_turn(service: LiveService, body: dict[str, Any]) -> tuple[str, str]:
    """A game against the computer, Ann's dice rolled once; answers its id and Ann's token
    (every language is shown the same turn)."""
    status, game = service.call("POST", "/api/v1/games/", body)
    assert status == 201, game
    token = game["players"][0]["token"]
    status, game = service.call("POST", f"/api/v1/games/{game['id']}/roll/", {}, token=token)
    assert status == 200, game
    return game["id"], token


def check(page: Page, language: str, state: str, problems: list[str]) -> None:
    """Every check of one state of a page; what fails is added to `problems`."""
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    problems.extend(f"{state}: {v}" for v in axe_violations(page))
    problems.extend(f"{state}: scrolls sideways, {s}" for s in sideways(page))
    english = english_left(page, language)
    if english:
        problems.append(f"{state}: English words {english}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_state_of_both_pages_in_every_language(
    new_device, live_service: LiveService, scene: dict[str, Any], language: str
) -> None:
    # The browser's language chooses the page's, with no choice made in the menu.
    device = new_device(locale=BROWSER_LANGUAGES[language])
    page = device.page
    problems: list[str] = []

    page.goto("/play/")
    expect(page.locator("#seat-0-name")).to_be_visible()
    check(page, language, "new game", problems)
    page.locator("#ruleset").select_option("ten-thousand")
    expect(page.locator("#option-target")).to_be_visible()
    check(page, language, "new game of Ten Thousand", problems)

    # This device holds Ann's seat in both games under way.
    for game_id, token in (scene["mid_turn"], scene["ten_thousand_mid_turn"]):
        keep_seat(page, game_id, token)
    page.goto(f"/play/{scene['mid_turn'][0]}/")
    first = page.locator("[data-key=die-0]")
    expect(first).to_be_enabled()
    first.click()
    expect(first).to_have_attribute("aria-pressed", "true")
    page.locator("[data-key=hint]").click()
    expect(page.locator(".hint")).to_be_visible()
    check(page, language, "mid-turn", problems)

    page.goto(f"/play/{scene['ten_thousand_mid_turn'][0]}/")
    expect(page.locator(".actions .help")).to_be_visible()
    check(page, language, "Ten Thousand mid-turn", problems)

    for name in ("yahtzee", "ten_thousand"):
        page.goto(f"/play/{scene[name]}/")
        # The analysis is worked out when first asked for: it may take seconds.
        expect(page.locator(".analysis svg").first).to_be_visible(timeout=30_000)
        check(page, language, f"a finished game of {name} with its analysis", problems)

    page.goto("/teach/")
    expect(page.locator("#teacher-key")).to_be_visible()
    check(page, language, "the teacher's sign-in", problems)
    page.locator("#teacher-key").fill(scene["teacher_key"])
    page.locator("#teacher-key").press("Enter")
    assignment = page.locator(f"[data-key=assignment-{scene['assignment']}]")
    expect(page.locator("table.roster")).to_be_visible()
    check(page, language, "the classroom", problems)
    assignment.click()
    expect(page.locator("#results-table tbody tr")).to_have_count(1)
    check(page, language, "the results", problems)

    assert not problems, "\n".join(problems)


def test_the_language_menu_is_on_every_screen_and_kept_across_reloads(device) -> None:
    page = device.page
    page.goto("/play/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    menu = page.get_by_label("Language")
    with page.expect_navigation():
        menu.select_option("sv")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.get_by_role("heading", level=1)).to_have_text("Nytt spel")
    # The API answers in the page's language too: a refusal comes back in Swedish.
    with page.expect_request(re.compile(r"/api/v1/rulesets/$")) as asked:
        page.reload()
    assert asked.value.headers["accept-language"] == "sv"
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    page.goto("/teach/")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(page.get_by_label("Språk")).to_have_value("sv")
