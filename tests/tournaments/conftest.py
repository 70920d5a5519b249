"""Helpers for tournaments: a classroom, its teacher's calls, and the worker's steps."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import assert_problem, no_throttles, run_due_work  # noqa: F401
from tests.classrooms.conftest import Class, ClassApi


class Arena(ClassApi):
    def path(self, room: Class, tail: str = "") -> str:
        return f"/api/v1/classrooms/{room.id}/tournaments/{tail}"

    def set(self, room: Class, key: str | None = None, **fields: Any):
        body = {"title": "Cup", "ruleset": "yahtzee", "seats": 2, "boards": 1, **fields}
        return self.teacher(self.path(room), key or room.teacher_key, "post", body)

    def set_ok(self, room: Class, key: str | None = None, **fields: Any) -> dict[str, Any]:
        response = self.set(room, key, **fields)
        assert response.status_code == 201, response.json()
        return response.json()

    def read(self, room: Class, tid: str, tail: str = "", key: str | None = None):
        return self.teacher(self.path(room, f"{tid}/{tail}"), key or room.teacher_key)

    def games(self, room: Class, tid: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        page = 1
        while True:
            body = self.read(room, tid, f"games/?page={page}&page_size=100").json()
            found += body["results"]
            if body["next"] is None:
                return found
            page += 1


@pytest.fixture
def arena(db: None) -> Arena:
    return Arena(APIClient())


@pytest.fixture
def room(arena: Arena) -> Class:
    return arena.open()


def computers(*levels: str) -> list[dict[str, str]]:
    return [{"computer": level} for level in levels]
