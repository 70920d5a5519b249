"""Work outside requests survives what kills workers and connections (PostgreSQL): a worker
killed with ``kill -9`` inside a clock's firing or a webhook attempt leaves its work to
another; a worker whose connections are cut again and again, then refused for a while,
keeps firing clocks once the database answers again; a worker whose host's clock runs 30 s
ahead (libfaketime) fires no clock early."""

import datetime as dt
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.conftest import on_postgres

from .service import ROOT, LiveService, manage, service_env, serving, throwaway_database, working

pytestmark = pytest.mark.skipif(not on_postgres(), reason="needs PostgreSQL (DATABASE_URL)")


@pytest.fixture(scope="module")
def chaos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveService, dict, Path]]:
    folder = tmp_path_factory.mktemp("chaos")
    with throwaway_database(folder) as database_url:
        env = service_env(
            folder, database_url, THROTTLE_CREATE="", THROTTLE_MOVES="",
            THROTTLE_CLASSROOMS="", WEBHOOK_ALLOW_PRIVATE="true", WORK_LEASE_SECONDS="6",
        )
        manage(env, "migrate", "--noinput")
        with serving(folder, env) as service:
            yield service, env, folder


def worker(env: dict, folder: Path, name: str):
    return working(folder, env, name=name, interval=0.2)


def clocked_game(service: LiveService) -> dict:
    status, game = service.call("POST", "/api/v1/games/", {
        "ruleset": "yatzy", "players": [{"name": "Ann"}, {"name": "Ben"}],
        "clock": {"turn_seconds": 3600},  # the next seat's clock stays far off
    })
    assert status == 201, game
    return game


def due_in(database_url: str, game: dict, seconds: float) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE games_game SET deadline = now() + make_interval(secs => %s) WHERE id = %s",
            [seconds, game["id"]],
        )


def timeouts(service: LiveService, game: dict) -> int:
    """The game's ``timed_out`` events, read from the database itself (the worker is what is
    under test; the server may still be finding the database again)."""
    with psycopg.connect(service.database_url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT count(*) FROM games_event WHERE game_id = %s AND type = 'timed_out'",
            [game["id"]],
        ).fetchone()
    return found[0] if found else 0


def wait_for(check, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.2)
    return check()


def test_a_worker_killed_inside_a_clock_leaves_it_to_another(chaos):
    service, env, folder = chaos
    game = clocked_game(service)
    with psycopg.connect(service.database_url) as holder:
        # Ann's seat row, locked from outside: the firing updates her total, so a worker
        # that takes this clock waits there, inside its transaction.
        holder.execute(
            "SELECT id FROM games_player WHERE game_id = %s AND seat = 0 FOR UPDATE",
            [game["id"]],
        )
        due_in(service.database_url, game, 0)
        with worker(env, folder, "first") as first:
            with psycopg.connect(service.database_url, autocommit=True) as watcher:

                def caught() -> bool:
                    waiting = watcher.execute(
                        "SELECT count(*) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                    ).fetchone()
                    return bool(waiting and waiting[0])

                assert wait_for(caught, 20), "no worker took the clock"
            first.send_signal(signal.SIGKILL)
            first.wait()
        holder.rollback()
    assert timeouts(service, game) == 0  # the killed worker's firing never took effect
    with worker(env, folder, "second"):
        assert wait_for(lambda: timeouts(service, game) == 1, 30), service.log_tail()
        time.sleep(1)
        assert timeouts(service, game) == 1


class Hanging:
    """A webhook receiver that keeps every request unanswered until it is let go, then
    answers 200."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.received: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.received.append(self.headers["webhook-id"])
                if not receiver.release.wait(30):
                    return
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_worker_killed_inside_a_webhook_attempt_leaves_it_to_another(chaos):
    service, env, folder = chaos
    receiver = Hanging()
    try:
        status, room = service.call("POST", "/api/v1/classrooms/", {"name": "Chaos"})
        status, joined = service.call(
            "POST", "/api/v1/classrooms/join/", {"join_code": room["join_code"], "name": "Ann"}
        )
        key = joined["api_key"]
        status, hook = service.call(
            "POST", "/api/v1/webhooks/", {"url": receiver.url, "events": ["turn.started"]},
            key=key,
        )
        assert status == 201, hook
        with worker(env, folder, "sender") as first:
            status, _game = service.call(
                "POST", "/api/v1/games/", {"ruleset": "yatzy", "players": [{"name": "Ann"}]},
                key=key,
            )
            assert wait_for(lambda: len(receiver.received) == 1, 10)  # inside its attempt
            first.send_signal(signal.SIGKILL)
            first.wait()
        receiver.release.set()
        with worker(env, folder, "sender-again"):
            path = f"/api/v1/webhooks/{hook['id']}/deliveries/"

            def delivered() -> bool:
                shown = service.call("GET", path, key=key)[1]
                return bool(shown) and shown[0]["status"] == "delivered"

            assert wait_for(delivered, 30), service.log_tail()
        assert len(receiver.received) == 2 and len(set(receiver.received)) == 1  # one id
    finally:
        receiver.close()


def test_a_worker_outlives_its_connections_cut_and_the_database_refusing_them(chaos):
    service, env, folder = chaos
    games = [clocked_game(service) for _ in range(3)]
    name = service.database_url.rsplit("/", 1)[1]
    admin = service.database_url.rsplit("/", 1)[0] + "/postgres"
    with worker(env, folder, "outage") as survivor, psycopg.connect(
        admin, autocommit=True
    ) as conn:
        def cut() -> None:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()", [name]
            )

        for game, seconds in zip(games, (1, 2, 3), strict=True):
            due_in(service.database_url, game, seconds)
        for _ in range(8):  # around the deadlines
            cut()
            time.sleep(0.4)
        refused = sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS {}")
        conn.execute(refused.format(sql.Identifier(name), sql.SQL("false")))
        cut()
        time.sleep(10)
        assert survivor.poll() is None  # still running
        conn.execute(refused.format(sql.Identifier(name), sql.SQL("true")))
        back = time.monotonic()
        assert wait_for(lambda: all(timeouts(service, g) == 1 for g in games), 60)
        assert time.monotonic() - back < 60
        assert survivor.poll() is None
    # The web service's pool, refused meanwhile, finds the database again by itself; the
    # module's next test starts once it has (its first request would otherwise wait on the
    # pool's next attempt).
    assert wait_for(lambda: service.call("GET", "/api/v1/health/")[0] == 200, 60)


@pytest.mark.skipif(shutil.which("faketime") is None, reason="needs Debian's faketime")
def test_a_worker_whose_clock_runs_ahead_fires_no_clock_early(chaos):
    service, env, folder = chaos
    game = clocked_game(service)
    due_in(service.database_url, game, 6)
    with psycopg.connect(service.database_url, autocommit=True) as conn:
        deadline = conn.execute(
            "SELECT deadline FROM games_game WHERE id = %s", [game["id"]]
        ).fetchone()[0]
    with (folder / "ahead.log").open("ab") as output:
        ahead = subprocess.Popen(
            ["faketime", "-f", "+30s", sys.executable, "manage.py", "run_worker",
             "--interval", "0.2"],
            # The host's wall clock runs ahead; its monotonic clock, which times waits, is
            # left alone (libfaketime would otherwise stretch every timed wait).
            cwd=ROOT, env={**env, "FAKETIME_DONT_FAKE_MONOTONIC": "1"}, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True,  # faketime runs it as a child
        )
    try:
        # By the database's clock (this machine's own), nothing fires before the deadline...
        while dt.datetime.now(dt.UTC) < deadline - dt.timedelta(seconds=0.3):
            assert timeouts(service, game) == 0, "fired before its deadline"
            time.sleep(0.1)
        # ...and it fires within 5 seconds after it. (The event's own created_at is the
        # fast host's time; the test times the firing by its own clock.)
        assert wait_for(lambda: timeouts(service, game) == 1, 20), service.log_tail()
        assert dt.datetime.now(dt.UTC) - deadline < dt.timedelta(seconds=5)
    finally:
        os.killpg(ahead.pid, signal.SIGTERM)  # faketime and the worker it started
        ahead.wait(timeout=15)
