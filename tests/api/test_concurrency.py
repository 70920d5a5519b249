"""Racing moves on one game, with real threads on PostgreSQL."""

import threading

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from games.db.gamestore import game_lock
from games.models import Game, Player
from tests.conftest import postgres_only

from .conftest import Api


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_twenty_threads_rolling_one_fresh_turn_get_exactly_three_rolls():
    game = Api(APIClient()).create()
    barrier = threading.Barrier(20)
    answers: list[tuple[int, str | None]] = []

    def roll() -> None:
        client = APIClient()
        try:
            barrier.wait()
            response = client.post(
                f"/api/v1/games/{game['id']}/roll/",
                {},
                format="json",
                HTTP_AUTHORIZATION=f"Bearer {game['players'][0]['token']}",
            )
            answers.append((response.status_code, response.json().get("code")))
        finally:
            connection.close()

    threads = [threading.Thread(target=roll) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers) == [(200, None)] * 3 + [(409, "no_rolls_left")] * 17
    api = Api(APIClient())
    assert [e["type"] for e in api.events(game)].count("rolled") == 3
    assert api.get(game)["version"] == 4


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_change_waiting_for_the_lock_reads_the_seats_the_holder_committed():
    """The game and its seats are read in one call (games.db.gamestore); the seats' read must still
    come after the lock is granted, so a seat joined meanwhile is seen."""
    game = Api(APIClient()).create(("Ann",), open_seats=1)
    locked, read = threading.Event(), []

    def hold_the_lock_and_seat_bob() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game["id"])
                locked.set()
                threading.Event().wait(0.5)  # the other change is waiting for the lock now
                Player.objects.create(game_id=game["id"], seat=1, name="Bob")
        finally:
            connection.close()

    def read_the_seats() -> None:
        try:
            locked.wait()
            with transaction.atomic():
                read.extend(p.name for p in game_lock(game["id"]).players)
        finally:
            connection.close()

    threads = [threading.Thread(target=f) for f in (hold_the_lock_and_seat_bob, read_the_seats)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert read == ["Ann", "Bob"]
