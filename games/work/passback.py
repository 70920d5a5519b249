"""Grades sent to learning platforms, in a thread of each worker of their own: a platform
that is slow or away holds up neither the clocks and closings nor the webhooks. It sends
what is due (``games.courses.passback``), sweeping again at once while a batch was full,
else after the worker's interval. A lost database connection is waited out, as the sweeps
do."""

import logging
import threading

from django.db import close_old_connections, connections

from games.courses import passback
from games.courses.connect import Connectors

log = logging.getLogger("games.work")


class Passback(threading.Thread):
    def __init__(self, stop: threading.Event, *, interval: float) -> None:
        super().__init__(name="passback", daemon=True)
        self.stop, self.interval = stop, interval

    def run(self) -> None:
        failures = 0
        connectors = Connectors()  # kept from batch to batch: their tokens with them
        while not self.stop.is_set():
            try:
                close_old_connections()
                taken = passback.scores_send(connectors=connectors)
                failures = 0
            except Exception:
                failures += 1
                log.exception("grade passback: the sweep failed (the database away?)")
                connections.close_all()
                self.stop.wait(min(0.5 * 2**failures, 5.0))
                continue
            if taken < passback.AT_ONCE:
                self.stop.wait(self.interval)
        connections.close_all()
