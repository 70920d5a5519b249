"""The real service in a subprocess, on a free port of 127.0.0.1, with a database of its own.

The service is served under ASGI, as everywhere. Unless DATABASE_URL names PostgreSQL, the
database is a temporary SQLite file and the server is uvicorn, as ``make run`` starts it
(each request's Django code in a thread of its own). With DATABASE_URL naming PostgreSQL, a
fresh database ``dice_live_<random>`` is created on that server and dropped afterwards, and
the server is gunicorn with uvicorn workers, as in production (docker-compose.yml), with two
worker processes, so that requests race across processes as well.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import AbstractContextManager as ContextManager
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import on_postgres
from tests.databases import postgres_database

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60


@dataclass(frozen=True)
class LiveService:
    url: str
    log: Path
    database_url: str

    def call(
        self, method: str, path: str, body: Any = None, *, token: str | None = None,
        connection: http.client.HTTPConnection | None = None,
    ) -> tuple[int, Any]:
        """One JSON request; answers the status and the decoded body (None when empty)."""
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        conn = connection or self.connection()
        try:
            conn.request(method, path, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
        finally:
            if connection is None:
                conn.close()
        return response.status, json.loads(raw) if raw else None

    def connection(self, timeout: float = 60) -> http.client.HTTPConnection:
        parts = urlsplit(self.url)
        return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _sqlite_database(folder: Path) -> Iterator[str]:
    yield f"sqlite:///{folder / 'live.sqlite3'}"


def _postgres_database(server_url: str) -> ContextManager[str]:
    return postgres_database(server_url, prefix="dice_live")


def _server_command(port: int) -> list[str]:
    if not on_postgres():
        return [
            sys.executable, "-m", "uvicorn", "config.asgi:application",
            "--host", "127.0.0.1", "--port", str(port),
            "--lifespan", "off", "--timeout-graceful-shutdown", "5",
        ]
    return [
        sys.executable, "-m", "gunicorn", "config.asgi:application",
        "--worker-class", "uvicorn_worker.UvicornWorker",
        "--bind", f"127.0.0.1:{port}", "--workers", "2",
        "--graceful-timeout", "5", "--access-logfile", "-",
    ]


def _wait_until_healthy(service: LiveService, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the server exited with {server.returncode}:\n{service.log_tail()}")
        try:
            with urllib.request.urlopen(f"{service.url}/api/v1/health/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:  # not listening yet, or not healthy yet
            pass
        time.sleep(0.2)
    pytest.fail(f"no healthy answer within {STARTUP_SECONDS}s:\n{service.log_tail()}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture(scope="session")
def live_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveService]:
    folder = tmp_path_factory.mktemp("live")
    database = (
        _postgres_database(os.environ["DATABASE_URL"]) if on_postgres()
        else _sqlite_database(folder)
    )
    with database as database_url:
        static = folder / "static"
        static.mkdir()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "STATIC_ROOT": str(static),
            "PYTHONUNBUFFERED": "1",
            # Every test of the session calls from 127.0.0.1: a per-address rate limit would
            # make each test depend on how many games the ones before it created.
            "THROTTLE_CREATE": "",
            "THROTTLE_MOVES": "",
            "THROTTLE_ADVICE": "",
            "THROTTLE_CLASSROOMS": "",
            "THROTTLE_FAILURES": "",
        }
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )
        if migrate.returncode != 0:
            pytest.fail(f"migrate failed:\n{migrate.stdout}\n{migrate.stderr}")
        # As `make run` does: the strategy tables are ready before the service serves (the
        # first time minutes, then kept in STRATEGY_DIR), so no answer is a 503 for them.
        tables = subprocess.run(
            [sys.executable, "manage.py", "build_strategy"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
        )
        if tables.returncode != 0:
            pytest.fail(f"build_strategy failed:\n{tables.stdout}\n{tables.stderr}")
        port = _free_port()
        log = folder / "server.log"
        service = LiveService(url=f"http://127.0.0.1:{port}", log=log, database_url=database_url)
        with log.open("wb") as output:
            server = subprocess.Popen(
                _server_command(port), cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT
            )
            try:
                _wait_until_healthy(service, server)
                yield service
            finally:
                _stop(server)


@pytest.fixture
def sqlite_live_service(request: pytest.FixtureRequest) -> LiveService:
    """The live service, for tests of SQLite's own behaviour: skipped on PostgreSQL."""
    if on_postgres():
        pytest.skip("SQLite only; DATABASE_URL names PostgreSQL")
    return request.getfixturevalue("live_service")
