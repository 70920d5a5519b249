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


class Signalled:
    """SIGTERM and SIGINT as a flag, which the main thread turns into its stop.

    A handler runs on the main thread between two of its steps, maybe while that thread
    holds the lock of the very event the handler would set (inside its own ``Event.wait``,
    or inside the ``set`` of a signal just before it: a stop of ``make run`` sends two, the
    process group's and the keeper's). Setting the event there waited on itself forever:
    the worker never stopped, and its keeper waited for it. So the handler only raises a
    flag, and the main thread waits in slices of ``SLICE`` seconds, looking at it between.
    """

    SLICE = 0.25

    def __init__(self, *, handle: bool = True) -> None:
        """``handle``: install the handlers (only the main thread may; off it, a test's
        worker, the stop event alone stops it)."""
        self.raised = False
        if handle:
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, self._raise)

    def _raise(self, *_: object) -> None:
        self.raised = True

    def rest(self, stop: threading.Event, seconds: float) -> None:
        """Waits ``seconds``, or until ``stop`` is set; a signal sets it within a slice."""
        deadline = time.monotonic() + seconds
        while not self.stopped(stop):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            stop.wait(min(left, self.SLICE))

    def stopped(self, stop: threading.Event) -> bool:
        if self.raised:
            stop.set()  # on the main thread, outside any handler: it may take the lock
        return stop.is_set()


def run(*, interval: float, stop: threading.Event | None = None) -> None:
    """Works until ``stop`` is set (or SIGTERM/SIGINT, in the main thread)."""
    own_connections()
    stop = stop or threading.Event()
    signals = Signalled(handle=threading.current_thread() is threading.main_thread())
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
    while not signals.stopped(stop):
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
            signals.rest(stop, min(0.5 * 2**failures, LONGEST_WAIT))
            continue
        if not more:  # a full batch may have left more due: sweep again at once
            signals.rest(stop, interval)
    deliveries.join(timeout=10)
    builder.join(timeout=10)
    grades.join(timeout=15)
    log.info("worker stopped")


def keep_alive(arguments: list[str]) -> int:
    """Runs the worker (``manage.py run_worker`` with ``arguments``) in a child process and
    starts it again whenever it exits; SIGTERM/SIGINT stop both (the child told once, and
    killed if it has not stopped within ``STOP_SECONDS``)."""
    signals = Signalled()
    while not signals.raised:
        child = subprocess.Popen([sys.executable, sys.argv[0], "run_worker", *arguments])
        code = _watch(child, signals)
        if signals.raised:
            break
        log.warning("the worker exited (%s): starting it again in 1 s", code)
        signals.rest(threading.Event(), 1)
    return 0


STOP_SECONDS = 15


def _watch(child: subprocess.Popen[bytes], signals: Signalled) -> int:
    """Waits for ``child`` to exit, telling it to stop once a signal came; its exit code."""
    told_at = None
    while True:
        try:
            return child.wait(timeout=Signalled.SLICE)
        except subprocess.TimeoutExpired:
            if signals.raised and told_at is None:
                child.terminate()
                told_at = time.monotonic()
            elif told_at is not None and time.monotonic() - told_at > STOP_SECONDS:
                child.kill()
