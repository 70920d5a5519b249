"""A whole game of each family played with the keyboard alone, as a screen reader's user
plays it: Tab to a control (its focus ring visible each time), Enter or Space to use it;
what the page's live region says is heard all along: each roll with its dice, each of the
computer's turns with what it scored or banked, and the end with the totals.
"""

import re
from typing import Any

from playwright.sync_api import Page, expect

from scoring.tenthousand.points import best_free_selection
from tests.live.conftest import LiveService

from .accessibility import LISTEN, heard, keep_seat
from .play import game, ruleset

# The focused control: its accessible name (as the page gives it), whether it is disabled,
# and whether its focus shows (an outline or a ring drawn with a shadow).
FOCUSED = r"""() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  return {
    name: (element.getAttribute("aria-label") || element.textContent || element.value || "")
      .replace(/\s+/g, " ").trim(),
    disabled: Boolean(element.disabled),
    ring: outline || style.boxShadow !== "none",
  };
}"""


def tab_to(page: Page, name: str | re.Pattern[str], *, presses: int = 120) -> None:
    """Press Tab until the focus is on the control named `name`; its focus must show."""
    pattern = re.compile(f"^{re.escape(name)}$") if isinstance(name, str) else name
    for _ in range(presses):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused and pattern.search(focused["name"]) and not focused["disabled"]:
            assert focused["ring"], f"the focus on {focused['name']!r} does not show"
            return
    raise AssertionError(f"Tab never reached a control named {pattern.pattern}")


def press(page: Page, key: str, path: str) -> dict[str, Any]:
    """Press a key on the focused control, which makes a move; answers the game after it."""
    with page.expect_response(lambda r: r.url.endswith(path) and r.request.method == "POST") as r:
        page.keyboard.press(key)
    assert r.value.status == 200, r.value.text()
    return r.value.json()


def start(service: LiveService, page: Page, body: dict[str, Any]) -> str:
    """A game against the computer on this device (Ann's seat); answers its id."""
    status, created = service.call("POST", "/api/v1/games/", body)
    assert status == 201, created
    page.goto("/play/")
    keep_seat(page, created["id"], created["players"][0]["token"])
    page.goto(f"/play/{created['id']}/")
    return created["id"]


def my_turn(service: LiveService, page: Page, game_id: str) -> dict[str, Any]:
    """Wait until the game is over or it is Ann's turn with nothing rolled yet (the computer
    has played), and the page can roll; answers the game."""
    for _ in range(200):
        state = game(service, game_id)
        if state["status"] != "active":
            return state
        if state["current_seat"] == 0 and state["turn"]["dice"] is None:
            expect(page.locator("[data-key=roll]")).to_be_enabled()
            return state
        page.wait_for_timeout(100)
    raise AssertionError("the computer never finished its turn")


def computer_turns(service: LiveService, game_id: str, kinds: set[str]) -> int:
    status, events = service.call("GET", f"/api/v1/games/{game_id}/events/")
    assert status == 200, events
    return sum(1 for e in events if e["seat"] == 1 and e["type"] in kinds)


def expect_told(page: Page, pattern: str) -> None:
    expect(page.locator("#announcer")).to_contain_text(re.compile(pattern))


def test_a_whole_yahtzee_game_by_keyboard_with_every_roll_and_turn_heard(
    device, live_service: LiveService
) -> None:
    page = device.page
    device.context.add_init_script(LISTEN)
    game_id = start(live_service, page, {
        "ruleset": "yahtzee", "seed": 21,
        "players": [{"name": "Ann"}, {"name": "Bot", "computer": "greedy"}],
    })
    rules = ruleset(live_service, "yahtzee")
    names = {c["id"]: c["name"] for c in rules["categories"]}
    rolls = []
    state = my_turn(live_service, page, game_id)
    while state["status"] == "active":
        expect_told(page, r"Your turn, Ann\.")
        tab_to(page, "Roll the dice")
        state = press(page, "Enter", "/roll/")
        rolls.append(" ".join(map(str, state["turn"]["dice"])))
        expect_told(page, rf"Ann rolled {rolls[-1]}\.")
        # Hold the first die and release it again, by Space.
        tab_to(page, re.compile(r"^Die 1: \d$"))
        first = page.locator("[data-key=die-0]")
        page.keyboard.press("Space")
        expect(first).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Space")
        expect(first).to_have_attribute("aria-pressed", "false")
        category, points = max(state["choices"].items(), key=lambda item: item[1])
        tab_to(page, re.compile(rf"^{re.escape(names[category])} \d+"))
        state = press(page, "Enter", "/score/" if points > 0 else "/scratch/")
        state = my_turn(live_service, page, game_id)
    assert state["status"] == "finished" and len(rolls) == 13
    totals = rf"Ann {state['players'][0]['total']} and Bot {state['players'][1]['total']}"
    expect_told(page, rf"Game over: .+ Totals: {totals}\.")
    said = " ".join(heard(page))
    assert all(f"Ann rolled {dice}." in said for dice in rolls)
    bot_turns = computer_turns(live_service, game_id, {"scored", "scratched"})
    assert bot_turns == 13
    assert len(re.findall(r"Bot (scored \d+ in|scratched) ", said)) == bot_turns


def test_a_whole_ten_thousand_game_by_keyboard_with_every_roll_and_bank_heard(
    device, live_service: LiveService
) -> None:
    page = device.page
    device.context.add_init_script(LISTEN)
    game_id = start(live_service, page, {
        "ruleset": "ten-thousand", "seed": 8, "options": {"target": 600, "bank_minimum": 0},
        "players": [{"name": "Ann"}, {"name": "Bot", "computer": "classic"}],
    })
    state = my_turn(live_service, page, game_id)
    rolls = 0
    passed = False
    for _ in range(40):
        if state["status"] != "active":
            break
        expect_told(page, r"Your turn, Ann\.")
        if not passed:
            # The first turn is passed, by keys: the computer plays, then it is Ann's again.
            tab_to(page, "Pass")
            press(page, "Enter", "/pass/")
            passed = True
            expect_told(page, r"Ann passed\.")
            state = my_turn(live_service, page, game_id)
            continue
        tab_to(page, "Roll six dice")
        state = press(page, "Enter", "/roll/")
        rolls += 1
        turn = state["turn"]
        if turn["dice"] is None or state["current_seat"] != 0:
            expect_told(page, r"Ann busted")
            state = my_turn(live_service, page, game_id)
            continue
        expect_told(page, rf"Ann rolled {' '.join(map(str, turn['dice']))}\.")
        for position in best_free_selection(turn["dice"], turn["set_aside"]).positions:
            tab_to(page, re.compile(rf"^Die {position + 1}: \d$"))
            page.keyboard.press("Space")
            chosen = page.locator(f"[data-key=die-{position}]")
            expect(chosen).to_have_attribute("aria-pressed", "true")
        tab_to(page, "Bank")
        state = press(page, "Enter", "/bank/")
        expect_told(page, r"Ann banked \d+")
        state = my_turn(live_service, page, game_id)
    assert state["status"] == "finished" and rolls > 0
    expect_told(page, r"Game over: .+ Totals: Ann [\d,]+ and Bot [\d,]+\.")
    said = " ".join(heard(page))
    bot_turns = computer_turns(live_service, game_id, {"banked", "busted", "passed"})
    assert bot_turns > 0
    assert len(re.findall(r"Bot (banked [\d,]+ \(total|busted with|passed\.)", said)) == bot_turns
