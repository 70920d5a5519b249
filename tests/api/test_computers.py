"""Computer seats, hints and advice over HTTP."""

import pytest

from scoring.boxgames.strategy import prepare_table
from scoring.tenthousand.strategy.tables import load_tables

from .conftest import assert_problem


@pytest.fixture(scope="module")
def tables(strategy_tables):
    """A folder with the Forced Yatzy table and Ten Thousand's default one, built ahead as
    `manage.py build_strategy` does."""
    prepare_table("forced-yatzy", {}, strategy_tables)
    load_tables(350, strategy_tables)
    return strategy_tables


@pytest.fixture(autouse=True)
def strategy_dir(settings, tables) -> None:
    settings.STRATEGY_DIR = tables


def create(api, players, ruleset="yahtzee", **fields):
    body = {"ruleset": ruleset, "players": players, **fields}
    return api.client.post("/api/v1/games/", body, format="json")


def test_a_game_of_computers_is_played_to_the_end_at_once(api):
    response = create(api, [{"name": "Bot", "computer": "optimal"}], "forced-yatzy", seed=1)
    game = response.json()
    assert response.status_code == 201 and game["status"] == "finished"
    assert "token" not in game["players"][0]
    log = api.events(game)
    assert sum(e["type"] in ("scored", "scratched") for e in log) == 15
    assert all(e["seat"] == 0 for e in log if e["type"] in ("rolled", "scored", "scratched"))


@pytest.mark.parametrize("level", ["random", "greedy", "optimal"])
def test_a_computer_seat_plays_its_turn_right_after_the_person(api, level):
    ruleset = "forced-yatzy" if level == "optimal" else "yahtzee"
    game = create(api, [{"name": "Ann"}, {"name": "Bot", "computer": level}], ruleset).json()
    assert game["status"] == "active" and game["current_seat"] == 0
    after = api.play_turn(game)
    assert after["current_seat"] == 0 and after["round"] == 2
    bot_card = after["players"][1]["scorecard"]
    assert sum(v is not None for v in bot_card.values()) == 1
    bot_moves = [e for e in api.events(game) if e["seat"] == 1]
    assert bot_moves[0]["type"] == "rolled" and bot_moves[-1]["type"] in ("scored", "scratched")


@pytest.mark.parametrize("level", ["random", "greedy", "classic", "optimal"])
def test_ten_thousand_computer_seats_play_after_the_person(api, level):
    players = [{"name": "Ann"}, {"name": "Bot", "computer": level}]
    game = create(api, players, "ten-thousand", seed=4).json()
    after = api.ok(game, "pass")
    assert after["current_seat"] == 0
    assert any(e["seat"] == 1 for e in api.events(game))


def test_a_game_with_computers_is_reproducible_from_its_seed(api):
    def play() -> list:
        players = [{"name": "Ann"}, {"name": "Bot", "computer": "random"}]
        game = create(api, players, seed=9).json()
        for _ in range(3):
            api.play_turn(game)
        return [(e["type"], e["seat"], e["data"]) for e in api.events(game)]

    assert play() == play()


@pytest.mark.parametrize(
    ("ruleset", "level"), [("yahtzee", "classic"), ("yahtzee", "genius"), ("ten-thousand", "x")]
)
def test_an_unknown_computer_level_is_refused(api, ruleset, level):
    response = create(api, [{"name": "Bot", "computer": level}], ruleset)
    problem = assert_problem(response, 400, "invalid")
    assert problem["errors"][0]["field"] == "players.0.computer"


def test_the_hint_at_the_start_is_the_value_of_the_empty_card(api):
    game = create(api, [{"name": "Ann"}], "forced-yatzy").json()
    hint = api.client.get(f"/api/v1/games/{game['id']}/hint/").json()
    assert hint["seat"] == 0 and hint["method"] == "optimal"
    assert hint["expected_final"] == pytest.approx(122.5585, abs=0.001)
    assert hint["best"] is None and hint["options"] == []


def test_the_hint_after_a_roll_lists_every_keep_and_the_legal_box(api):
    game = create(api, [{"name": "Ann"}], "forced-yatzy").json()
    rolled = api.ok(game, "roll")
    hint = api.client.get(f"/api/v1/games/{game['id']}/hint/").json()
    scores = [o for o in hint["options"] if o["action"] == "score"]
    assert [o["category"] for o in scores] == list(rolled["choices"]) == ["ones"]
    keeps = {
        tuple(sorted(rolled["turn"]["dice"][i] for i in o["hold"]))
        for o in hint["options"]
        if o["action"] == "roll"
    }
    assert len(keeps) == len([o for o in hint["options"] if o["action"] == "roll"])
    assert hint["best"] == hint["options"][0]
    assert hint["expected_final"] == max(o["expected_final"] for o in hint["options"])


def test_the_hint_without_a_table_is_the_strongest_computer_move(api):
    game = create(api, [{"name": "Ann"}], "maxi-yatzy", seed=2).json()
    api.ok(game, "roll")
    hint = api.client.get(f"/api/v1/games/{game['id']}/hint/").json()
    assert hint["method"] == "heuristic" and hint["expected_final"] is None
    assert hint["best"]["action"] in ("roll", "score")


def test_no_hint_for_a_finished_game(api):
    game = create(api, [{"name": "Bot", "computer": "greedy"}], "forced-yatzy").json()
    assert_problem(api.client.get(f"/api/v1/games/{game['id']}/hint/"), 409, "game_not_active")


def test_stateless_advice_values_a_described_position(api):
    url = "/api/v1/rulesets/forced-yatzy/advice/"
    start = api.client.post(url, {"dice": None}, format="json").json()
    assert start["expected_final"] == pytest.approx(122.5585, abs=0.001)
    body = {"scorecard": {"ones": 3}, "dice": [2, 2, 2, 5, 6], "rolls_left": 1}
    advice = api.client.post(url, body, format="json").json()
    assert advice["options"][0] == advice["best"]
    assert {o["action"] for o in advice["options"]} == {"roll", "score"}
    assert [o["category"] for o in advice["options"] if o["action"] == "score"] == ["twos"]
    last = api.client.post(url, {**body, "rolls_left": 0}, format="json").json()
    assert [o["action"] for o in last["options"]] == ["score"]


@pytest.mark.parametrize(
    ("ruleset", "body", "status", "code"),
    [
        ("maxi-yatzy", {"dice": None}, 400, "invalid"),
        ("forced-yatzy", {"dice": [1, 2, 3]}, 400, "invalid_dice"),
        ("forced-yatzy", {"dice": [1, 2, 3, 4, 5], "rolls_left": 3}, 400, "invalid"),
        ("forced-yatzy", {"scorecard": {"nope": 1}}, 400, "unknown_category"),
        ("yahtzee", {"yahtzee_bonus": 10**400}, 400, "invalid"),
        ("yahtzee", {"dice": [1, 2, 3, 4, 5], "scorecard": {"chance": 10**400}}, 400, "invalid"),
        ("chess", {}, 404, "not_found"),
    ],
)
def test_bad_advice_requests_are_refused(api, ruleset, body, status, code):
    response = api.client.post(f"/api/v1/rulesets/{ruleset}/advice/", body, format="json")
    assert_problem(response, status, code)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "value"),
    [
        ({}, 254.5877),
        ({"joker": "free"}, 254.5896),
        ({"yahtzee_bonus": "none", "joker": "none"}, 245.8708),
    ],
)
def test_yahtzee_advice_reproduces_the_published_values(api, tables, options, value):
    prepare_table("yahtzee", options, tables)
    body = {"dice": None, "options": options}
    advice = api.client.post("/api/v1/rulesets/yahtzee/advice/", body, format="json").json()
    assert advice["expected_final"] == pytest.approx(value, abs=0.001)


@pytest.mark.parametrize(
    "options, field",
    [
        ({"target": 10_050}, "options.target"),
        ({"bank_minimum": 400}, "options.bank_minimum"),
    ],
)
def test_a_game_of_computers_only_beyond_the_standard_length_is_refused(api, options, field):
    players = [{"name": f"Bot{i}", "computer": "random"} for i in range(8)]
    refused = create(api, players, "ten-thousand", options=options)
    assert_problem(refused, 400, "invalid")
    assert refused.json()["errors"][0]["field"] == field
    from games.models import Game

    assert not Game.objects.exists()


def test_the_same_options_are_allowed_when_a_person_plays(api):
    players = [{"name": "Ann"}, {"name": "Bot", "computer": "random"}]
    created = create(api, players, "ten-thousand", options={"target": 100_000})
    assert created.status_code == 201


def test_the_largest_game_of_computers_only_is_played_to_its_end_at_once(api):
    players = [{"name": f"Bot{i}", "computer": "random"} for i in range(8)]
    game = create(api, players, "ten-thousand", options={"target": 10_000}, seed=3).json()
    assert game["status"] == "finished"
    assert max(p["total"] for p in game["players"]) >= 10_000
