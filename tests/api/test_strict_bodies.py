"""A body is exactly what the schema says, or it is refused and nothing changes.

A misspelled field used to be dropped (a student's ``{"Hold": [0, 1, 2, 3, 4]}`` on /roll/
threw every die) and wrong JSON types were coerced (``"seed": "42"``).
"""

import pytest

from .conftest import assert_problem


def field_errors(response) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in response.json()["errors"]]


def assert_unchanged(api, game, before) -> None:
    after = api.get(game)
    assert after["version"] == before["version"]
    assert after["turn"] == before["turn"]
    assert api.events(game) == api.events(before)


def test_a_misspelled_hold_on_roll_is_refused_and_throws_nothing(api):
    game = api.create()
    rolled = api.ok(game, "roll")
    response = api.move(game, "roll", {"Hold": [0, 1, 2, 3, 4]})
    assert_problem(response, 400, "unknown_field")
    assert field_errors(response) == [("Hold", "unknown_field")]
    assert "Hold" in response.json()["detail"]
    assert_unchanged(api, game, rolled)


@pytest.mark.parametrize(
    "ruleset, action, body, extra",
    [
        ("yahtzee", "roll", {"hold": [0]}, "holds"),
        ("yahtzee", "hold", {"hold": [0]}, "keep"),
        ("yahtzee", "score", {"category": "chance"}, "points"),
        ("yahtzee", "scratch", {"category": "chance"}, "why"),
        ("ten-thousand", "roll", {"set_aside": [0]}, "setaside"),
        ("ten-thousand", "bank", {"set_aside": [0]}, "bank"),
        ("ten-thousand", "pass", {}, "set_aside"),
        ("yahtzee", "leave", {}, "reason"),
    ],
)
def test_every_move_refuses_a_field_it_does_not_know(api, ruleset, action, body, extra):
    game = api.create(("Ann", "Ben"), ruleset=ruleset)
    before = api.ok(game, "roll")
    response = api.move(game, action, {**body, extra: 1})
    assert_problem(response, 400, "unknown_field")
    assert (extra, "unknown_field") in field_errors(response)
    assert_unchanged(api, game, before)


def test_start_and_join_refuse_fields_they_do_not_know(api):
    game = api.create(("Ann",), open_seats=1)
    start = api.move(game, "start", {"now": True})
    assert_problem(start, 400, "unknown_field")
    join = api.client.post(
        f"/api/v1/games/{game['id']}/join/", {"name": "Ben", "seat": 1}, format="json"
    )
    assert_problem(join, 400, "unknown_field")
    assert field_errors(join) == [("seat", "unknown_field")]
    assert api.get(game)["status"] == "waiting" and len(api.get(game)["players"]) == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"ruleset": "yahtzee", "players": [{"name": "Ann"}], "colour": "red"}, "colour"),
        (
            {"ruleset": "yahtzee", "players": [{"name": "Ann", "level": "optimal"}]},
            "players.0.level",
        ),
    ],
)
def test_create_refuses_fields_it_does_not_know(api, body, field):
    from games.models import Game

    response = api.client.post("/api/v1/games/", body, format="json")
    assert_problem(response, 400, "unknown_field")
    assert (field, "unknown_field") in field_errors(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "change, field",
    [
        ({"seed": "42"}, "seed"),
        ({"seed": 4.0}, "seed"),
        ({"seed": True}, "seed"),
        ({"open_seats": "2"}, "open_seats"),
        ({"players": [{"name": 5}]}, "players.0.name"),
        ({"players": [{"name": "Ann", "computer": 1}]}, "players.0.computer"),
        ({"ruleset": 7}, "ruleset"),
        ({"options": ["joker"]}, "options"),
        ({"options": None}, "options"),
    ],
)
def test_create_refuses_wrong_json_types_instead_of_coercing_them(api, change, field):
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}], **change}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert_problem(response, 400, "invalid")
    assert field in [f for f, _ in field_errors(response)]


@pytest.mark.parametrize(
    "action, body, code",
    [
        ("roll", {"hold": "0"}, "invalid_dice"),
        ("roll", {"hold": [True]}, "invalid_dice"),
        ("roll", {"hold": [0.0]}, "invalid_dice"),
        ("hold", {"hold": None}, "invalid"),
        ("score", {"category": 3}, "invalid"),
        ("score", {"category": ["chance"]}, "invalid"),
    ],
)
def test_moves_refuse_wrong_json_types(api, action, body, code):
    game = api.create()
    before = api.ok(game, "roll")
    assert_problem(api.move(game, action, body), 400, code)
    assert_unchanged(api, game, before)


@pytest.mark.parametrize("body", [[], "roll", 3, None])
def test_a_move_body_must_be_a_json_object(api, body):
    game = api.create()
    before = api.get(game)
    response = api.client.post(
        f"/api/v1/games/{game['id']}/roll/",
        body,
        format="json",
        HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}",
    )
    if body is None:  # an empty body is an empty object: the turn's first roll
        assert response.status_code == 200
        return
    assert_problem(response, 400, "invalid")
    assert field_errors(response) == [("body", "invalid")]
    assert_unchanged(api, game, before)


def test_a_box_game_roll_refuses_set_aside_and_ten_thousand_refuses_hold(api):
    yahtzee = api.create()
    before = api.ok(yahtzee, "roll")
    response = api.move(yahtzee, "roll", {"set_aside": [0]})
    assert_problem(response, 400, "invalid")
    assert field_errors(response) == [("set_aside", "invalid")]
    assert_unchanged(api, yahtzee, before)
    ten = api.create(ruleset="ten-thousand")
    response = api.move(ten, "roll", {"hold": [0]})
    assert_problem(response, 400, "invalid")
    assert field_errors(response) == [("hold", "invalid")]
    assert api.get(ten)["turn"]["dice"] is None


@pytest.mark.parametrize(
    "query, field",
    [
        ("page=abc", "page"),
        ("page=", "page"),
        ("page=0", "page"),
        ("status=", "status"),
        ("status=over", "status"),
        ("ruleset=chess", "ruleset"),
        ("page_size=1000", "page_size"),
    ],
)
def test_the_game_list_refuses_a_malformed_query(api, query, field):
    response = api.client.get(f"/api/v1/games/?{query}")
    assert_problem(response, 400, "invalid")
    assert [f for f, _ in field_errors(response)] == [field]


def test_a_page_past_the_last_is_not_found(api):
    api.create()
    assert_problem(api.client.get("/api/v1/games/?page=2"), 404, "not_found")


@pytest.mark.parametrize("query", ["period=", "limit=abc", "limit="])
def test_the_leaderboard_refuses_a_malformed_query(api, query):
    response = api.client.get(f"/api/v1/leaderboard/?ruleset=yahtzee&{query}")
    assert_problem(response, 400, "invalid")
