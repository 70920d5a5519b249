"""Playing together across devices: open seats, join, start, leave, conditional reads."""

import pytest

from .conftest import assert_problem


def join(api, game, name="Cleo", **headers):
    return api.client.post(
        f"/api/v1/games/{game['id']}/join/", {"name": name}, format="json", **headers
    )


def test_a_game_with_open_seats_waits_and_refuses_moves(api):
    game = api.create(("Ann",), open_seats=2)
    assert game["status"] == "waiting" and game["open_seats"] == 2
    assert_problem(api.move(game, "roll"), 409, "game_not_active")
    waiting = api.client.get("/api/v1/games/?status=waiting").json()
    assert [g["id"] for g in waiting["results"]] == [game["id"]]


def test_joining_takes_the_next_seat_and_only_the_new_seat_carries_a_token(api):
    game = api.create(("Ann",), open_seats=2)
    response = join(api, game, "Ben")
    assert response.status_code == 201
    joined = response.json()
    assert [p["name"] for p in joined["players"]] == ["Ann", "Ben"]
    assert "token" not in joined["players"][0] and joined["players"][1]["token"]
    assert joined["status"] == "waiting" and joined["open_seats"] == 1
    assert api.events(game)[-1] == {**api.events(game)[-1], "type": "joined", "seat": 1}


def test_the_game_starts_when_the_last_open_seat_is_taken(api):
    game = api.create(("Ann",), open_seats=1)
    joined = join(api, game, "Ben").json()
    assert joined["status"] == "active" and joined["open_seats"] == 0
    assert [e["type"] for e in api.events(game)] == ["created", "joined", "started"]
    ben = joined["players"][1]["token"]
    api.play_turn(game)
    assert api.ok(game, "roll", token=ben)["current_seat"] == 1


def test_a_full_game_refuses_to_be_joined(api):
    game = api.create(("Ann",), open_seats=1)
    join(api, game, "Ben")
    assert_problem(join(api, game, "Cleo"), 409, "game_full")
    assert_problem(join(api, api.create(("Dan",)), "Eve"), 409, "game_full")


def test_a_seated_person_starts_a_waiting_game_and_open_seats_are_dropped(api):
    game = api.create(("Ann",), open_seats=3)
    join(api, game, "Ben")
    started = api.ok(game, "start")
    assert started["status"] == "active" and started["open_seats"] == 0
    assert len(started["players"]) == 2 and len(started["players"][1]["scorecard"]) == 13
    assert api.events(game)[-1]["type"] == "started"
    assert_problem(api.move(game, "start"), 409, "game_not_active")
    assert_problem(join(api, game), 409, "game_full")


def test_starting_needs_a_seat_token(api):
    game = api.create(("Ann",), open_seats=1)
    assert_problem(api.move(game, "start", token="nope"), 401, "invalid_token")
    assert api.get(game)["status"] == "waiting"


@pytest.mark.parametrize("body", [{}, {"name": ""}, {"name": "x" * 51}])
def test_joining_needs_a_name(api, body):
    game = api.create(("Ann",), open_seats=1)
    response = api.client.post(f"/api/v1/games/{game['id']}/join/", body, format="json")
    assert_problem(response, 400, "invalid")
    assert api.get(game)["open_seats"] == 1


def test_too_many_seats_are_refused(api):
    body = {"ruleset": "yahtzee", "players": [{"name": "A"}, {"name": "B"}], "open_seats": 7}
    assert_problem(api.client.post("/api/v1/games/", body, format="json"), 400, "invalid")


def test_no_seat_token_is_stored_except_as_a_hash(api):
    from games.models import IdempotencyRecord, Player

    game = api.create(("Ann",), open_seats=1)
    joined = join(api, game, "Ben", HTTP_IDEMPOTENCY_KEY="j1").json()
    api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="r1")
    tokens = [game["players"][0]["token"], joined["players"][1]["token"]]
    stored = " ".join(str(r.snapshot) for r in IdempotencyRecord.objects.all())
    stored += " ".join(p.token_hash for p in Player.objects.all())
    assert stored and not any(token in stored for token in tokens)


def test_a_seat_that_leaves_is_skipped_and_its_total_stands(api):
    game = api.create(("Ann", "Ben", "Cleo"))
    api.play_turn(game, seat=0)
    left = api.ok(game, "leave", seat=1)
    assert left["players"][1]["left"] is True and left["current_seat"] == 2
    assert api.events(game)[-1]["type"] == "left"
    api.play_turn(game, seat=2)
    assert api.get(game)["current_seat"] == 0
    assert_problem(api.move(game, "roll", seat=1), 409, "not_your_turn")
    assert_problem(api.move(game, "leave", seat=1), 409, "not_your_turn")


def test_the_game_ends_when_no_person_is_left(api):
    game = api.create(("Ann", "Ben"))
    api.play_turn(game, seat=0)
    api.ok(game, "leave", seat=1)
    ended = api.ok(game, "leave", seat=0)
    assert ended["status"] == "finished" and ended["winners"] == []
    assert [e["type"] for e in api.events(game)][-2:] == ["left", "finished"]


def test_a_game_is_not_resent_when_unchanged(api):
    game = api.create()
    url = f"/api/v1/games/{game['id']}/"
    same = api.client.get(url, HTTP_IF_NONE_MATCH='"1"')
    assert same.status_code == 304 and same["ETag"] == '"1"' and not same.content
    api.ok(game, "roll")
    changed = api.client.get(url, HTTP_IF_NONE_MATCH='"1"')
    assert changed.status_code == 200 and changed["ETag"] == '"2"'


def test_the_log_is_not_resent_when_unchanged(api):
    game = api.create()
    url = f"/api/v1/games/{game['id']}/events/"
    tag = api.client.get(url)["ETag"]
    assert api.client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    api.ok(game, "roll")
    assert api.client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_creating_games_is_throttled(api, settings):
    settings.THROTTLE_RATES = {"create": "2/minute"}
    api.create()
    api.create()
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    response = api.client.post("/api/v1/games/", body, format="json")
    assert_problem(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0


def test_moves_are_throttled(api, settings):
    game = api.create()
    settings.THROTTLE_RATES = {"moves": "1/minute"}
    api.ok(game, "roll")
    response = api.move(game, "roll")
    assert_problem(response, 429, "throttled")
    assert api.get(game)["turn"]["rolls_used"] == 1


def test_leaving_needs_a_well_formed_body(api):
    game = api.create(("Ann", "Ben"))
    token = game["players"][0]["token"]
    url = f"/api/v1/games/{game['id']}/leave/"
    broken = api.client.post(
        url, "{oops", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert_problem(broken, 400, "parse_error")
    plain = api.client.post(
        url, "x", content_type="text/plain", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert_problem(plain, 415, "unsupported_media_type")
    assert api.get(game)["players"][0]["left"] is False


def test_an_abandoned_game_offers_no_choices(api):
    from games.play import services

    game = api.create()
    api.ok(game, "roll")
    services.game_abandon(game_id=game["id"], by="test")
    shown = api.get(game)
    assert (
        shown["status"] == "abandoned" and shown["choices"] == {} and shown["current_seat"] is None
    )
