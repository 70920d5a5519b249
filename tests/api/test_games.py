"""Creating, reading and listing games."""

import uuid

import pytest

from .conftest import assert_problem


def test_create_answers_the_new_game_with_a_token_per_person(api):
    game = api.create(("Ann", "Ben"))
    assert game["status"] == "active"
    assert game["ruleset"] == "yahtzee"
    assert game["options"] == {"yahtzee_bonus": "unlimited", "joker": "forced"}
    assert game["version"] == 1
    assert game["round"] == 1 and game["current_seat"] == 0
    assert game["turn"] == {"dice": None, "held": [False] * 5, "rolls_used": 0, "rolls_left": 3}
    assert game["choices"] == {}
    assert [p["name"] for p in game["players"]] == ["Ann", "Ben"]
    tokens = [p["token"] for p in game["players"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 32 for t in tokens)
    assert game["ranked"] is True and game["seed"] is None
    assert all(value is None for value in game["players"][0]["scorecard"].values())
    assert len(game["players"][0]["scorecard"]) == 13


def test_tokens_are_shown_only_when_created(api):
    game = api.create(("Ann", "Ben"))
    shown = api.get(game)
    assert all("token" not in p for p in shown["players"])
    listed = api.client.get("/api/v1/games/").json()["results"][0]
    assert all("token" not in p for p in listed["players"])


def test_tokens_are_stored_only_as_hashes(api):
    from games.models import Player

    game = api.create()
    stored = Player.objects.get(game_id=game["id"])
    assert game["players"][0]["token"] not in stored.token_hash
    assert len(stored.token_hash) == 64


def test_a_seeded_game_is_unranked(api):
    game = api.create(seed=42)
    assert game["ranked"] is False and game["seed"] == 42


def test_house_rule_options_are_stored_and_shown(api):
    game = api.create(options={"joker": "free", "yahtzee_bonus": "none"})
    assert api.get(game)["options"] == {"joker": "free", "yahtzee_bonus": "none"}


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ruleset": "chess", "players": [{"name": "Ann"}]}, "unknown_ruleset"),
        ({"ruleset": "yahtzee", "players": []}, "invalid"),
        ({"ruleset": "yahtzee", "players": [{"name": f"P{i}"} for i in range(9)]}, "invalid"),
        ({"ruleset": "yahtzee", "players": [{"name": ""}]}, "invalid"),
        ({"ruleset": "yahtzee", "players": [{"name": "x" * 51}]}, "invalid"),
        (
            {"ruleset": "yahtzee", "players": [{"name": "Ann"}], "options": {"joker": "sometimes"}},
            "invalid",
        ),
        (
            {"ruleset": "yahtzee", "players": [{"name": "Ann"}], "options": {"speed": "fast"}},
            "invalid",
        ),
        ({"ruleset": "yahtzee", "players": [{"name": "Ann"}], "options": []}, "invalid"),
        ({"ruleset": "yahtzee", "players": [{"name": "Ann"}], "seed": "abc"}, "invalid"),
        ({"ruleset": "yahtzee", "players": [{"name": "Ann"}], "seed": 2**70}, "invalid"),
        ({"ruleset": "yahtzee", "players": "Ann"}, "invalid"),
        ({"players": [{"name": "Ann"}]}, "invalid"),
    ],
    ids=[
        "unknown-ruleset",
        "no-players",
        "nine-players",
        "empty-name",
        "long-name",
        "bad-option-value",
        "unknown-option",
        "options-not-object",
        "seed-not-int",
        "seed-too-big",
        "players-not-list",
        "no-ruleset",
    ],
)
def test_a_bad_game_is_refused_with_a_clear_problem(api, body, code):
    from games.models import Game

    response = api.client.post("/api/v1/games/", body, format="json")
    problem = assert_problem(response, 400, code)
    assert problem["errors"] and all(
        {"field", "code", "detail"} <= set(e) for e in problem["errors"]
    )
    assert not Game.objects.exists()


def test_the_game_answer_carries_its_version_as_etag(api):
    game = api.create()
    response = api.client.get(f"/api/v1/games/{game['id']}/")
    assert response["ETag"] == '"1"'
    moved = api.move(game, "roll")
    assert moved["ETag"] == '"2"' and moved.json()["version"] == 2


def test_an_unknown_game_is_not_found(api):
    assert_problem(api.client.get(f"/api/v1/games/{uuid.uuid4()}/"), 404, "not_found")
    assert_problem(api.client.get("/api/v1/games/123/"), 404, "not_found")


def test_games_are_listed_newest_first_and_paginated(api):
    made = [api.create((f"P{i}",))["id"] for i in range(25)]
    page = api.client.get("/api/v1/games/").json()
    assert page["count"] == 25
    assert [g["id"] for g in page["results"]] == made[::-1][:20]
    second = api.client.get(page["next"]).json()
    assert [g["id"] for g in second["results"]] == made[::-1][20:]
    small = api.client.get("/api/v1/games/?page_size=5").json()
    assert len(small["results"]) == 5


def test_games_are_filtered_by_status_ruleset_and_player(api):
    ann = api.create(("Ann",))
    api.create(("Ben", "Cleo"))
    by_player = api.client.get("/api/v1/games/?player=ann").json()
    assert [g["id"] for g in by_player["results"]] == [ann["id"]]
    assert api.client.get("/api/v1/games/?status=finished").json()["count"] == 0
    assert api.client.get("/api/v1/games/?status=active&ruleset=yahtzee").json()["count"] == 2


@pytest.mark.parametrize("query", ["status=sleeping", "ruleset=chess", "page_size=abc"])
def test_a_bad_filter_is_a_client_error(api, query):
    api.create()
    response = api.client.get(f"/api/v1/games/?{query}")
    assert response.status_code in (200, 400)  # page_size falls back to the default
    if response.status_code == 400:
        assert_problem(response, 400, "invalid")


def test_a_page_past_the_end_is_not_found(api):
    api.create()
    assert_problem(api.client.get("/api/v1/games/?page=9"), 404, "not_found")
