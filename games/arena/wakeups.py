"""When a key's stream reads again: the delivery of notifications to it, kept in this one
small piece so that it follows whatever fans notifications out to the game streams.

On PostgreSQL a key's stream follows, through the worker process's one listener
(``games.db.notify.listener``), its owner's channel (``Owner.channel``: a bot seated, a
notice written, a key revoked) and each game it follows (every move of it). Each of those
subscriptions, when woken, marks the stream's own flag with what woke it, so the stream
waits on one flag however many games it follows; the listener's reconnection wakes every
subscription, the owner's channel among them, which means "read everything". Elsewhere
there are no notifications: the stream reads everything every ``POLL_SECONDS``.
"""

import asyncio
import time
from collections.abc import Collection, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from django.db import connection

from games.db.notify import Subscription, listener

POLL_SECONDS = 0.5


@dataclass
class Woken:
    """What woke a stream: its owner's channel (read everything), or these games only."""

    everything: bool = False
    games: set[str] = field(default_factory=set)


class KeyWakeups:
    """A key stream's wake-ups (see the module's notes)."""

    def __init__(self, channel: str, *, notified: bool) -> None:
        self.channel = channel
        self.notified = notified
        self._flag = asyncio.Event()
        self._woken = Woken()
        self._stack = ExitStack()
        self._followed: dict[str, ExitStack] = {}

    def follow(self, games: Collection[str]) -> None:
        """Follows exactly these games from now on (no effect when polling)."""
        if not self.notified:
            return
        for game in set(self._followed) - set(games):
            self._followed.pop(game).close()
        for game in set(games) - set(self._followed):
            self._followed[game] = self._subscribe(game, everything=False)

    def _subscribe(self, name: str, *, everything: bool) -> ExitStack:
        stack = ExitStack()
        subscription: Subscription = stack.enter_context(listener().subscribe(name))

        def wake(news: str | None = None) -> None:
            subscription.woken_at = time.monotonic()
            if everything:
                self._woken.everything = True
            else:
                self._woken.games.add(name)
            self._flag.set()

        # The listener wakes this subscription by calling its ``wake``: here, the stream's.
        setattr(subscription, "wake", wake)  # noqa: B010 - an instance's own, on purpose
        return stack

    async def wait(self, timeout: float) -> Woken | None:
        """What woke the stream since it last asked; None once ``timeout`` passed."""
        if not self.notified:
            await asyncio.sleep(min(timeout, POLL_SECONDS))
            return Woken(everything=True) if timeout >= POLL_SECONDS else None
        if not self._flag.is_set():
            try:
                await asyncio.wait_for(self._flag.wait(), timeout)
            except TimeoutError:
                return None
        self._flag.clear()
        woken, self._woken = self._woken, Woken()
        return woken

    def close(self) -> None:
        for stack in self._followed.values():
            stack.close()
        self._followed.clear()
        self._stack.close()


@contextmanager
def key_wakeups(channel: str) -> Iterator[KeyWakeups]:
    """The wake-ups of one key stream, for as long as it is open."""
    wakeups = KeyWakeups(channel, notified=connection.vendor == "postgresql")
    try:
        if wakeups.notified:
            wakeups._stack.enter_context(wakeups._subscribe(channel, everything=True))
        yield wakeups
    finally:
        wakeups.close()
