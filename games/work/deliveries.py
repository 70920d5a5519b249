"""Webhook deliveries in a worker: a thread of their own takes the deliveries that are due
and writes what came of them, while an event loop keeps up to ``most`` attempts in flight
(at most ``per_webhook`` for one webhook). Receivers that never answer thus hold up neither
the clocks and closings (another thread) nor the first attempts of other receivers.

Outcomes are written under the lease each delivery was taken with; an outcome that cannot be
written yet (the database away) is kept and written once it is back, and if the worker dies
first, the lease runs out and the delivery is tried again under the same ``webhook-id``.
"""

import asyncio
import logging
import threading
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import aiohttp
from django.db import close_old_connections, connections

from games.hooks import sending

log = logging.getLogger("games.work")


class Deliveries(threading.Thread):
    def __init__(
        self, stop: threading.Event, *, interval: float, most: int = 200, per_webhook: int = 4
    ) -> None:
        super().__init__(name="deliveries", daemon=True)
        self.stop, self.interval = stop, interval
        self.most, self.per_webhook = most, per_webhook
        self.loop = asyncio.new_event_loop()
        # Name lookups run in these threads; one that hangs is given up on at the attempt's
        # five seconds, and its thread is free again once the lookup returns.
        self.loop.set_default_executor(ThreadPoolExecutor(32, thread_name_prefix="lookup"))
        self.in_flight: dict[Future[sending.Outcome], sending.Taken] = {}
        self.unwritten: list[tuple[sending.Taken, sending.Outcome]] = []

    def run(self) -> None:
        threading.Thread(target=self.loop.run_forever, name="attempts", daemon=True).start()
        session = asyncio.run_coroutine_threadsafe(_open(), self.loop).result()
        failures = 0
        try:
            while not self.stop.is_set():
                try:
                    close_old_connections()
                    self.write_outcomes()
                    self.take_more(session)
                    failures = 0
                except Exception:
                    failures += 1
                    log.exception("webhook deliveries: the database is not answering")
                    connections.close_all()
                    self.stop.wait(min(0.5 * 2**failures, 5.0))
                    continue
                self.wait_a_little()
            self.finish()
        finally:
            asyncio.run_coroutine_threadsafe(session.close(), self.loop).result(timeout=5)
            self.loop.call_soon_threadsafe(self.loop.stop)

    def take_more(self, session: aiohttp.ClientSession) -> None:
        room = self.most - len(self.in_flight)
        if room <= 0:
            return
        busy = Counter(taken.webhook_id for taken in self.in_flight.values())
        for taken in sending.deliveries_take(limit=room, per_webhook=self.per_webhook, busy=busy):
            attempt = sending.attempt(session, taken)
            self.in_flight[asyncio.run_coroutine_threadsafe(attempt, self.loop)] = taken

    def write_outcomes(self) -> None:
        for future in [f for f in self.in_flight if f.done()]:
            self.unwritten.append((self.in_flight.pop(future), future.result()))
        while self.unwritten:
            sending.delivery_record(*self.unwritten[0])
            self.unwritten.pop(0)

    def wait_a_little(self) -> None:
        """Until an attempt ends (to write it and take another) or the interval is over."""
        if self.in_flight:
            wait(list(self.in_flight), timeout=self.interval, return_when=FIRST_COMPLETED)
        else:
            self.stop.wait(self.interval)

    def finish(self) -> None:
        """On stopping: the attempts in flight end within their five seconds; write them."""
        if self.in_flight:
            wait(list(self.in_flight), timeout=sending.TIMEOUT_SECONDS + 1)
        try:
            self.write_outcomes()
        except Exception:
            log.exception("webhook deliveries: outcomes left to their leases")


async def _open() -> aiohttp.ClientSession:
    return sending.new_session()
