"""The real service in subprocesses, as it is deployed, for the live tests.

One way to start it for every live test: a database of its own (:func:`throwaway_database`),
an environment that says everything the test depends on (:func:`service_env`), the
management commands a deployment runs first (:func:`manage`), then servers on free ports of
127.0.0.1, each handed out once it answers healthy and stopped afterwards (:func:`serving`).

Unless DATABASE_URL names PostgreSQL, the database is an SQLite file and the server is
uvicorn, as ``make run`` starts it (each request's Django code in a thread of its own). With
DATABASE_URL naming PostgreSQL, a fresh database ``dice_live_<random>`` is created on that
server and dropped afterwards, and the server is gunicorn with two uvicorn worker processes,
as in production (docker-compose.yml), so that requests race across processes as well.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.conftest import on_postgres
from tests.databases import postgres_database
from tests.processes import stop

ROOT = Path(__file__).resolve().parents[2]
STARTUP_SECONDS = 60
# Settings each test chooses for itself: whatever this shell has set for them is left out.
CHOSEN_BY_TESTS = ("THROTTLE_", "REDIS_URL", "CACHE_KEY_PREFIX")


@dataclass(frozen=True)
class LiveService:
    url: str
    log: Path
    database_url: str

    def call(
        self, method: str, path: str, body: Any = None, *, token: str | None = None,
        key: str | None = None, connection: http.client.HTTPConnection | None = None,
    ) -> tuple[int, Any]:
        """One JSON request, with a seat token and an API key (``X-API-Key``) if given;
        answers the status and the decoded body (None when empty)."""
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:
            headers["X-API-Key"] = key
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

    def counted(self, name: str, **labels: str) -> float:
        """A figure of GET /metrics (0 when it has none yet), read with the token."""
        from prometheus_client.parser import text_string_to_metric_families

        connection = self.connection()
        try:
            connection.request(
                "GET", "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
            )
            response = connection.getresponse()
            text = response.read().decode()
        finally:
            connection.close()
        assert response.status == 200, text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == name and sample.labels == labels:
                    return sample.value
        return 0.0

    def log_tail(self, lines: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


METRICS_TOKEN = "live-metrics-token"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def throwaway_database(folder: Path) -> Iterator[str]:
    """The URL of a database for one service: a fresh PostgreSQL database when DATABASE_URL
    names PostgreSQL (dropped afterwards), else an SQLite file in ``folder``."""
    if on_postgres():
        with postgres_database(os.environ["DATABASE_URL"], prefix="dice_live") as url:
            yield url
    else:
        yield f"sqlite:///{folder / 'live.sqlite3'}"


def service_env(folder: Path, database_url: str, **settings: str) -> dict[str, str]:
    """The environment of a service under test: production's (DEBUG off), with a database,
    a static folder and a secret key of its own, default rate limits and the database cache
    unless ``settings`` (names of environment variables) say otherwise."""
    static = folder / "static"
    static.mkdir(exist_ok=True)
    figures = folder / "metrics"
    figures.mkdir(exist_ok=True)
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(CHOSEN_BY_TESTS)},
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(static),
        "SECRET_KEY_FILE": str(folder / "secret-key"),
        "PYTHONUNBUFFERED": "1",
        # As make run and compose count: every process of the service in one folder.
        "PROMETHEUS_MULTIPROC_DIR": str(figures),
        "METRICS_TOKEN": METRICS_TOKEN,
        **settings,
    }


def manage(env: dict[str, str], *command: str, timeout: float = 300) -> None:
    """A management command, as a deployment runs it before the server starts."""
    done = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )
    if done.returncode != 0:
        pytest.fail(f"manage.py {' '.join(command)} failed:\n{done.stdout}\n{done.stderr}")


def gunicorn_command(port: int, *options: str) -> list[str]:
    """gunicorn with two uvicorn worker processes, as production runs the service."""
    return [
        sys.executable, "-m", "gunicorn", "config.asgi:application",
        "--worker-class", "games.serving.worker.Worker",
        "--bind", f"127.0.0.1:{port}", "--workers", "2", "--graceful-timeout", "5",
        "--config", "python:config.gunicorn", *options,
    ]


@contextmanager
def gunicorn_on_a_new_database(folder: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    """gunicorn as compose runs it, on a new migrated database: its port, its process and
    its log. The test stops it (or it is killed afterwards)."""
    with throwaway_database(folder) as database_url:
        env = service_env(folder, database_url)
        manage(env, "migrate", "--noinput")
        port = free_port()
        log = folder / "server.log"
        with log.open("wb") as output:
            server = subprocess.Popen(
                gunicorn_command(port), cwd=ROOT, env=env, stdout=output,
                stderr=subprocess.STDOUT,
            )
        try:
            yield port, server, log
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


def uvicorn_command(port: int) -> list[str]:
    """uvicorn as ``make run`` starts it, with the service's own protocol."""
    return [
        sys.executable, "-m", "uvicorn", "config.asgi:application",
        "--host", "127.0.0.1", "--port", str(port),
        "--lifespan", "off", "--timeout-graceful-shutdown", "5",
        "--http", "games.serving.protocol:HeadBoundedProtocol",
    ]


def server_command(port: int) -> list[str]:
    """uvicorn as ``make run`` starts it on SQLite; gunicorn as production on PostgreSQL."""
    if not on_postgres():
        return uvicorn_command(port)
    return gunicorn_command(port, "--access-logfile", "-")


@contextmanager
def serving(
    folder: Path,
    env: dict[str, str],
    *,
    command: Callable[[int], list[str]] = server_command,
    name: str = "server",
    database_url: str | None = None,
) -> Iterator[LiveService]:
    """One server of the service on a free port, logging to ``folder/<name>.log``, handed
    out once it answers healthy and stopped afterwards. ``database_url`` is the one the
    test itself reaches the database by, when not the service's own."""
    port = free_port()
    service = LiveService(
        url=f"http://127.0.0.1:{port}",
        log=folder / f"{name}.log",
        database_url=database_url or env["DATABASE_URL"],
    )
    with service.log.open("wb") as output:
        server = subprocess.Popen(
            command(port), cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        _wait_until_healthy(service, server)
        yield service
    finally:
        stop(server)


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
        time.sleep(0.1)
    pytest.fail(f"no healthy answer within {STARTUP_SECONDS}s:\n{service.log_tail()}")


@contextmanager
def working(
    folder: Path, env: dict[str, str], *, name: str = "worker", interval: float = 0.5
) -> Iterator[subprocess.Popen[bytes]]:
    """A worker beside the service, as ``make run`` and compose start one: it does the work
    due in the service's database (turn clocks, assignment closings, webhook deliveries),
    logging to ``folder/<name>.log``. Answers its process; stopped afterwards if it still
    runs."""
    with (folder / f"{name}.log").open("ab") as output:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "--interval", str(interval)],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )
    try:
        yield worker
    finally:
        if worker.poll() is None:
            stop(worker)
