"""Every ruleset and option played to the end over HTTP, move by move."""

import random

import pytest

from scoring import RULESETS
from scoring.tenthousand.points import best_free_selection

from .conftest import assert_problem

BOX_GAMES = ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy"]
YAHTZEE_OPTIONS = [
    {"joker": joker, "yahtzee_bonus": bonus}
    for joker in ("forced", "free", "none")
    for bonus in ("unlimited", "single", "none")
]


def play_box_game(api, game, rng: random.Random) -> dict:
    """Random legal play: up to three rolls, random holds, a random legal box."""
    seats = len(game["players"])
    boxes = len(game["players"][0]["scorecard"])
    for _ in range(boxes * seats):
        seat = api.get(game)["current_seat"]
        shown = api.ok(game, "roll", seat=seat)
        while shown["turn"]["rolls_left"] and rng.random() < 0.5:
            hold = [i for i in range(len(shown["turn"]["dice"])) if rng.random() < 0.5]
            shown = api.ok(game, "roll", {"hold": hold}, seat=seat)
        box = rng.choice(sorted(shown["choices"]))
        action = "scratch" if rng.random() < 0.1 else "score"
        after = api.ok(game, action, {"category": box}, seat=seat)
        expected = 0 if action == "scratch" else shown["choices"][box]
        assert after["players"][seat]["scorecard"][box] == expected
    return after


@pytest.mark.parametrize("ruleset", BOX_GAMES)
@pytest.mark.parametrize("seats", [1, 3])
def test_a_box_game_is_played_to_the_end(api, ruleset, seats):
    game = api.create(tuple(f"P{i}" for i in range(seats)), ruleset=ruleset, seed=seats)
    meta = RULESETS[ruleset]
    assert list(game["players"][0]["scorecard"]) == [c.id for c in meta.categories]
    assert len(game["turn"]["dice"] or [0] * meta.dice) == meta.dice
    last = play_box_game(api, game, random.Random(seats))
    assert last["status"] == "finished"
    totals = [p["total"] for p in last["players"]]
    assert last["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    finished = api.events(game)[-1]
    assert finished["type"] == "finished" and finished["data"]["totals"] == totals


@pytest.mark.parametrize(
    "options", YAHTZEE_OPTIONS, ids=lambda o: f"{o['joker']}-{o['yahtzee_bonus']}"
)
def test_every_yahtzee_house_rule_plays_to_the_end(api, options):
    game = api.create(("Ann", "Ben"), options=options, seed=5)
    assert game["options"] == options
    assert play_box_game(api, game, random.Random(5))["status"] == "finished"


def test_forced_yatzy_offers_only_the_next_box(api):
    game = api.create(ruleset="forced-yatzy")
    rolled = api.ok(game, "roll")
    assert list(rolled["choices"]) == ["ones"]
    assert_problem(api.move(game, "score", {"category": "chance"}), 409, "category_not_allowed")
    assert_problem(api.move(game, "scratch", {"category": "twos"}), 409, "category_not_allowed")
    api.ok(game, "scratch", {"category": "ones"})
    assert list(api.ok(game, "roll")["choices"]) == ["twos"]


def test_maxi_yatzy_saves_unused_rolls_for_the_same_player(api):
    game = api.create(("Ann", "Ben"), ruleset="maxi-yatzy")
    assert len(api.ok(game, "roll")["turn"]["dice"]) == 6
    api.ok(game, "scratch", {"category": "ones"})
    assert api.get(game)["turn"]["rolls_left"] == 3  # Ben has saved nothing
    api.play_turn(game, seat=1)
    assert api.get(game)["turn"]["rolls_left"] == 5  # Ann saved two


def test_yatzy_players_show_no_yahtzee_bonus(api):
    player = api.create(ruleset="yatzy")["players"][0]
    assert "yahtzee_bonus" not in player and len(player["scorecard"]) == 15


@pytest.mark.parametrize(
    "options",
    [{"target": 1000}, {"target": 1000, "final_round": True}, {"target": 2000, "bank_minimum": 0}],
    ids=["first-to-target", "final-round", "no-minimum"],
)
@pytest.mark.parametrize("seats", [1, 3])
def test_ten_thousand_is_played_to_the_end(api, options, seats):
    game = api.create(
        tuple(f"P{i}" for i in range(seats)), ruleset="ten-thousand", options=options, seed=seats
    )
    assert all("scorecard" not in p for p in game["players"])
    rng = random.Random(seats)
    banked = [0] * seats
    shown = game
    for _ in range(2000):
        if shown["status"] == "finished":
            break
        seat, turn = shown["current_seat"], shown["turn"]
        if turn["dice"] is None:
            shown = api.ok(game, "roll", seat=seat)
            continue
        take = best_free_selection(turn["dice"], turn["set_aside"]).positions
        if turn["can_bank"] and rng.random() < 0.6:
            shown = api.ok(game, "bank", {"set_aside": take}, seat=seat)
            banked[seat] = shown["players"][seat]["total"]
        else:
            shown = api.ok(game, "roll", {"set_aside": take}, seat=seat)
    assert shown["status"] == "finished" and shown["winners"]
    totals = [p["total"] for p in shown["players"]]
    assert totals == banked
    assert shown["winners"] == [s for s, t in enumerate(totals) if t == max(totals)]
    assert max(totals) >= options["target"]
    log = api.events(game)
    banks = [e for e in log if e["type"] == "banked"]
    assert sum(e["data"]["points"] for e in banks) == sum(totals)
    assert log[-1]["type"] == "finished"


def test_ten_thousand_refuses_bad_selections_and_low_banks(api):
    game = api.create(ruleset="ten-thousand", seed=1)
    assert_problem(api.move(game, "bank", {"set_aside": [0]}), 409, "roll_first")
    assert_problem(api.move(game, "roll", {"set_aside": [0]}), 409, "roll_first")
    shown = api.ok(game, "roll")
    while shown["current_seat"] is None or shown["turn"]["dice"] is None:
        shown = api.ok(game, "roll")
    turn = shown["turn"]
    assert turn["throw_points_available"] is True and len(turn["dice"]) == 6
    best = best_free_selection(turn["dice"], turn["set_aside"])
    dead = [i for i in range(6) if i not in best.positions]
    if dead:
        assert_problem(api.move(game, "roll", {"set_aside": dead[:1]}), 409, "not_scoring")
    assert_problem(api.move(game, "roll", {"set_aside": []}), 409, "not_scoring")
    assert_problem(api.move(game, "roll", {"set_aside": [6]}), 400, "invalid_dice")
    if best.points < 350:
        assert_problem(api.move(game, "bank", {"set_aside": best.positions}), 409, "bank_too_low")
    assert api.get(game)["version"] == shown["version"]
    passed = api.ok(game, "pass")
    assert api.events(game)[-1]["type"] == "passed" and passed["turn"]["dice"] is None


def test_ten_thousand_calculator(api):
    url = "/api/v1/rulesets/ten-thousand/score/"
    answers = {
        (1, 1, 1): (1000, True),
        (1, 5): (150, True),
        (5, 5, 5): (500, True),
        (2, 2): (0, False),
        (1, 1, 1, 5, 5, 5): (1500, True),
        (1, 1, 1, 1): (2000, True),
        (1, 2, 3, 4, 5, 6): (2000, True),
    }
    for dice, (points, scoring) in answers.items():
        body = api.client.post(url, {"dice": list(dice)}, format="json").json()
        assert body == {"points": points, "scoring": scoring}, dice
    assert_problem(api.client.post(url, {"dice": [1] * 7}, format="json"), 400, "invalid_dice")


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("ten-thousand", {"target": 75}),
        ("ten-thousand", {"final_round": 1}),
        ("ten-thousand", {"bank_minimum": -50}),
        ("yatzy", {"joker": "free"}),
    ],
)
def test_options_are_validated_per_ruleset(api, ruleset, options):
    body = {"ruleset": ruleset, "players": [{"name": "Ann"}], "options": options}
    assert_problem(api.client.post("/api/v1/games/", body, format="json"), 400, "invalid")


def test_every_ruleset_is_listed_with_its_boxes_options_and_seats(api):
    listed = {r["id"]: r for r in api.client.get("/api/v1/rulesets/").json()}
    assert list(listed) == ["yahtzee", "yatzy", "forced-yatzy", "maxi-yatzy", "ten-thousand"]
    assert [len(listed[r]["categories"]) for r in listed] == [13, 15, 15, 20, 0]
    assert [listed[r]["dice"] for r in listed] == [5, 5, 5, 6, 6]
    assert listed["ten-thousand"]["options"]["target"]["default"] == 10000
    assert listed["ten-thousand"]["options"]["final_round"]["values"] == [False, True]
    assert listed["ten-thousand"]["moves"] == ["bank", "pass", "roll"]
    assert all((r["min_players"], r["max_players"]) == (1, 8) for r in listed.values())
