"""When a key's stream reads again: the delivery of notifications to it, through the same
fan-out as the game streams (``games.db.notify.Fanout``).

On PostgreSQL a key's stream follows, through the worker process's one listener
(``games.db.notify.listener``), its owner's channel (``Owner.channel``: a bot seated, a
notice written, a key revoked) and each game it follows (every move of it), all on one
subscription: a move wakes it once, as it wakes each game stream of that game, and the
subscription says which topics woke it. The owner's channel, or the listener's reconnection
(every topic), means "read everything"; moves only, "read these games" (a game followed for
the first time in the process is read once more when the listener begins to hear it). A
move whose news (the notification's events) holds only what happens within a turn (a roll, a
hold, dice set aside) in a game still active does not wake it at all: what a key's stream
sends changes only when a turn passes or a game ends, so two reads of every three in a box
game are saved, and the wake-ups with them. Elsewhere there are no notifications: the stream reads
everything every ``POLL_SECONDS``.
"""

import asyncio
from collections.abc import Collection, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field

from django.db import connection

from games.db.notify import Subscription, listener, read_news

POLL_SECONDS = 0.5
# Events that leave the turn where it was: news of these alone changes nothing a key's
# stream sends.
WITHIN_A_TURN = frozenset({"rolled", "held", "set_aside"})


def within_a_turn(news: str) -> bool:
    """Whether a notification's news (``games.db.notify.read_news``) says the game is still
    active and its events all fall within a turn; news that cannot be read says no (the
    stream reads)."""
    found = read_news(news)
    if found is None or found.status != "active" or not found.rows:
        return False
    return all(isinstance(row, dict) and row.get("type") in WITHIN_A_TURN for row in found.rows)


class KeySubscription(Subscription):
    """A key stream's subscription: woken by its owner's channel and by its games' news,
    except news that changes no turn (see the module's notes)."""

    __slots__ = ()

    def wake(self, news: str | None = None, topic: str | None = None) -> None:
        if topic is not None and topic != self.game and news and within_a_turn(news):
            return
        super().wake(news, topic)


@dataclass
class Woken:
    """What woke a stream: its owner's channel (read everything), or these games only; and
    when (``time.monotonic()``), so that a read begun since then may answer for it."""

    everything: bool = False
    games: set[str] = field(default_factory=set)
    at: float = 0.0


class KeyWakeups:
    """A key stream's wake-ups (see the module's notes)."""

    def __init__(self, channel: str, *, notified: bool) -> None:
        self.channel = channel
        self.notified = notified
        self.subscription = KeySubscription(channel)
        self._stack = ExitStack()
        self._followed: dict[str, ExitStack] = {}

    def follow(self, games: Collection[str]) -> None:
        """Follows exactly these games from now on (no effect when polling)."""
        if not self.notified:
            return
        for game in set(self._followed) - set(games):
            self._followed.pop(game).close()
        for game in set(games) - set(self._followed):
            self._followed[game] = self._subscribe(game)

    def _subscribe(self, topic: str) -> ExitStack:
        stack = ExitStack()
        stack.enter_context(listener().subscribe(topic, self.subscription))
        return stack

    async def heard(self) -> None:
        """Returns once the owner's channel is listened on (``Listener.heard``), forgetting
        the wake-ups so far: the stream reads everything next."""
        if self.notified:
            await listener().heard(self.channel, self.subscription)

    async def wait(self, timeout: float) -> Woken | None:
        """What woke the stream since it last asked; None once ``timeout`` passed."""
        if not self.notified:
            await asyncio.sleep(min(timeout, POLL_SECONDS))
            return Woken(everything=True) if timeout >= POLL_SECONDS else None
        if not await self.subscription.wait(timeout):
            return None
        woken = self.subscription.take_woken()
        if woken is None or self.channel in woken:
            return Woken(everything=True)
        return Woken(games=woken, at=self.subscription.woken_at)

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
            wakeups._stack.enter_context(wakeups._subscribe(channel))
        yield wakeups
    finally:
        wakeups.close()
