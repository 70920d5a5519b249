"""The database goes away while the service runs, then comes back.

Every endpoint that needs the database answers 503 ``database_unavailable`` with
``Retry-After`` (a problem document, never a 500), the others go on answering, and once the
database is back every endpoint works again, with no restart.

On PostgreSQL the service reaches its own database through a TCP proxy (``dbproxy``) that
the test cuts (every connection dropped, new ones refused, as when the server stops) or
hangs (connections accepted and never answered, as on a lost network); the shared server
itself is never touched. On SQLite the folder that holds the database file is moved away.
"""

import json
import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from scoring.boxgames.strategy import prepare_table
from tests.conftest import on_postgres
from tests.databases import postgres_database

from .dbproxy import DatabaseProxy
from .service import LiveService, manage, service_env, serving

pytestmark = pytest.mark.live

PROBLEM = "application/problem+json"
CONNECT_TIMEOUT = 2  # seconds: how long a request waits for a database that does not answer


@dataclass
class Outage:
    """The service, and how to take its database away and give it back."""

    service: LiveService
    cut: Any
    restore: Any
    hang: Any | None  # None: this database cannot hang (SQLite)


@contextmanager
def _postgres_outage() -> Iterator[tuple[str, DatabaseProxy]]:
    with postgres_database(os.environ["DATABASE_URL"], prefix="dice_live") as direct:
        parts = urlsplit(direct)
        with DatabaseProxy((parts.hostname or "127.0.0.1", parts.port or 5432)) as proxy:
            netloc = f"{parts.username}@127.0.0.1:{proxy.port}"
            yield urlunsplit(parts._replace(netloc=netloc)), proxy


@pytest.fixture(scope="module")
def outage(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Outage]:
    folder = tmp_path_factory.mktemp("outage")
    tables = folder / "tables"
    prepare_table("forced-yatzy", {}, tables)
    with _database(folder) as (database_url, cut, restore, hang):
        env = service_env(
            folder, database_url, STRATEGY_DIR=str(tables), THROTTLE_CREATE="",
            THROTTLE_MOVES="", DATABASE_CONNECT_TIMEOUT=str(CONNECT_TIMEOUT),
        )
        manage(env, "migrate", "--noinput")
        with serving(folder, env) as service:
            try:
                yield Outage(service, cut, restore, hang)
            finally:
                restore()


@contextmanager
def _database(folder: Path) -> Iterator[tuple]:
    if on_postgres():
        with _postgres_outage() as (url, proxy):
            yield url, proxy.cut, proxy.restore, proxy.hang
        return
    home = folder / "db"
    away = folder / "db-away"
    home.mkdir()

    def cut() -> None:
        home.rename(away)

    def restore() -> None:
        if away.exists():
            away.rename(home)

    yield f"sqlite:///{home / 'live.sqlite3'}", cut, restore, None
    shutil.rmtree(folder / "db", ignore_errors=True)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def call(
    service: LiveService, method: str, path: str, body: Any = None, *,
    token: str | None = None, cookie: str | None = None, timeout: float = 30,
) -> Answer:
    headers = {"Accept": "application/json"}
    payload = None
    if body is not None:
        payload = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if cookie:
        headers["Cookie"] = cookie
    conn = service.connection(timeout=timeout)
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        answer = Answer(
            response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        )
    finally:
        conn.close()
    return answer


def endpoints(service: LiveService) -> dict[str, tuple[str, str, Any, dict[str, str]]]:
    """One request per endpoint that needs the database, on games made while it is up."""
    create = {"ruleset": "forced-yatzy", "players": [{"name": "Ann"}]}
    game = call(service, "POST", "/api/v1/games/", create).json()
    waiting = call(service, "POST", "/api/v1/games/", {**create, "open_seats": 1}).json()
    gid, token = game["id"], game["players"][0]["token"]
    moves = {"token": token}
    return {
        "health": ("GET", "/api/v1/health/", None, {}),
        "list": ("GET", "/api/v1/games/", None, {}),
        "read": ("GET", f"/api/v1/games/{gid}/", None, {}),
        "create": ("POST", "/api/v1/games/", create, {}),
        "roll": ("POST", f"/api/v1/games/{gid}/roll/", {}, moves),
        "hold": ("POST", f"/api/v1/games/{gid}/hold/", {"hold": [0]}, moves),
        "events": ("GET", f"/api/v1/games/{gid}/events/", None, {}),
        "hint": ("GET", f"/api/v1/games/{gid}/hint/", None, {}),
        "join": ("POST", f"/api/v1/games/{waiting['id']}/join/", {"name": "Cleo"}, {}),
        "leaderboard": ("GET", "/api/v1/leaderboard/?ruleset=yahtzee", None, {}),
        "admin": ("GET", "/admin/", None, {"cookie": "sessionid=" + "s" * 32}),
    }


# How soon the service must answer again once the database is back.
RECOVERY_SECONDS = 15


def assert_unavailable(answer: Answer, name: str) -> None:
    assert answer.status == 503, (name, answer.status, answer.body[:200])
    assert answer.headers["content-type"] == PROBLEM, name
    problem = answer.json()
    assert problem["code"] == "database_unavailable" and problem["status"] == 503, name
    assert int(answer.headers["retry-after"]) > 0, name


def test_every_endpoint_answers_503_while_the_database_is_gone_then_recovers(
    outage: Outage,
) -> None:
    service = outage.service
    requests = endpoints(service)
    outage.cut()
    try:
        for name, (method, path, body, extra) in requests.items():
            assert_unavailable(call(service, method, path, body, **extra), name)
        stream = call(service, "GET", requests["read"][1] + "stream/", timeout=10)
        assert_unavailable(stream, "stream")
        # What needs no database goes on answering.
        assert call(service, "GET", "/api/v1/rulesets/").status == 200
        advice = call(service, "POST", "/api/v1/rulesets/forced-yatzy/advice/", {"dice": None})
        assert advice.status == 200
        assert call(service, "GET", "/api/v1/schema/").status == 200
    finally:
        outage.restore()

    # It recovers by itself: within seconds each worker's pool has fresh connections.
    deadline = time.monotonic() + RECOVERY_SECONDS
    while call(service, "GET", "/api/v1/health/").status != 200:
        assert time.monotonic() < deadline, "not recovered in time"
        time.sleep(0.5)
    answers = {
        name: call(service, method, path, body, **extra)
        for name, (method, path, body, extra) in requests.items()
    }
    statuses = {name: answer.status for name, answer in answers.items()}
    assert statuses == {
        "health": 200, "list": 200, "read": 200, "create": 201, "roll": 200, "hold": 200,
        "events": 200, "hint": 200, "join": 201, "leaderboard": 200, "admin": 302,
    }
    log = service.log.read_text(errors="replace")
    assert "Exception in ASGI application" not in log
    assert "Internal Server Error" not in log


def test_a_database_that_does_not_answer_gives_503_after_the_connect_timeout(
    outage: Outage,
) -> None:
    if outage.hang is None:
        pytest.skip("SQLite is a file: it cannot hang like a network")
    service = outage.service
    outage.hang()
    try:
        started = time.monotonic()
        answer = call(service, "GET", "/api/v1/games/", timeout=CONNECT_TIMEOUT + 20)
        waited = time.monotonic() - started
        assert_unavailable(answer, "list")
        assert waited < CONNECT_TIMEOUT + 15, f"answered after {waited:.1f} s"
    finally:
        outage.restore()
    assert call(service, "GET", "/api/v1/health/").status == 200
