"""At most ``MOST_STREAMS`` open streams per key, counted across every worker process and
host of the deployment, in Django's cache (Redis in production).

A stream holds one of the key's slots, a cache entry that ``cache.add`` takes atomically
and that expires ``LEASE_SECONDS`` after the stream last renewed it (at every heartbeat):
a stream ends by freeing its slot; one whose process died frees it when the lease runs out.
"""

import uuid

from django.core.cache import cache

MOST_STREAMS = 3
LEASE_SECONDS = 45


def _slot(key_id: int, slot: int) -> str:
    return f"key-stream:{key_id}:{slot}"


def slot_take(*, key_id: int, stream: uuid.UUID) -> int | None:
    """A free slot of the key, now the stream's; None when every slot is held."""
    for slot in range(MOST_STREAMS):
        if cache.add(_slot(key_id, slot), str(stream), LEASE_SECONDS):
            return slot
    return None


def slot_renew(*, key_id: int, slot: int, stream: uuid.UUID) -> None:
    cache.set(_slot(key_id, slot), str(stream), LEASE_SECONDS)


def slot_free(*, key_id: int, slot: int, stream: uuid.UUID) -> None:
    """Frees the slot if the stream still holds it (not after its lease ran out and another
    stream took it)."""
    if cache.get(_slot(key_id, slot)) == str(stream):
        cache.delete(_slot(key_id, slot))
