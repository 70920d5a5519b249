"""Helpers for classrooms: open one, join it, call with a key."""

from dataclasses import dataclass, field
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import Api, assert_problem, no_throttles  # noqa: F401


@dataclass
class Class:
    id: str
    join_code: str
    teacher_key: str
    students: dict[str, dict[str, Any]] = field(default_factory=dict)


class ClassApi(Api):
    def open(self, name: str = "5B") -> Class:
        response = self.client.post("/api/v1/classrooms/", {"name": name}, format="json")
        assert response.status_code == 201, response.json()
        body = response.json()
        return Class(body["id"], body["join_code"], body["teacher_key"])

    def join(self, room: Class, name: str) -> dict[str, Any]:
        response = self.client.post(
            "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": name}, format="json"
        )
        assert response.status_code == 201, response.json()
        room.students[name] = response.json()
        return response.json()

    def key_of(self, room: Class, name: str) -> str:
        return room.students[name]["api_key"]

    def create_with(self, key: str, names: tuple[str, ...] = ("Ann",), **fields: Any):
        body = {"ruleset": "yahtzee", "players": [{"name": n} for n in names], **fields}
        return self.client.post("/api/v1/games/", body, format="json", HTTP_X_API_KEY=key)

    def teacher(self, path: str, key: str | None, method: str = "get", body: Any = None):
        headers = {"HTTP_X_API_KEY": key} if key is not None else {}
        call = getattr(self.client, method)
        if method == "get":
            return call(path, **headers)
        return call(path, body if body is not None else {}, format="json", **headers)

    def play_to_the_end(self, created: dict[str, Any]) -> dict[str, Any]:
        """Rolls once and scores the first legal box each turn, to the last turn."""
        game = created
        while game["status"] == "active":
            game = self.play_turn(created)
        return game


@pytest.fixture
def classes(db: None) -> ClassApi:
    return ClassApi(APIClient())
