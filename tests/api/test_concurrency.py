"""Racing moves on one game, with real threads on PostgreSQL."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

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
