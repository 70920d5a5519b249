"""A key stream's slot: held for as long as the stream is open, though the lease of each
write is short, because its process renews all its streams' slots together; free once the
stream has ended, and never written again after that."""

import asyncio
import uuid

import pytest
from django.core.cache import cache

from games.arena import slots


@pytest.fixture
def short_leases(monkeypatch: pytest.MonkeyPatch, settings) -> None:
    """Leases of a second, renewed five times a second, in a cache every thread shares
    (the renewals run in threads, as in the server)."""
    monkeypatch.setattr(slots, "LEASE_SECONDS", 1)
    monkeypatch.setattr(slots, "RENEW_SECONDS", 0.2)
    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": f"slots-{uuid.uuid4()}",
    }}


@pytest.mark.usefixtures("short_leases")
def test_a_slot_outlives_its_lease_while_held_and_is_free_for_good_once_released() -> None:
    first, second = uuid.uuid4(), uuid.uuid4()

    async def scenario() -> None:
        held = slots.Leases()
        a = slots.slot_take(key_id=7, stream=first)
        b = slots.slot_take(key_id=7, stream=second)
        assert (a, b) == (0, 1)
        held.hold(key_id=7, slot=a, stream=first)
        held.hold(key_id=7, slot=b, stream=second)
        await asyncio.sleep(1.6)  # more than a lease: renewed meanwhile
        assert cache.get("key-stream:7:0") == str(first)
        assert cache.get("key-stream:7:1") == str(second)
        await held.release(key_id=7, slot=a)
        slots.slot_free(key_id=7, slot=a, stream=first)
        await asyncio.sleep(0.5)  # renewals of the other went on
        assert cache.get("key-stream:7:0") is None
        assert slots.slot_take(key_id=7, stream=uuid.uuid4()) == 0  # taken again
        await held.release(key_id=7, slot=b)
        await asyncio.sleep(1.3)  # nothing renews it: its lease runs out
        assert cache.get("key-stream:7:1") is None

    asyncio.run(scenario())


@pytest.mark.usefixtures("short_leases")
def test_without_renewals_a_slot_is_let_go_when_its_lease_runs_out() -> None:
    """A process that died renews nothing: the key gets its slot back after the lease."""
    gone = uuid.uuid4()
    assert slots.slot_take(key_id=8, stream=gone) == 0
    assert slots.slot_take(key_id=8, stream=uuid.uuid4()) == 1
    assert slots.slot_take(key_id=8, stream=uuid.uuid4()) == 2
    assert slots.slot_take(key_id=8, stream=uuid.uuid4()) is None  # three at most

    async def later() -> None:
        await asyncio.sleep(1.3)

    asyncio.run(later())
    assert slots.slot_take(key_id=8, stream=uuid.uuid4()) == 0
