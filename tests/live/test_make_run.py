"""``make run`` itself, started twice in one folder on two ports and one database (the way
to try two hosts on one machine): each instance's GET /metrics counts its own moves, and
the second's start leaves the first's figures alone."""

import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from .service import ROOT, LiveService, free_port, service_env

pytestmark = pytest.mark.live

STARTUP_SECONDS = 300  # make run migrates, collects the static files and checks the tables


@contextmanager
def make_run(folder: Path, database_url: str, name: str) -> Iterator[LiveService]:
    """``make run`` on a free port, stopped (its whole process group) afterwards."""
    from django.conf import settings

    port = free_port()
    env = service_env(
        folder, database_url, PORT=str(port), STRATEGY_DIR=str(settings.STRATEGY_DIR),
        THROTTLE_CREATE="", THROTTLE_MOVES="", THROTTLE_FAILURES="",
    )
    env.pop("MAKEFLAGS", None)
    service = LiveService(f"http://127.0.0.1:{port}", folder / f"{name}.log", database_url)
    with service.log.open("wb") as output:
        started = subprocess.Popen(
            ["make", "--no-print-directory", "run"], cwd=ROOT, env=env, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        _wait_until_healthy(service, started)
        yield service
    finally:
        _stop_group(started)
        shutil.rmtree(ROOT / ".metrics" / str(port), ignore_errors=True)


def _wait_until_healthy(service: LiveService, started: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if started.poll() is not None:
            pytest.fail(f"make run exited with {started.returncode}:\n{service.log_tail()}")
        try:
            with urllib.request.urlopen(f"{service.url}/api/v1/health/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"make run did not answer within {STARTUP_SECONDS}s:\n{service.log_tail()}")


def _stop_group(started: subprocess.Popen[bytes]) -> None:
    """Stops make, its shell, the server and the worker: the group this test started."""
    try:
        os.killpg(started.pid, signal.SIGTERM)
        started.wait(timeout=20)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(started.pid, signal.SIGKILL)
        started.wait()


def play(service: LiveService, rolls: int) -> None:
    status, game = service.call(
        "POST", "/api/v1/games/", {"ruleset": "maxi-yatzy", "players": [{"name": "Ann"}]}
    )
    assert status == 201, game
    for _ in range(rolls):
        status, _ = service.call(
            "POST", f"/api/v1/games/{game['id']}/roll/", {}, token=game["players"][0]["token"]
        )
        assert status == 200


def moves(service: LiveService) -> float:
    return service.counted("dice_moves_total", ruleset="maxi-yatzy")


def test_two_make_runs_in_one_folder_each_count_their_own_moves(tmp_path: Path):
    database_url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with ExitStack() as stack:
        first = stack.enter_context(make_run(tmp_path, database_url, "first"))
        play(first, rolls=3)
        assert moves(first) == 3
        second = stack.enter_context(make_run(tmp_path, database_url, "second"))
        assert moves(first) == 3  # the second's start emptied only its own folder
        assert moves(second) == 0
        play(second, rolls=2)
        play(first, rolls=1)
        assert (moves(first), moves(second)) == (4, 2)
