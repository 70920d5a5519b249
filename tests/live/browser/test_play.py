"""Whole games of every ruleset through /play/, in a real Chromium, by accessible names."""

import re

import pytest
from playwright.sync_api import expect

from scoring.tenthousand.points import best_free_selection

from .play import (
    JOIN,
    ROLL,
    START,
    box,
    button,
    click_move,
    die,
    expect_boxes_match,
    finished_game,
    game,
    play_box_game_to_the_end,
    play_box_turn,
    play_ten_thousand_to_the_end,
    ruleset,
    settled,
    start_game,
)


def test_a_chosen_die_is_not_drawn_again_when_something_else_on_the_screen_changes(
    device, live_service
):
    """The dice stay the same elements while only another part changes (here a hint comes),
    so a click under way on a die when the game's news arrives is never lost."""
    page = device.page
    start_game(page, "yahtzee", seed=7)
    click_move(page, button(page, ROLL), "/roll/")
    chosen = die(page, 1)
    chosen.click()
    expect(chosen).to_have_attribute("aria-pressed", "true")
    chosen.evaluate("(element) => { window.chosenDie = element; }")
    with page.expect_response(lambda r: r.url.endswith("/hint/")):
        button(page, "Hint").click()
    expect(page.get_by_text(re.compile("^Hint: "))).to_be_visible()
    assert chosen.evaluate("(element) => element === window.chosenDie && element.isConnected")
    expect(chosen).to_have_attribute("aria-pressed", "true")


def test_a_yahtzee_game_with_held_dice_a_reload_and_the_log(device, live_service):
    page = device.page
    game_id = start_game(page, "yahtzee", seed=7)
    assert page.url.endswith(f"/play/{game_id}/")
    rules = ruleset(live_service, "yahtzee")
    expect_boxes_match(page, rules, {})  # nothing may be filled before the first roll

    first = click_move(page, button(page, ROLL), "/roll/")
    for number in (1, 2):
        control = die(page, number)
        value = first["turn"]["dice"][number - 1]
        expect(control).to_have_accessible_name(f"Die {number}: {value}")
        control.click()
        expect(control).to_have_attribute("aria-pressed", "true")
    expect(die(page, 3)).to_have_attribute("aria-pressed", "false")

    # A reload keeps the seat (its token is kept in the browser) and the game's address.
    page.reload()
    expect(button(page, ROLL)).to_be_enabled()
    expect(page.get_by_role("status")).to_contain_text("Your turn")
    for number in (1, 2):
        die(page, number).click()

    with page.expect_request(lambda r: r.url.endswith("/roll/")) as sent:
        button(page, ROLL).click()
    assert sent.value.post_data_json == {"hold": [0, 1]}
    second = game(live_service, game_id)
    assert second["turn"]["dice"][:2] == first["turn"]["dice"][:2]
    expect(button(page, ROLL)).to_have_accessible_name(re.compile(r"^Roll.*1 left"))
    expect_boxes_match(page, rules, second["choices"])

    finished = play_box_game_to_the_end(page, live_service, game_id)
    total = finished["players"][0]["total"]
    expect(page.get_by_role("status")).to_contain_text(f"{total} points")
    log = page.get_by_role("list", name="Events of the game")
    expect(log).to_contain_text("Ann rolled")
    expect(log).to_contain_text("Game over: Ann wins")
    # The analysis shows only where the service answers it; no error either way.
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("ruleset_id", ["yatzy", "forced-yatzy"])
def test_two_people_on_one_device_play_a_whole_game(device, live_service, ruleset_id):
    page = device.page
    game_id = start_game(page, ruleset_id, names=("Ann", "Ben"), seed=11)
    state = game(live_service, game_id)
    assert [p["name"] for p in state["players"]] == ["Ann", "Ben"]
    finished = play_box_game_to_the_end(page, live_service, game_id)
    assert all(None not in p["scorecard"].values() for p in finished["players"])


def test_maxi_yatzy_against_a_computer_with_a_hint(device, live_service):
    page = device.page
    game_id = start_game(page, "maxi-yatzy", names=("Ann", "Bot"), computers={1: "greedy"}, seed=5)
    rules = ruleset(live_service, "maxi-yatzy")
    click_move(page, button(page, ROLL), "/roll/")
    with page.expect_response(lambda r: r.url.endswith("/hint/")) as hint:
        button(page, "Hint").click()
    assert hint.value.status == 200
    expect(page.get_by_text(re.compile("^Hint: "))).to_be_visible()
    state = game(live_service, game_id)
    category, points = max(state["choices"].items(), key=lambda item: item[1])
    name = next(c["name"] for c in rules["categories"] if c["id"] == category)
    after = click_move(page, box(page, name), "/score/" if points else "/scratch/")
    # The computer seat has played its turn within the move's request: Ann's turn again.
    assert after["current_seat"] == 0
    expect(page.get_by_role("list", name="Events of the game")).to_contain_text("Bot ")
    finished = play_box_game_to_the_end(page, live_service, game_id)
    assert len(finished["players"][1]["scorecard"]) == len(rules["categories"])


def test_ten_thousand_to_a_low_target_shows_busts_and_passes(device, live_service):
    page = device.page
    game_id = start_game(
        page, "ten-thousand", options={"target": 2000, "bank_minimum": 0}, seed=5
    )
    state = game(live_service, game_id)
    assert state["options"]["target"] == 2000 and state["options"]["bank_minimum"] == 0

    click_move(page, button(page, ROLL), "/roll/")
    expect(button(page, "Bank")).to_be_disabled()  # nothing chosen yet
    with page.expect_response(lambda r: r.url.endswith("/hint/")) as hint:
        button(page, "Hint").click()
    assert hint.value.status == 200
    passed = click_move(page, button(page, "Pass"), "/pass/")
    assert passed["turn"]["dice"] is None
    expect(page.get_by_role("list", name="Events of the game")).to_contain_text("Ann passed")

    finished, busts = play_ten_thousand_to_the_end(page, live_service, game_id)
    assert finished["players"][0]["total"] >= 2000
    assert busts >= 1, "this seed's game has a bust: the page must have shown it"


def test_a_refused_game_shows_a_readable_message(device):
    page = device.page
    device.recorder.allowed_errors.append("status of 400")  # the browser logs the refusal
    page.goto("/play/")
    button(page, START).click()
    expect(page.get_by_role("alert")).to_have_text("Enter your name.")
    page.get_by_label("Name", exact=True).fill("Ann")
    page.get_by_label("Seed (optional)").fill("99999999999999999999")
    button(page, START).click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text(re.compile(r"^Seed: ensure this value .+\.", re.IGNORECASE))
    expect(page).to_have_url(re.compile(r"/play/$"))


def test_a_phone_sized_screen_plays_without_sideways_scrolling(new_device, live_service):
    device = new_device(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = device.page
    game_id = start_game(page, "yahtzee", names=("Ann", "Ben"), seed=2)
    rules = ruleset(live_service, "yahtzee")
    play_box_turn(page, live_service, game_id, rules)
    settled(page, live_service, game_id)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    for control in (button(page, ROLL), die(page, 5), box(page, "Chance")):
        control.scroll_into_view_if_needed()
        expect(control).to_be_in_viewport(ratio=1)


def test_two_devices_play_one_game_by_its_link_and_see_each_other_live(new_device, live_service):
    ann_device, cleo_device = new_device(), new_device()
    ann, cleo = ann_device.page, cleo_device.page
    game_id = start_game(ann, "yahtzee", open_seats=1, seed=21)
    expect(ann.get_by_role("status")).to_contain_text("Waiting for 1 more player")
    link = ann.get_by_label("Link to share").input_value()
    assert link.endswith(f"/play/{game_id}/")

    cleo.goto(link)
    cleo.get_by_label("Name", exact=True).fill("Cleo")
    with cleo.expect_response(lambda r: r.url.endswith("/join/")) as joined:
        button(cleo, JOIN).click()
    assert joined.value.status == 201
    # Ann's screen learns from the event stream that the game has begun.
    expect(ann.get_by_role("status")).to_contain_text("Your turn, Ann")
    expect(cleo.get_by_role("status")).to_contain_text("Waiting for Ann")
    expect(button(cleo, ROLL)).to_be_disabled()

    # Once both screens have every event, nothing happens: neither asks anything more
    # (no polling; the stream is enough).
    for page in (ann, cleo):
        settled(page, live_service, game_id)
    asked = len(ann_device.recorder.requests), len(cleo_device.recorder.requests)
    ann.wait_for_timeout(2500)
    assert (len(ann_device.recorder.requests), len(cleo_device.recorder.requests)) == asked

    rules = ruleset(live_service, "yahtzee")
    pages = {0: ann, 1: cleo}
    state = game(live_service, game_id)
    turns = 0
    while state["status"] == "active":
        mover, watcher = pages[state["current_seat"]], pages[1 - state["current_seat"]]
        rolled = click_move(mover, button(mover, ROLL), "/roll/")
        # The other screen shows the very dice, without a reload.
        for number, value in enumerate(rolled["turn"]["dice"], start=1):
            expect(die(watcher, number)).to_have_accessible_name(f"Die {number}: {value}")
        expect(box(watcher, rules["categories"][0]["name"])).to_be_disabled()
        category, points = max(rolled["choices"].items(), key=lambda item: item[1])
        name = next(c["name"] for c in rules["categories"] if c["id"] == category)
        state = click_move(mover, box(mover, name), "/score/" if points else "/scratch/")
        if state["status"] == "active":
            expect(watcher.get_by_role("status")).to_contain_text("Your turn")
        turns += 1
    assert turns == 26
    for page in (ann, cleo):
        expect(page.get_by_role("status")).to_contain_text("Game over")


ANALYSIS = {
    "method": "optimal",
    "seats": [{"seat": 0, "name": "Ann", "expected_start": 254.59, "expected_loss": 31.5,
               "accuracy": 71.2, "luck": -12.0,
               "counts": {"best": 20, "inaccuracy": 3, "mistake": 2, "blunder": 1}}],
    "decisions": [{"seq": 2, "seat": 0, "round": 1, "kind": "box", "dice": [1, 2, 3, 3, 6],
                   "rolls_left": 2, "chosen": "ones", "best": [3, 3], "chosen_value": 200.0,
                   "best_value": 230.5, "loss": 30.5, "label": "blunder"}],
}


def test_the_analysis_shows_after_the_game_where_the_service_answers_it(device, live_service):
    finished = finished_game(live_service, "yatzy", seed=3)
    page = device.page
    schema_path = "/api/v1/games/{id}/analysis/"
    # A service that has the analysis endpoint: its schema lists it, and it answers.
    page.route("**/api/v1/schema/?format=json", lambda route: route.fulfill(
        json={"openapi": "3.0.3", "paths": {schema_path: {}}}))
    page.route(f"**/api/v1/games/{finished['id']}/analysis/",
               lambda route: route.fulfill(json=ANALYSIS))
    page.goto(f"/play/{finished['id']}/")
    analysis = page.get_by_role("region", name="Analysis")
    expect(analysis).to_contain_text("71.2")
    expect(analysis).to_contain_text("1 blunder")
    analysis.get_by_text("Decisions that cost points").click()
    expect(analysis).to_contain_text("chose Ones, best was keep 3 3 (blunder")


def test_the_service_analysis_shows_after_a_solved_game_and_none_after_maxi_yatzy(
    device, live_service
):
    yahtzee = finished_game(live_service, "yahtzee", seed=4)
    page = device.page
    page.goto(f"/play/{yahtzee['id']}/")
    expect(page.get_by_role("status")).to_contain_text("Game over")
    status, answer = live_service.call("GET", f"/api/v1/games/{yahtzee['id']}/analysis/")
    assert status == 200
    analysis = page.get_by_role("region", name="Analysis")
    expect(analysis).to_contain_text(f"{answer['seats'][0]['accuracy']:.1f}")
    expect(page.get_by_role("alert")).to_be_hidden()

    maxi = finished_game(live_service, "maxi-yatzy", seed=4)
    page.goto(f"/play/{maxi['id']}/")
    expect(page.get_by_role("status")).to_contain_text("Game over")
    page.wait_for_load_state("networkidle")
    expect(page.get_by_role("region", name="Analysis")).to_have_count(0)
    expect(page.get_by_role("alert")).to_be_hidden()
    # Maxi Yatzy has no solved strategy, so no analysis: the page does not even ask.
    assert not [url for url in device.recorder.requests if url.endswith(f"{maxi['id']}/analysis/")]


def finished_ten_thousand(live_service, seed: int) -> dict:
    """Ann against the `classic` computer to 2000, over the API: every scoring die, then a
    bank as soon as the turn may bank."""
    body = {
        "ruleset": "ten-thousand", "seed": seed, "options": {"target": 2000},
        "players": [{"name": "Ann"}, {"name": "Bot", "computer": "classic"}],
    }
    status, state = live_service.call("POST", "/api/v1/games/", body)
    assert status == 201, state
    token = state["players"][0]["token"]
    moves = f"/api/v1/games/{state['id']}"
    while state["status"] == "active":
        turn = state["turn"]
        if turn["dice"] is None:
            status, state = live_service.call("POST", f"{moves}/roll/", {}, token=token)
            continue
        take = best_free_selection(turn["dice"], turn["set_aside"]).positions
        move = "bank" if turn["can_bank"] else "roll"
        status, state = live_service.call("POST", f"{moves}/{move}/", {"set_aside": take},
                                          token=token)
        assert status == 200, state
    return state


def test_the_analysis_of_ten_thousand_charts_the_chance_of_winning(device, live_service):
    finished = finished_ten_thousand(live_service, seed=6)
    page = device.page
    page.goto(f"/play/{finished['id']}/")
    expect(page.get_by_role("status")).to_contain_text("Game over")
    status, answer = live_service.call("GET", f"/api/v1/games/{finished['id']}/analysis/")
    assert status == 200 and answer["objective"] == "win_probability"
    analysis = page.get_by_role("region", name="Analysis")
    (ann,) = answer["seats"]
    expect(analysis).to_contain_text(f"{ann['accuracy']:.1f}")
    expect(analysis).to_contain_text(f"{100 * ann['expected_loss']:.1f}")
    chart = analysis.get_by_role("img", name="Chance of winning (%) after each decision of Ann")
    expect(chart).to_be_visible()
    if any(d["label"] != "best" for d in answer["decisions"]):
        analysis.get_by_text("Decisions that cost percentage points").click()
        expect(analysis).to_contain_text("set aside")
    expect(page.get_by_role("alert")).to_be_hidden()
