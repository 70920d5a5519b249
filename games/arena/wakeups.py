"""When a key's stream reads again: the delivery of notifications to it, kept in this one
small piece on top of the process's fan-out (``games.db.notify``), which the game streams
share.

On PostgreSQL a key's stream follows, through the worker process's one listener
(``games.db.notify.listener``), its owner's channel (``Owner.channel``: a bot seated, a
notice written, a key revoked) and each game it follows (every move of it). It enters the
fan-out with one small relay per topic; a relay's wake-up marks what woke the stream and
wakes the stream's one signal (a ``Subscription`` of the fan-out's own kind: a future and a
timer per wait, no task), so the stream waits on one thing however many games it follows.
The listener's reconnection wakes every relay, the owner's channel's among them, which
means "read everything". Elsewhere there are no notifications: the stream reads everything
every ``POLL_SECONDS``.
"""

import asyncio
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


class _Relay:
    """One topic of a key's stream in the fan-out."""

    __slots__ = ("everything", "game", "stream")

    def __init__(self, stream: "KeyWakeups", topic: str, *, everything: bool) -> None:
        self.stream, self.game, self.everything = stream, topic, everything

    def wake(self, news: str | None = None) -> None:
        self.stream.woken(self.game, everything=self.everything)


class KeyWakeups:
    """A key stream's wake-ups (see the module's notes)."""

    def __init__(self, channel: str, *, notified: bool) -> None:
        self.channel = channel
        self.notified = notified
        self._signal = Subscription(channel)  # waited on; the relays wake it
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
            self._followed[game] = self._enter(game, everything=False)

    def _enter(self, topic: str, *, everything: bool) -> ExitStack:
        stack = ExitStack()
        stack.enter_context(listener().follow(_Relay(self, topic, everything=everything)))
        return stack

    def woken(self, topic: str, *, everything: bool) -> None:
        if everything:
            self._woken.everything = True
        else:
            self._woken.games.add(topic)
        self._signal.wake()

    async def wait(self, timeout: float) -> Woken | None:
        """What woke the stream since it last asked; None once ``timeout`` passed."""
        if not self.notified:
            await asyncio.sleep(min(timeout, POLL_SECONDS))
            return Woken(everything=True) if timeout >= POLL_SECONDS else None
        if not await self._signal.wait(timeout):
            return None
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
            wakeups._stack.enter_context(wakeups._enter(channel, everything=True))
        yield wakeups
    finally:
        wakeups.close()
