"""Playing through /play/ the way a person does: by the controls' accessible names.

The test reads the truth from the API (the game, the rulesets) and checks that the page
shows it: which boxes may be filled, which dice are held, whose turn it is.
"""

import re
from typing import Any

from playwright.sync_api import Page, expect

from scoring.tenthousand.points import best_free_selection
from tests.live.conftest import LiveService

GAME_URL = re.compile(r"/play/([0-9a-f-]{36})/$")
ROLL = re.compile(r"^Roll")
START = re.compile(r"^Start")
JOIN = re.compile(r"^Join")


def button(page: Page, name: str | re.Pattern[str]):
    return page.get_by_role("button", name=name)


def die(page: Page, number: int):
    return page.get_by_role("button", name=re.compile(rf"^Die {number}\b"))


def box(page: Page, name: str):
    # Its name is what it shows: the box, then the points it would score now (if open).
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}( \d+\b|$)"))


def start_game(
    page: Page,
    ruleset: str,
    *,
    names: tuple[str, ...] = ("Ann",),
    computers: dict[int, str] | None = None,
    options: dict[str, Any] | None = None,
    open_seats: int = 0,
    seed: int | None = None,
) -> str:
    """Fill the start form and answer the new game's id (from the address bar)."""
    page.goto("/play/")
    page.get_by_label("Ruleset").select_option(ruleset)
    page.get_by_label("Name", exact=True).fill(names[0])
    for index, name in enumerate(names[1:], start=2):
        button(page, "Add a player").click()
        page.get_by_label(f"Player {index}", exact=True).fill(name)
    for seat, strategy in (computers or {}).items():
        page.get_by_label(f"Player {seat + 1} is").select_option(strategy)
    for option, value in (options or {}).items():
        field = page.locator(f"#option-{option}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    if open_seats:
        page.get_by_label("Seats left open for others").fill(str(open_seats))
    if seed is not None:
        page.get_by_label("Seed (optional)").fill(str(seed))
    button(page, START).click()
    expect(page).to_have_url(GAME_URL)
    return GAME_URL.search(page.url).group(1)


def game(service: LiveService, game_id: str, token: str | None = None) -> dict[str, Any]:
    """The game, read with its seat's token if given (a game of an assignment is private
    until its deadline)."""
    status, body = service.call("GET", f"/api/v1/games/{game_id}/", token=token)
    assert status == 200, body
    return body


def ruleset(service: LiveService, ruleset_id: str) -> dict[str, Any]:
    status, body = service.call("GET", f"/api/v1/rulesets/{ruleset_id}/")
    assert status == 200, body
    return body


def click_move(page: Page, control, path: str) -> dict[str, Any]:
    """Click a control that makes a move and answer the game the move's answer holds."""
    with page.expect_response(lambda r: r.url.endswith(path) and r.request.method == "POST") as r:
        control.click()
    answer = r.value
    assert answer.status == 200, answer.text()
    return answer.json()


def expect_boxes_match(page: Page, rules: dict[str, Any], choices: dict[str, int]) -> None:
    """Each box button is enabled exactly when the game allows filling it."""
    for category in rules["categories"]:
        control = box(page, category["name"])
        if category["id"] in choices:
            expect(control).to_be_enabled()
        else:
            expect(control).to_be_disabled()


def play_box_turn(page: Page, service: LiveService, game_id: str, rules: dict[str, Any]) -> dict:
    """Roll once, then fill the box worth most; answers the game after the turn."""
    state = click_move(page, button(page, ROLL), "/roll/")
    expect(die(page, 1)).not_to_have_accessible_name(re.compile("not thrown"))
    expect_boxes_match(page, rules, state["choices"])
    category, points = max(state["choices"].items(), key=lambda item: item[1])
    name = next(c["name"] for c in rules["categories"] if c["id"] == category)
    return click_move(page, box(page, name), "/score/" if points > 0 else "/scratch/")


def play_box_game_to_the_end(
    page: Page, service: LiveService, game_id: str, *, token: str | None = None,
    turns: int = 200,
) -> dict[str, Any]:
    state = game(service, game_id, token)
    rules = ruleset(service, state["ruleset"])
    for _ in range(turns):
        if state["status"] == "finished":
            break
        expect(page.get_by_role("status")).to_contain_text("Your turn")
        state = play_box_turn(page, service, game_id, rules)
    assert state["status"] == "finished"
    expect(page.get_by_role("status")).to_contain_text("Game over")
    return state


def play_ten_thousand_to_the_end(
    page: Page, service: LiveService, game_id: str, *, turns: int = 80
) -> tuple[dict[str, Any], int]:
    """Set aside every scoring die and throw on while three or more dice are free (or hot
    dice), else bank. Answers the finished game and how many turns busted."""
    state = game(service, game_id)
    busts = 0
    for _ in range(turns):
        if state["status"] == "finished":
            break
        expect(button(page, ROLL)).to_be_enabled()
        state = click_move(page, button(page, ROLL), "/roll/")
        while state["status"] == "active" and state["turn"]["dice"] is not None:
            turn = state["turn"]
            best = best_free_selection(turn["dice"], turn["set_aside"])
            for position in best.positions:
                control = die(page, position + 1)
                control.click()
                expect(control).to_have_attribute("aria-pressed", "true")
            free = turn["set_aside"].count(False) - len(best.positions)
            if free == 0 or free >= 3:
                state = click_move(page, button(page, ROLL), "/roll/")
            else:
                state = click_move(page, button(page, "Bank"), "/bank/")
        if state["turn"].get("last_bust"):
            busts += 1
            bust = page.get_by_role("region", name="Bust")
            expect(bust).to_contain_text("busted")
            thrown = state["turn"]["last_bust"]["thrown"]
            expect(bust.get_by_role("img", name=re.compile(", thrown$"))).to_have_count(len(thrown))
    assert state["status"] == "finished"
    expect(page.get_by_role("status")).to_contain_text("Game over")
    return state, busts


def finished_game(service: LiveService, ruleset_id: str, seed: int) -> dict[str, Any]:
    """A solitaire game played to its end over the API: the first legal box each turn."""
    body = {"ruleset": ruleset_id, "players": [{"name": "Ann"}], "seed": seed}
    status, state = service.call("POST", "/api/v1/games/", body)
    assert status == 201, state
    token = state["players"][0]["token"]
    moves = f"/api/v1/games/{state['id']}"
    while state["status"] == "active":
        status, state = service.call("POST", f"{moves}/roll/", {}, token=token)
        category = next(iter(state["choices"]))
        status, state = service.call("POST", f"{moves}/score/", {"category": category}, token=token)
        assert status == 200, state
    return state


def settled(page: Page, service: LiveService, game_id: str) -> None:
    """Wait until the page shows every event of the game's log (no refresh is pending)."""
    status, events = service.call("GET", f"/api/v1/games/{game_id}/events/")
    assert status == 200, events
    log = page.get_by_role("list", name="Events of the game").get_by_role("listitem")
    expect(log).to_have_count(len(events))
    page.wait_for_timeout(300)  # the refresh that the last event asked for
