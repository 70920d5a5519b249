"""The task worker stops on SIGTERM/SIGINT however the signals fall (games/work/worker.py):
a handler only raises a flag, which the main thread turns into its stop. Setting the stop
event inside the handler could wait forever on a lock the main thread held at that instant
(a second signal arriving inside the first one's ``set``), and the worker, and its keeper,
never exited."""

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.live.service import ROOT, manage, service_env, throwaway_database

# In a process of its own, so that a handler that hangs fails the test by its timeout
# instead of hanging the suite.
HELD_LOCK = """
import os, signal, threading
import django
django.setup()
from games.work.worker import Signalled
stop = threading.Event()
signals = Signalled()
with stop._cond:  # the main thread holds the event's lock, as inside its own set() or wait()
    os.kill(os.getpid(), signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(1000):  # the handlers run between these steps
        pass
print("stopped" if signals.stopped(stop) else "running")
"""


def test_signals_while_the_main_thread_holds_the_stop_events_lock_stop_the_worker() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HELD_LOCK], cwd=ROOT, capture_output=True, text=True, timeout=30,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped"


@pytest.mark.live
def test_a_kept_alive_worker_and_its_keeper_stop_on_a_signal_to_their_group(
    tmp_path: Path,
) -> None:
    """As ``make run`` is stopped: SIGTERM to the whole group, then the keeper's own to its
    worker."""
    with throwaway_database(tmp_path) as database_url:
        env = service_env(tmp_path, database_url)
        manage(env, "migrate", "--noinput")
        log = tmp_path / "worker.log"
        with log.open("wb") as output:
            keeper = subprocess.Popen(
                [sys.executable, "manage.py", "run_worker", "--keep-alive", "--interval", "0.2"],
                cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 60
            while b"worker started" not in log.read_bytes() and time.monotonic() < deadline:
                assert keeper.poll() is None, log.read_text(errors="replace")
                time.sleep(0.2)
            os.killpg(keeper.pid, signal.SIGTERM)
            assert keeper.wait(timeout=20) == 0
            time.sleep(0.5)
            with pytest.raises(ProcessLookupError):  # nothing of the group is left
                os.killpg(keeper.pid, 0)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(keeper.pid, signal.SIGKILL)
    assert b"worker stopped" in log.read_bytes()
