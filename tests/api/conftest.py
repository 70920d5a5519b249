"""Helpers for talking to the API the way a client does: JSON over HTTP."""

from typing import Any

import pytest
from rest_framework.test import APIClient

PROBLEM = "application/problem+json"


class Api:
    def __init__(self, client: APIClient) -> None:
        self.client = client

    def create(self, names: tuple[str, ...] = ("Ann",), **fields: Any) -> dict[str, Any]:
        body = {"ruleset": "yahtzee", "players": [{"name": n} for n in names], **fields}
        response = self.client.post("/api/v1/games/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    def move(
        self,
        game: dict[str, Any],
        action: str,
        body: dict[str, Any] | None = None,
        *,
        token: str | None = None,
        seat: int = 0,
        **headers: str,
    ):
        token = token if token is not None else game["players"][seat]["token"]
        return self.client.post(
            f"/api/v1/games/{game['id']}/{action}/",
            body or {},
            format="json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
            **headers,
        )

    def ok(
        self, game: dict[str, Any], action: str, body: dict[str, Any] | None = None, **kw: Any
    ) -> dict[str, Any]:
        response = self.move(game, action, body, **kw)
        assert response.status_code == 200, response.json()
        return response.json()

    def get(self, game: dict[str, Any]) -> dict[str, Any]:
        return self.client.get(f"/api/v1/games/{game['id']}/").json()

    def events(self, game: dict[str, Any], after: int = 0) -> list[dict[str, Any]]:
        return self.client.get(f"/api/v1/games/{game['id']}/events/?after={after}").json()

    def play_turn(self, game: dict[str, Any], seat: int = 0) -> dict[str, Any]:
        """Roll once and score the first legal box."""
        rolled = self.ok(game, "roll", seat=seat)
        return self.ok(game, "score", {"category": next(iter(rolled["choices"]))}, seat=seat)


@pytest.fixture
def api(db: None) -> Api:
    return Api(APIClient())


def assert_problem(response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["title"] and body["detail"] and body["type"]
    return body


@pytest.fixture(autouse=True)
def no_throttles(settings) -> None:
    """Tests make requests much faster than any person; the throttle tests set rates."""
    settings.THROTTLE_RATES = {}


def run_due_work() -> None:
    """The work due now is done, as a worker's sweep does it (clocks, closings, webhook
    deliveries), in this thread; then this stops. (The worker itself runs in tests/live, in
    a process of its own.)"""
    from games.hooks.sending import deliver_due
    from games.work.sweeps import run_due

    run_due()
    deliver_due()
