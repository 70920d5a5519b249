"""Locust users for ``tests/bench/run.py``: whole games played as fast as the service answers.

Each user is one closed-loop client (no think time): it creates a Yahtzee solitaire game and
plays it to the end, 13 turns of roll, roll keeping two dice, hold three, roll, then scoring
the box worth most (``WatchedPlayer``: games made beforehand, which streams follow).
``DeckPlayer`` does the same with the Deck of Cards API, for comparison:
a new shuffled deck, then its 52 cards drawn one at a time.

Requests are named by endpoint (``create``, ``roll``, ``hold``, ``score``, ``new deck``,
``draw``), so Locust's statistics give the rate and percentiles of each.
"""

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from locust import FastHttpUser, task

API = "/api/v1"
TURNS = 13


class Player(FastHttpUser):
    abstract = False
    new_game = {"ruleset": "yahtzee", "players": [{"name": "Bench"}]}

    def _move(self, game_id: str, token: str, action: str, body: dict[str, Any]) -> Any:
        with self.client.post(
            f"{API}/games/{game_id}/{action}/",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
            name=action,
            catch_response=True,
        ) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}: {answer.text[:200]}")
                return None
            return answer.json()

    @task
    def play_a_game(self) -> None:
        with self.client.post(
            f"{API}/games/",
            json=self.new_game,
            name="create",
            catch_response=True,
        ) as created:
            if created.status_code != 201:
                created.failure(f"{created.status_code}: {created.text[:200]}")
                return
            game = created.json()
        self.play(*self.chosen(game["id"], game["players"][0]["token"]))

    def chosen(self, game_id: str, token: str) -> tuple[str, str]:
        """The game to play: the one just created."""
        return game_id, token

    def play(self, game_id: str, token: str) -> None:
        for _ in range(TURNS):
            if self._move(game_id, token, "roll", {}) is None:
                return
            if self._move(game_id, token, "roll", {"hold": [0, 1]}) is None:
                return
            if self._move(game_id, token, "hold", {"hold": [0, 1, 2]}) is None:
                return
            rolled = self._move(game_id, token, "roll", {})
            if rolled is None:
                return
            best = max(rolled["choices"], key=rolled["choices"].get)
            if self._move(game_id, token, "score", {"category": best}) is None:
                return


class ClockedPlayer(Player):
    """The same games, each with a turn clock of an hour: every move sets the next deadline,
    and no clock fires during the phase."""

    new_game = {**Player.new_game, "clock": {"turn_seconds": 3600}}


def _watched() -> Iterator[tuple[str, str]]:
    """The games named in the file ``BENCH_WATCHED`` names (a JSON list of [id, token]), in
    order, each once across this process's users."""
    path = os.environ.get("BENCH_WATCHED")
    if path:
        yield from (tuple(pair) for pair in json.loads(Path(path).read_text()))


WATCHED = _watched()


class WatchedPlayer(Player):
    """The same games, but each user plays, in turn, the games made before the phase that
    event streams follow (``BENCH_WATCHED``), so every move is sent to streams of its game.
    It still creates a game each time, so its requests are those of ``Player``; once the
    watched games run out it plays the one it created."""

    def chosen(self, game_id: str, token: str) -> tuple[str, str]:
        return next(WATCHED, (game_id, token))


class DeckPlayer(FastHttpUser):
    """The Deck of Cards API (``/api/deck/...``), served separately."""

    @task
    def draw_a_deck(self) -> None:
        with self.client.get(
            "/api/deck/new/shuffle/?deck_count=1", name="new deck", catch_response=True
        ) as created:
            if created.status_code != 200:
                created.failure(f"{created.status_code}")
                return
            deck = created.json()["deck_id"]
        for _ in range(52):
            with self.client.get(
                f"/api/deck/{deck}/draw/?count=1", name="draw", catch_response=True
            ) as drawn:
                if drawn.status_code != 200 or not drawn.json().get("success"):
                    drawn.failure(f"{drawn.status_code}: {drawn.text[:100]}")
                    return
