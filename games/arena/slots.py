"""At most ``MOST_STREAMS`` open streams per key, counted across every worker process and
host of the deployment, in Django's cache (Redis in production).

A stream holds one of the key's slots, a cache entry that ``cache.add`` takes atomically
and that expires ``LEASE_SECONDS`` after it was last renewed: a stream ends by freeing its
slot; one whose process died frees it when the lease runs out. The slots held by the
streams of one event loop (a worker process) are renewed together (:class:`Leases`): one
cache write of them all every ``RENEW_SECONDS``, in one hand-over to a thread, where each
stream renewing its own at its heartbeat cost a thread and a write a stream (a thousand
streams: 67 a second).
"""

import asyncio
import logging
import uuid
from concurrent.futures import Executor
from typing import Any

from django.core.cache import cache
from django.db import connection

MOST_STREAMS = 3
LEASE_SECONDS = 45
RENEW_SECONDS = 15.0  # a third of the lease: two renewals may fail before a slot is lost

logger = logging.getLogger(__name__)


def _slot(key_id: int, slot: int) -> str:
    return f"key-stream:{key_id}:{slot}"


def slot_take(*, key_id: int, stream: uuid.UUID) -> int | None:
    """A free slot of the key, now the stream's; None when every slot is held."""
    for slot in range(MOST_STREAMS):
        if cache.add(_slot(key_id, slot), str(stream), LEASE_SECONDS):
            return slot
    return None


def slot_free(*, key_id: int, slot: int, stream: uuid.UUID) -> None:
    """Frees the slot if the stream still holds it (not after its lease ran out and another
    stream took it)."""
    if cache.get(_slot(key_id, slot)) == str(stream):
        cache.delete(_slot(key_id, slot))


class Leases:
    """The slots held by one event loop's streams, renewed together (see the module).

    A stream that ends leaves the set first, then waits for a renewal under way, if any,
    before it frees its slot: no renewal ever writes a slot again once it has been freed.
    """

    def __init__(self, executor: Executor | None = None) -> None:
        self.executor = executor
        self.held: dict[str, str] = {}
        self._renewing: asyncio.Future[Any] | None = None
        self._task: asyncio.Task[None] | None = None

    def hold(self, *, key_id: int, slot: int, stream: uuid.UUID) -> None:
        self.held[_slot(key_id, slot)] = str(stream)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._renew(), name="leases")

    async def release(self, *, key_id: int, slot: int) -> None:
        """The slot is renewed no more (once a renewal under way has ended)."""
        self.held.pop(_slot(key_id, slot), None)
        renewing = self._renewing
        if renewing is not None:
            await asyncio.wait({renewing})

    async def _renew(self) -> None:
        loop = asyncio.get_running_loop()
        while self.held:
            await asyncio.sleep(RENEW_SECONDS)
            if not self.held:
                return
            batch = dict(self.held)
            self._renewing = loop.run_in_executor(self.executor, _renew_all, batch)
            try:
                await self._renewing
            except Exception:  # the leases outlast two more tries
                logger.warning("could not renew %d key streams' slots", len(batch),
                               exc_info=True)
            finally:
                self._renewing = None


def _renew_all(batch: dict[str, str]) -> None:
    try:
        cache.set_many(batch, LEASE_SECONDS)
    finally:
        if not connection.in_atomic_block:
            connection.close()  # the database cache's: back to the pool, as the reads do


_leases: dict[asyncio.AbstractEventLoop, Leases] = {}


def leases(executor: Executor | None = None) -> Leases:
    """The running event loop's leases (one per worker process), made on first use with
    ``executor`` (the server's request threads) for their renewals."""
    loop = asyncio.get_running_loop()
    found = _leases.get(loop)
    if found is None:
        for old in [other for other in _leases if other.is_closed()]:
            del _leases[old]
        found = _leases[loop] = Leases(executor)
    return found
