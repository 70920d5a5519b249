"""Helpers for tournaments: a classroom, its teacher's calls, and the worker's steps."""

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Bot, Game, Student, Tournament
from games.names import name_key
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


def bot(room: Class, name: str, *, student: str | None = None,
        rulesets: tuple[str, ...] = ("yahtzee", "yatzy")) -> str:
    """A bot of the classroom (its teacher's, or a student's), as registering one makes it."""
    owner = Student.objects.get(classroom_id=room.id, name=student) if student else None
    made = Bot.objects.create(
        classroom_id=room.id, student=owner, name=name, name_key=name_key(name),
        rulesets=list(rulesets),
    )
    return str(made.id)


def time_passes(tournament_id: str) -> None:
    """Every deadline of the tournament's games passes, and its next step is due."""
    past = timezone.now() - dt.timedelta(seconds=1)
    Game.objects.filter(tournament_id=tournament_id, deadline__isnull=False).update(deadline=past)
    Tournament.objects.filter(pk=tournament_id, next_step_at__isnull=False).update(
        next_step_at=past
    )


def run_to_the_end(tournament_id: str, *, most: int = 400) -> int:
    """The worker's sweeps, with every deadline passing at once (bots that never move),
    until the tournament is over; answers how many sweeps it took."""
    for sweeps in range(1, most + 1):
        time_passes(tournament_id)
        run_due_work()
        if Tournament.objects.get(pk=tournament_id).over:
            return sweeps
    raise AssertionError(f"not over after {most} sweeps")
