"""What a game's stream learns from a notification, and how it waits for the next one.

A notification of a move carries its events and the game's status (``games.db.notify``,
migration 0016): decoded once per worker process (``_decoded``), it is what every stream of
that game in the process sends, when it follows on from what the stream has sent (``told``),
the same bytes for each (``Progress.payload``). A stream waits on its game's subscription to
the process's listener on PostgreSQL (``wakeups``), which sends such a move to the stream's
client itself while the stream has nothing else to do (``Delivering``); elsewhere it polls.
"""

import asyncio
import datetime as dt
import json
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, Protocol, cast

from django.db import connection

from games.api.games.bodies import EventBody, render_event
from games.db.notify import Subscription, listener, read_news
from games.models import Event
from games.serving.outlet import Outlet
from scoring.match import GameStatus

POLL_SECONDS = 0.5  # between two reads of the log when nothing tells us it grew
BATCH = 200  # events read at once
OVER = frozenset({GameStatus.FINISHED, GameStatus.ABANDONED})


def sse_message(event: Mapping[str, Any]) -> bytes:
    """One rendered event as an SSE message; JSON escapes newlines, so ``data`` is one line."""
    data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n".encode()


@dataclass(frozen=True)
class Progress:
    """What one read of the log found."""

    over: bool  # the game is finished or abandoned: its log will not grow
    last_seq: int  # the seq of the game's last event
    events: list[EventBody]  # rendered, oldest first, at most BATCH of them

    @cached_property
    def messages(self) -> list[tuple[int, bytes]]:
        """Each event's seq and SSE message, made once for every stream that shares this read
        (``read_log``): a move watched by many streams is encoded once, not once each."""
        return [(event["seq"], sse_message(event)) for event in self.events]

    @cached_property
    def payload(self) -> bytes:
        """Every message at once: the very bytes each stream in step is handed (one write to
        each stream for a move, however many events it made)."""
        return b"".join(message for _, message in self.messages)


def told(waiting: "Waiting", sent: int) -> Progress | None:
    """What the last wake-up's notification told, if it follows on from seq ``sent`` (the
    events after it, the game's status); None when the log must be read instead: no news,
    or news that skips events the stream has not sent (it missed a notification while it
    was sending). Taken once: the next wake-up brings its own."""
    news, waiting.news = waiting.news, None
    found = _decoded(news) if news else None
    if found is None or not found.events:
        return None
    first = found.events[0]["seq"]
    if first > sent + 1:
        return None
    if first > sent:
        return found  # shared, and its messages with it, by every stream in step
    events = [event for event in found.events if event["seq"] > sent]
    return Progress(over=found.over, last_seq=found.last_seq, events=events)


@lru_cache(maxsize=256)
def _decoded(news: str) -> Progress | None:
    """A notification's news (``games.db.notify.read_news``) as rendered events, decoded
    once for every stream of its game; None for a notification without events (too long to
    carry them) or one that cannot be read."""
    found = read_news(news)
    if found is None:
        return None
    try:
        rendered = [
            render_event(Event(
                seq=row["seq"], type=row["type"], seat=row["seat"], data=row["data"],
                created_at=dt.datetime.fromisoformat(row["created_at"]).astimezone(dt.UTC),
            ))
            for row in found.rows
        ]
        return Progress(over=found.status in OVER, last_seq=found.last_seq, events=rendered)
    except (ValueError, KeyError, TypeError):
        return None


class Waiting(Protocol):
    # When the last wake-up came (time.monotonic()): a read for it must begin after it.
    woken_at: float
    # What the last wake-up's notification said after the game's id; None: read the log.
    news: str | None
    # The seq of the last event the stream has sent, set by the stream before it waits;
    # a waiting that sends moves itself (``Delivering``) moves it on, and says when.
    sent: int
    sent_at: float

    async def wait(self, timeout: float) -> bool:
        """True when the log may have grown (read it), False when ``timeout`` passed."""
        ...


class Polling:
    """Without notifications: the log may have grown every ``POLL_SECONDS``."""

    woken_at = 0.0
    news: str | None = None
    sent = 0
    sent_at = 0.0

    async def wait(self, timeout: float) -> bool:
        if timeout < POLL_SECONDS:
            await asyncio.sleep(timeout)
            return False
        await asyncio.sleep(POLL_SECONDS)
        self.woken_at = time.monotonic()
        return True


class Delivering(Subscription):
    """A game stream's subscription, which sends a move to its stream's client itself.

    A notification of a move reaches a thousand waiting streams in a row, on the worker's
    one event loop; waking each stream's task to send what every stream in step sends
    anyway (the very same bytes, ``Progress.payload``) cost most of what a spectator costs.
    So while its stream waits, having sent everything before the move, the subscription
    writes the move's events to the connection at once (``games.serving.outlet``) and moves
    the stream's position on, and the stream sleeps on. Anything else wakes the stream as
    before: news that does not follow on from what it sent, news without its events, the
    game's end (the stream must end too), a connection that cannot take the bytes now (a
    slow reader), or a server that gives no outlet.
    """

    __slots__ = ("outlet", "sent", "sent_at")

    def __init__(self, game: str, outlet: Outlet) -> None:
        super().__init__(game)
        self.outlet = outlet
        self.sent = 0
        self.sent_at = 0.0

    def wake(self, news: str | None = None, topic: str | None = None) -> None:
        self.wake_all((self,), news, topic)

    @classmethod
    def wake_all(
        cls, subscriptions: Iterable[Subscription], news: str | None, topic: str | None
    ) -> None:
        """A move to every stream of its game in the process, in one pass: decoded and
        checked once, then written to each stream in step (the same bytes), the others
        woken. Each stream costs the pass a few comparisons and the write's hand-over."""
        found = _decoded(news) if news else None
        if found is None or found.over or not found.events or len(found.events) >= BATCH:
            for subscription in subscriptions:
                Subscription.wake(subscription, news, topic)
            return
        first, last, payload = found.events[0]["seq"], found.events[-1]["seq"], found.payload
        now = time.monotonic()
        for subscription in subscriptions:
            stream = cast(Delivering, subscription)
            if stream.sent + 1 == first and stream.waiting and stream.outlet.write(payload):
                stream.sent, stream.sent_at = last, now
            else:
                Subscription.wake(stream, news, topic)


def wakeups(
    outlet: Outlet | None = None,
) -> Callable[[uuid.UUID], AbstractAsyncContextManager[Waiting]]:
    """A stream's wake-ups: the process's listener on PostgreSQL (sending moves itself
    through ``outlet`` when given), polling elsewhere."""

    @asynccontextmanager
    async def wake(game_id: uuid.UUID) -> AsyncIterator[Waiting]:
        if connection.vendor != "postgresql":
            yield Polling()
            return
        following = Delivering(str(game_id), outlet or Outlet())
        listening = listener()
        with listening.subscribe(game_id, following) as subscription:
            # Its first read, which comes next, must follow the LISTEN on its game: then no
            # move is missed, and the wake-up the LISTEN brings is one read too many.
            await listening.heard(game_id, subscription)
            yield cast(Delivering, subscription)

    return wake
