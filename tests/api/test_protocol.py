"""Versions, conditional moves and safe retries."""

import pytest

from .conftest import assert_problem


@pytest.mark.parametrize("header", ['"1"', "1", 'W/"1"', "*"])
def test_a_move_with_the_current_version_goes_through(api, header):
    game = api.create()
    assert api.move(game, "roll", HTTP_IF_MATCH=header).status_code == 200


@pytest.mark.parametrize("header", ['"2"', '"0"', "garbage", '""'])
def test_a_move_on_a_stale_version_is_refused_and_changes_nothing(api, header):
    game = api.create()
    assert_problem(api.move(game, "roll", HTTP_IF_MATCH=header), 412, "version_mismatch")
    assert api.get(game)["version"] == 1 and len(api.events(game)) == 1


def test_the_version_grows_by_one_with_every_change(api):
    game = api.create()
    versions = [
        api.ok(game, action, body)["version"]
        for action, body in [
            ("roll", None),
            ("hold", {"hold": [0]}),
            ("roll", None),
            ("scratch", {"category": "ones"}),
        ]
    ]
    assert versions == [2, 3, 4, 5]


def test_a_retried_move_replays_the_first_answer_without_moving_again(api):
    game = api.create()
    first = api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and again["ETag"] == '"2"'
    assert api.get(game)["turn"]["rolls_used"] == 1
    assert [e["type"] for e in api.events(game)] == ["created", "rolled"]


def test_a_retry_after_the_game_moved_on_still_replays(api):
    game = api.create()
    first = api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="a", HTTP_IF_MATCH='"1"').json()
    api.ok(game, "roll")
    again = api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="a", HTTP_IF_MATCH='"1"')
    assert again.status_code == 200 and again.json() == first


def test_a_key_reused_for_another_request_is_refused(api):
    game = api.create()
    api.ok(game, "roll", HTTP_IDEMPOTENCY_KEY="k")
    assert_problem(
        api.move(game, "hold", {"hold": [1]}, HTTP_IDEMPOTENCY_KEY="k"),
        422,
        "idempotency_key_reused",
    )
    assert_problem(
        api.move(game, "roll", {"hold": [1]}, HTTP_IDEMPOTENCY_KEY="k"),
        422,
        "idempotency_key_reused",
    )
    assert api.get(game)["version"] == 2


def test_a_refused_move_does_not_use_up_its_key(api):
    game = api.create()
    assert (
        api.move(game, "score", {"category": "chance"}, HTTP_IDEMPOTENCY_KEY="z").status_code == 409
    )
    api.ok(game, "roll")
    assert (
        api.move(game, "score", {"category": "chance"}, HTTP_IDEMPOTENCY_KEY="z").status_code == 200
    )


def test_keys_belong_to_one_game(api):
    one, two = api.create(), api.create()
    api.ok(one, "roll", HTTP_IDEMPOTENCY_KEY="same")
    assert api.move(two, "roll", HTTP_IDEMPOTENCY_KEY="same").json()["id"] == two["id"]


def test_an_overlong_key_is_refused(api):
    game = api.create()
    assert_problem(api.move(game, "roll", HTTP_IDEMPOTENCY_KEY="k" * 256), 400, "invalid")
