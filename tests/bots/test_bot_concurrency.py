"""Bots under racing requests, with real threads on PostgreSQL."""

import pytest
from rest_framework.test import APIClient

from tests.classrooms.test_concurrency import race
from tests.conftest import postgres_only

from .conftest import BotApi


def _register(key: str, name: str):
    def request(client: APIClient) -> tuple[int, str | None]:
        response = client.post("/api/v1/bots/", {"name": name(), "rulesets": ["yatzy"]},
                               format="json", HTTP_X_API_KEY=key)
        return response.status_code, response.json().get("code")

    return request


@postgres_only
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_bot_name_registered_by_racing_keys_is_taken_once() -> None:
    bots = BotApi(APIClient())
    room = bots.open()
    keys = iter([bots.join(room, f"S{n}")["api_key"] for n in range(6)])
    answers = race(6, lambda client: _register(next(keys), lambda: "Gus")(client))
    assert sorted(answers, key=str) == [(201, None)] + [(409, "name_taken")] * 5


@postgres_only
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_registrations_of_one_key_stop_at_ten() -> None:
    bots = BotApi(APIClient())
    room = bots.open()
    ann = bots.join(room, "Ann")["api_key"]
    for n in range(7):
        bots.register(ann, f"Early {n}")
    names = iter(f"Late {n}" for n in range(6))
    answers = race(6, _register(ann, lambda: next(names)))
    assert sorted(answers, key=str) == [(201, None)] * 3 + [(409, "too_many_bots")] * 3
    assert len(bots.call("get", "/api/v1/bots/", ann).json()) == 10


@postgres_only
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_bot_joining_one_game_twice_at_once_takes_one_seat() -> None:
    bots = BotApi(APIClient())
    room = bots.open()
    ann = bots.join(room, "Ann")["api_key"]
    gus = bots.register(ann, "Gus")
    game = bots.seat(ann, [{"name": "Ann"}], open_seats=3).json()

    def join(client: APIClient) -> tuple[int, str | None]:
        response = client.post(f"/api/v1/games/{game['id']}/join/", {"bot": gus["id"]},
                               format="json", HTTP_X_API_KEY=ann)
        return response.status_code, response.json().get("code")

    answers = race(4, join)
    assert sorted(answers, key=str) == [(201, None)] + [(400, "invalid")] * 3
    seats = bots.get(game)["players"]
    assert [s["bot"] for s in seats] == [None, gus["id"]]
