"""Every classroom answer has the one shape declared for it (``games.api.classrooms.bodies``),
checked recursively on real answers: a classroom opened, joined, its students' games
played, read, listed and ranked, a key rotated and revoked."""

from typing import Any

import pytest

from games.api.classrooms.bodies import (
    ClassEntryBody,
    ClassroomBody,
    ClassroomCreatedBody,
    GamesPageBody,
    JoinedBody,
    StudentKeyBody,
)
from scoring.boxgames.strategy import prepare_table
from tests.shapes import ShapeCheck

from .conftest import Class, ClassApi


@pytest.fixture
def tables(settings, tmp_path) -> None:
    """The Forced Yatzy table, for the roster's accuracy."""
    prepare_table("forced-yatzy", {}, tmp_path)
    settings.STRATEGY_DIR = tmp_path


def test_every_classroom_answer_has_its_shape(classes: ClassApi, tables: None):
    check = ShapeCheck()

    def answer(response: Any, shape: Any, status: int = 200) -> Any:
        assert response.status_code == status, response.content
        check.check(response.json(), shape)
        return response.json()

    created = classes.client.post("/api/v1/classrooms/", {"name": "5B"}, format="json")
    opened = answer(created, ClassroomCreatedBody, 201)
    room = Class(opened["id"], opened["join_code"], opened["teacher_key"])
    for name in ("Ann", "Ben"):
        body = {"join_code": room.join_code, "name": name}
        joined = classes.client.post("/api/v1/classrooms/join/", body, format="json")
        room.students[name] = answer(joined, JoinedBody, 201)
    for name, seed in (("Ann", None), ("Ben", 7)):
        game = classes.create_with(classes.key_of(room, name), ruleset="forced-yatzy", seed=seed)
        classes.play_to_the_end(game.json())
    base = f"/api/v1/classrooms/{room.id}"
    roster = answer(classes.teacher(f"{base}/", room.teacher_key), ClassroomBody)
    assert all(student["rulesets"] for student in roster["students"])
    quota = {"quota": {"games_per_hour": 9}}
    patched = classes.teacher(f"{base}/", room.teacher_key, "patch", quota)
    answer(patched, ClassroomBody)
    answer(classes.teacher(f"{base}/games/?page_size=1", room.teacher_key), GamesPageBody)
    ranked = classes.teacher(f"{base}/leaderboard/?ruleset=forced-yatzy", room.teacher_key)
    assert len(answer(ranked, list[ClassEntryBody])) == 2
    ann = room.students["Ann"]["student"]["id"]
    for action in ("rotate", "revoke"):
        path = f"{base}/students/{ann}/{action}/"
        answer(classes.teacher(path, room.teacher_key, "post"), StudentKeyBody)
    # Every key of the classroom shapes showed; the games' are covered in tests/api.
    assert set(check.unseen()) <= {"PlayerBody", "TurnBody"}
