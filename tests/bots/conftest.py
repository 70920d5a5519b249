"""Helpers for bots: a classroom with students, their bots, games that seat them."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import assert_problem, no_throttles  # noqa: F401
from tests.classrooms.conftest import Class, ClassApi


class BotApi(ClassApi):
    def call(self, method: str, path: str, key: str | None, body: Any = None):
        headers = {"HTTP_X_API_KEY": key} if key is not None else {}
        if method == "get":
            return self.client.get(path, **headers)
        return getattr(self.client, method)(path, body or {}, format="json", **headers)

    def register(self, key: str, name: str = "Gus", rulesets: tuple[str, ...] = (
        "yahtzee", "ten-thousand",
    )) -> dict[str, Any]:
        response = self.call("post", "/api/v1/bots/", key,
                             {"name": name, "rulesets": list(rulesets)})
        assert response.status_code == 201, response.json()
        return response.json()

    def seat(self, key: str | None, players: list[dict[str, Any]], ruleset: str = "yahtzee",
             **fields: Any):
        return self.call("post", "/api/v1/games/", key,
                         {"ruleset": ruleset, "players": players, **fields})


@pytest.fixture
def bots(db: None) -> BotApi:
    return BotApi(APIClient())


@pytest.fixture
def room(bots: BotApi) -> Class:
    """5B with Ann and Ben."""
    room = bots.open()
    bots.join(room, "Ann")
    bots.join(room, "Ben")
    return room
