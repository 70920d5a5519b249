"""A worker process: sweeps for due clocks and closings in its main thread, sends webhook
deliveries in another (``deliveries``), builds queued strategy tables in a third
(``builds``), sends grades to learning platforms in a fourth (``passback``), prunes old rows
now and then (``housekeeping``).

It outlives the database: a lost or refused connection is logged, the connection dropped,
and the sweep tried again after a growing wait (at most 5 s), so that what fell due meanwhile
is done within seconds of the database's return; no error ends the process. Should the
process die all the same (killed, out of memory), ``keep_alive`` starts it again; compose
restarts its container.
"""

import logging
import signal
import subprocess
import sys
import threading
import time

from django.db import close_old_connections, connections

from games.work import housekeeping
from games.work.builds import Builder
from games.work.deliveries import Deliveries
from games.work.passback import Passback
from games.work.sweeps import Sweeps

log = logging.getLogger("games.work")

HOUSEKEEPING_SECONDS = 600
LONGEST_WAIT = 5.0


def own_connections() -> None:
    """Each thread of a worker keeps one connection of its own for as long as it works, and
    drops it when it fails (the next query opens another): a worker has a fixed few threads,
    so a pool would only add a wait of its own while the database is away. Call before the
    first query."""
    for alias in connections:
        settings = connections[alias].settings_dict
        settings.get("OPTIONS", {}).pop("pool", None)
        settings["CONN_MAX_AGE"] = None
        settings["CONN_HEALTH_CHECKS"] = True


def run(*, interval: float, stop: threading.Event | None = None) -> None:
    """Works until ``stop`` is set (or SIGTERM/SIGINT, in the main thread)."""
    own_connections()
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
    deliveries = Deliveries(stop, interval=interval)
    deliveries.start()
    builder = Builder(stop, interval=interval)
    builder.start()
    grades = Passback(stop, interval=interval)
    grades.start()
    sweeps = Sweeps()
    prune_at = 0.0
    failures = 0
    log.info("worker started: sweeping every %.2f s", interval)
    while not stop.is_set():
        try:
            close_old_connections()  # one that failed is dropped; the next query opens another
            more = sweeps.run()
            if time.monotonic() >= prune_at:
                pruned = housekeeping.prune()
                prune_at = time.monotonic() + HOUSEKEEPING_SECONDS
                if any(pruned.values()):
                    log.info("pruned %s", pruned)
            failures = 0
        except Exception:
            failures += 1
            log.exception("the sweep failed (the database away?): trying again")
            connections.close_all()
            stop.wait(min(0.5 * 2**failures, LONGEST_WAIT))
            continue
        if not more:  # a full batch may have left more due: sweep again at once
            stop.wait(interval)
    deliveries.join(timeout=10)
    builder.join(timeout=10)
    grades.join(timeout=15)
    log.info("worker stopped")


def keep_alive(arguments: list[str]) -> int:
    """Runs the worker (``manage.py run_worker`` with ``arguments``) in a child process and
    starts it again whenever it exits; SIGTERM/SIGINT stop both."""
    stopping = threading.Event()
    child: subprocess.Popen[bytes] | None = None

    def stop(*_: object) -> None:
        stopping.set()
        if child is not None and child.poll() is None:
            child.terminate()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    while not stopping.is_set():
        child = subprocess.Popen([sys.executable, sys.argv[0], "run_worker", *arguments])
        code = child.wait()
        if stopping.is_set():
            break
        log.warning("the worker exited (%s): starting it again in 1 s", code)
        stopping.wait(1)
    if child is not None and child.poll() is None:
        child.wait(timeout=15)
    return 0
