"""A worker's table builder: a thread that takes queued strategy tables one at a time and
builds each in a niced child process (``games.work.solve``), renewing its lease while the
child runs; see ``games.work.tables`` for the queue.

One build at a time per worker, and one per table across the deployment (the lease): a
burst of requests for new tables is a queue, worked through by one core of each worker
at a time rather than a core per request. A child that fails (or the worker stopping)
puts the table off for a growing wait; a worker killed mid-build leaves the lease to run out.
"""

import json
import logging
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import close_old_connections, connections

from games.work import tables

log = logging.getLogger("games.work")

LONGEST_PUT_OFF = 3600.0


class Builder(threading.Thread):
    def __init__(self, stop: threading.Event, *, interval: float) -> None:
        super().__init__(name="table-builds", daemon=True)
        self.stop, self.interval = stop, interval
        self.built = 0

    def run(self) -> None:
        failures = 0
        while not self.stop.is_set():
            try:
                close_old_connections()
                more = self.build_one()
                failures = 0
            except Exception:
                failures += 1
                log.exception("table builds: the database is not answering")
                connections.close_all()
                self.stop.wait(min(0.5 * 2**failures, 5.0))
                continue
            if not more:
                self.stop.wait(self.interval)

    def build_one(self) -> bool:
        """Build the longest-waiting table, if any; whether one was taken."""
        lease = float(settings.STRATEGY_BUILD_LEASE_SECONDS)
        taken = tables.take(lease_seconds=lease)
        if taken is None:
            return False
        spec = taken.spec
        log.info("building strategy table %s (attempt %d)", spec.name, taken.attempts)
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="strategy-build-") as folder:
            code = self.solve(taken, folder, lease)
            seconds = time.perf_counter() - started
            path = Path(folder) / spec.name
            if code == 0 and path.is_file():
                stored = tables.store(taken, path.read_bytes(), seconds=seconds)
                log.info(
                    "strategy table %s built in %.1f s%s", spec.name, seconds,
                    "" if stored else " (its lease was lost: not stored)",
                )
                self.built += stored
                return True
        if self.stop.is_set():  # stopping: the table is free for the next worker at once
            tables.put_off(taken, seconds=0)
            return True
        wait = min(60.0 * 2 ** (taken.attempts - 1), LONGEST_PUT_OFF)
        tables.put_off(taken, seconds=wait)
        log.error("strategy table %s: its build failed (%s); tried again in %.0f s",
                  spec.name, code, wait)
        return True

    def solve(self, taken: tables.Taken, folder: str, lease: float) -> int | None:
        """Run the child; renews the lease every third of it. None: stopped or lease lost."""
        command = [
            sys.executable, "-m", "games.work.solve", taken.spec.ruleset,
            json.dumps(taken.spec.options), folder, str(settings.STRATEGY_BUILD_NICE),
        ]
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL)
        renew_at = time.monotonic() + lease / 3
        try:
            while True:
                try:
                    return child.wait(timeout=0.5)
                except subprocess.TimeoutExpired:
                    pass
                if self.stop.is_set():
                    return None
                if time.monotonic() >= renew_at:
                    if not tables.renew(taken, lease_seconds=lease):
                        return None
                    renew_at = time.monotonic() + lease / 3
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
