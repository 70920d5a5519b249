"""A database that cannot be reached: 503 ``database_unavailable`` with ``Retry-After`` on
every endpoint, whether Django raises in a DRF view, in a plain view or in a middleware
(the admin's sessions), and normal answers as soon as it is back.

Here the connection is made to fail in-process; tests/live/test_database_outage.py takes a
real database away from a running service.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.utils import InterfaceError, OperationalError
from django.test import Client

from .conftest import PROBLEM

FAILURES = [
    OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused"),
    InterfaceError("connection already closed"),
]


@contextmanager
def database_gone(monkeypatch: pytest.MonkeyPatch, error: Exception) -> Iterator[None]:
    """Every new cursor fails as Django's wrapper raises it when the server is gone."""

    def fail() -> None:
        raise error

    with monkeypatch.context() as patch:
        patch.setattr(connection, "_cursor", fail)
        yield


@pytest.fixture
def client(db: None) -> Client:
    return Client(raise_request_exception=False)


@pytest.fixture
def game(client: Client) -> dict:
    body = {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    return client.post("/api/v1/games/", body, content_type="application/json").json()


def requests_for(game: dict) -> dict[str, tuple[str, str, dict, dict]]:
    gid, token = game["id"], game["players"][0]["token"]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    create = {"ruleset": "yahtzee", "players": [{"name": "Ben"}]}
    return {
        "health": ("get", "/api/v1/health/", {}, {}),
        "list": ("get", "/api/v1/games/", {}, {}),
        "read": ("get", f"/api/v1/games/{gid}/", {}, {}),
        "read_if_none_match": ("get", f"/api/v1/games/{gid}/", {}, {"HTTP_IF_NONE_MATCH": '"1"'}),
        "create": ("post", "/api/v1/games/", create, {}),
        "roll": ("post", f"/api/v1/games/{gid}/roll/", {}, auth),
        "events": ("get", f"/api/v1/games/{gid}/events/", {}, {}),
        "hint": ("get", f"/api/v1/games/{gid}/hint/", {}, {}),
        "join": ("post", f"/api/v1/games/{gid}/join/", {"name": "Cleo"}, {}),
        "leave": ("post", f"/api/v1/games/{gid}/leave/", {}, auth),
        "leaderboard": ("get", "/api/v1/leaderboard/?ruleset=yahtzee", {}, {}),
        "admin_session": ("get", "/admin/", {}, {"HTTP_COOKIE": "sessionid=" + "s" * 32}),
        "admin_games": ("get", "/admin/games/game/", {}, {"HTTP_COOKIE": "sessionid=" + "s" * 32}),
    }


def send(client: Client, method: str, path: str, body: dict, headers: dict):
    if method == "post":
        return client.post(path, body, content_type="application/json", **headers)
    return client.get(path, **headers)


@pytest.mark.parametrize("error", FAILURES, ids=["operational", "interface"])
def test_every_endpoint_answers_503_with_retry_after(client, game, monkeypatch, error):
    wrong = {}
    with database_gone(monkeypatch, error):
        for name, (method, path, body, headers) in requests_for(game).items():
            response = send(client, method, path, body, headers)
            problem = response.json() if response["Content-Type"] == PROBLEM else {}
            if not (
                response.status_code == 503
                and problem.get("code") == "database_unavailable"
                and problem.get("status") == 503
                and int(response.get("Retry-After", "0")) > 0
            ):
                wrong[name] = (response.status_code, response.content[:120])
    assert wrong == {}


def test_endpoints_without_the_database_go_on_answering(client, monkeypatch):
    with database_gone(monkeypatch, FAILURES[0]):
        assert client.get("/api/v1/rulesets/").status_code == 200
        assert client.get("/api/v1/schema/").status_code == 200
        assert client.get("/api/v1/docs/").status_code == 200


def test_the_service_answers_again_once_the_database_is_back(client, game, monkeypatch):
    with database_gone(monkeypatch, FAILURES[0]):
        assert client.get(f"/api/v1/games/{game['id']}/").status_code == 503
    assert client.get(f"/api/v1/games/{game['id']}/").json()["version"] == game["version"]
    token = game["players"][0]["token"]
    rolled = client.post(
        f"/api/v1/games/{game['id']}/roll/", {}, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert rolled.status_code == 200 and rolled.json()["version"] == game["version"] + 1


def test_any_other_failure_is_still_a_500_problem(client, monkeypatch):
    from games.api.rulesets import views

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views, "render_ruleset", broken)
    response = client.get("/api/v1/rulesets/")
    assert response.status_code == 500 and response.json()["code"] == "server_error"
    assert "Retry-After" not in response
