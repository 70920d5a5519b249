"""Classrooms under racing requests, with real threads on PostgreSQL."""

import threading
import uuid
from collections.abc import Callable

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.conftest import postgres_only

from .conftest import ClassApi


def race(count: int, request: Callable[[APIClient], object]) -> list:
    barrier = threading.Barrier(count)
    answers: list = []

    def run() -> None:
        try:
            barrier.wait()
            answers.append(request(APIClient()))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_one_name_joined_by_racing_students_is_taken_once():
    room = ClassApi(APIClient()).open()

    def join(client: APIClient) -> tuple[int, str | None]:
        response = client.post(
            "/api/v1/classrooms/join/",
            {"join_code": room.join_code, "name": "Ann"},
            format="json",
        )
        return response.status_code, response.json().get("code")

    answers = race(10, join)
    assert sorted(answers, key=str) == [(201, None)] + [(409, "name_taken")] * 9


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_look_alikes_of_one_name_joined_by_racing_students_are_taken_once():
    room = ClassApi(APIClient()).open()
    forms = iter(["Ann", "ANN", "\uff21\uff4e\uff4e", " ann ", "\uff21NN"] * 2)
    lock = threading.Lock()

    def join(client: APIClient) -> tuple[int, str | None]:
        with lock:
            name = next(forms)
        response = client.post(
            "/api/v1/classrooms/join/", {"join_code": room.join_code, "name": name}, format="json"
        )
        return response.status_code, response.json().get("code")

    answers = race(10, join)
    assert sorted(answers, key=str) == [(201, None)] + [(409, "name_taken")] * 9


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("cache", ["test default", "database"])
def test_racing_creates_with_one_key_never_pass_its_quota(settings, cache):
    if cache == "database":
        settings.CACHES = {
            "default": {
                "BACKEND": "games.db.cache.DatabaseCache",
                "LOCATION": "dice_cache",
                "KEY_PREFIX": f"race-{uuid.uuid4().hex}",
            }
        }
    classes = ClassApi(APIClient())
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    quota = {"quota": {"games_per_hour": 5}}
    classes.teacher(f"/api/v1/classrooms/{room.id}/", room.teacher_key, "patch", quota)
    settings.THROTTLE_RATES = {"create": "1000/minute"}

    def create(client: APIClient) -> int:
        body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
        return client.post("/api/v1/games/", body, format="json", HTTP_X_API_KEY=key).status_code

    answers = race(12, create)
    assert sorted(answers) == [201] * 5 + [429] * 7


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_racing_starts_of_an_assignment_give_each_game_number_once(settings):
    """Six racing starts of a four-game assignment by one student: games 1 to 4, each once,
    and two refusals (the assignment's row is locked while a game is started)."""
    settings.THROTTLE_RATES = {}
    classes = ClassApi(APIClient())
    room = classes.open()
    key = classes.join(room, "Ann")["api_key"]
    work = classes.teacher(
        f"/api/v1/classrooms/{room.id}/assignments/", room.teacher_key, "post",
        {"title": "Race", "ruleset": "yatzy", "games": 4, "due_at": "2099-01-01T00:00:00Z"},
    ).json()
    path = f"/api/v1/classrooms/{room.id}/assignments/{work['id']}/games/"

    def start(client: APIClient) -> tuple[int, int | str | None]:
        response = client.post(path, {}, format="json", HTTP_X_API_KEY=key)
        body = response.json()
        return response.status_code, body.get("assignment_game") or body.get("code")

    answers = race(6, start)
    assert sorted(answers, key=str) == [
        (201, 1), (201, 2), (201, 3), (201, 4),
        (409, "assignment_complete"), (409, "assignment_complete"),
    ]
