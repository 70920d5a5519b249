"""Simultaneous moves on SQLite, through the real server: they queue, none fails.

A turn has three rolls. Twenty rolls sent at the same instant must give exactly three
successes and seventeen refusals for ``no_rolls_left``, with the log and the version
telling the same story. PostgreSQL's row locks are pinned by the API tests; this is the
SQLite path (``BEGIN IMMEDIATE`` with a busy timeout), which only a real multi-threaded
server exercises.
"""

import threading
from collections import Counter
from typing import Any

import pytest

from .conftest import LiveService

pytestmark = pytest.mark.live

ROLLERS = 20
ROLLS_PER_TURN = 3


def test_twenty_simultaneous_rolls_give_three_rolls_and_seventeen_refusals(
    sqlite_live_service: LiveService,
) -> None:
    service = sqlite_live_service
    status, game = service.call(
        "POST", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    )
    assert status == 201, game
    token = game["players"][0]["token"]
    roll = f"/api/v1/games/{game['id']}/roll/"

    start = threading.Barrier(ROLLERS)
    answers: list[tuple[int, Any]] = []

    def roller() -> None:
        connection = service.connection()
        try:
            connection.connect()
            start.wait(timeout=30)
            answers.append(service.call("POST", roll, {}, token=token, connection=connection))
        finally:
            connection.close()

    threads = [threading.Thread(target=roller) for _ in range(ROLLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert len(answers) == ROLLERS, f"only {len(answers)} answers:\n{service.log_tail()}"
    outcomes = Counter(
        (status, body.get("code", "moved") if isinstance(body, dict) else body)
        for status, body in answers
    )
    expected = {(200, "moved"): ROLLS_PER_TURN, (409, "no_rolls_left"): ROLLERS - ROLLS_PER_TURN}
    assert outcomes == expected, f"{outcomes}\n{service.log_tail()}"

    status, events = service.call("GET", f"/api/v1/games/{game['id']}/events/")
    assert status == 200, events
    assert [e["type"] for e in events].count("rolled") == ROLLS_PER_TURN
    status, final = service.call("GET", f"/api/v1/games/{game['id']}/")
    assert status == 200, final
    assert final["version"] == game["version"] + ROLLS_PER_TURN == 4
    assert final["turn"]["rolls_left"] == 0
