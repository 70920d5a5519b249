"""Telling live listeners that a game's log has grown.

On PostgreSQL a committed change sends ``NOTIFY "<game id>", '<game id>:<last seq>...'``: a
trigger on the event log does it, inside the transaction that writes the events, and
PostgreSQL delivers it when that commits (migrations 0006, 0016 and 0023). Each worker
process LISTENs on one connection of its own (``Listener``), started by the first event
stream that waits, on the channels of the topics its streams follow (a game's id, a key's
owner's channel) and no other: a move of a game no stream of the process follows does not
wake it. It wakes every stream of that process that follows the game named, handing each
the rest of the payload (the news: the game's status and the new events, where they fit in
it): a thousand open streams cost one connection, not a thousand. When that connection is
lost (the database restarts, say) the listener reconnects with growing pauses and then wakes
every stream, with no news, so that each reads its game's log again: nothing is missed.
Other databases have no such channel: their streams poll (see ``games.api.games.stream``).
"""

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import orjson
import psycopg
from django.conf import settings
from psycopg import sql

from games.db.notify.fanout import Fanout, Subscription

__all__ = [
    "Fanout", "Listener", "Subscription", "channel_of", "listener", "read_news", "stop_listening",
]

CHANNEL_BYTES = 63  # PostgreSQL's longest identifier, a channel's name among them
LISTENER_NAME = "dice-game-stream"  # the listening connection's application_name
CONNECT_SECONDS = 5  # to open the listening connection, before trying again later
FIRST_PAUSE = 0.5  # seconds before the first reconnection; doubled each failure...
LONGEST_PAUSE = 30.0  # ...up to this
# Seconds a listener with no stream left keeps its connection before it closes it: a stream
# that comes back meanwhile finds it connected (it LISTENs on nothing by then, so no move
# wakes it), and one that comes later starts a new one.
IDLE_SECONDS = 10.0
# Seconds a channel no stream follows any more stays LISTENed on: streams of a game come and
# go in bursts (a page reloaded), and each change of the channels stops the reading a moment.
UNLISTEN_SECONDS = 1.0
# Django's own keys in DATABASES[...]["OPTIONS"]; every other key is a libpq parameter.
DJANGO_OPTIONS = frozenset(
    {
        "isolation_level",
        "assume_role",
        "server_side_binding",
        "pool",
        "cursor_factory",
        "context",
        "prepare_threshold",
    }
)

logger = logging.getLogger(__name__)


def listen_parameters(database: Mapping[str, Any]) -> dict[str, Any]:
    """psycopg's connection parameters for the database Django uses (``DATABASES[...]``)."""
    given = {
        "dbname": database.get("NAME"),
        "user": database.get("USER"),
        "password": database.get("PASSWORD"),
        "host": database.get("HOST"),
        "port": database.get("PORT"),
    }
    options = database.get("OPTIONS") or {}
    parameters = {key: value for key, value in given.items() if value not in (None, "")}
    parameters |= {key: value for key, value in options.items() if key not in DJANGO_OPTIONS}
    parameters.setdefault("connect_timeout", CONNECT_SECONDS)
    parameters.setdefault("application_name", LISTENER_NAME)
    return parameters


def channel_of(topic: str) -> str:
    """The channel a topic's notifications are sent on: the topic itself (a game's id, as the
    trigger of migration 0023 names it), or a digest of a name too long for PostgreSQL (a
    key's owner's channel)."""
    if len(topic.encode()) <= CHANNEL_BYTES:
        return topic
    return "t" + hashlib.blake2b(topic.encode(), digest_size=16).hexdigest()


async def connect_listening(parameters: Mapping[str, Any]) -> psycopg.AsyncConnection:
    """A connection for LISTENing (the listener then LISTENs on the channels it needs);
    raises what connecting raises."""
    return await asyncio.wait_for(
        psycopg.AsyncConnection.connect(**parameters, autocommit=True), CONNECT_SECONDS
    )


def tuning(listen: set[str], unlisten: set[str]) -> sql.Composed:
    """One round trip of LISTEN and UNLISTEN statements, for these topics' channels."""
    statements = [
        sql.SQL("{} {}").format(sql.SQL(verb), sql.Identifier(channel_of(topic)))
        for verb, topics in (("LISTEN", listen), ("UNLISTEN", unlisten))
        for topic in sorted(topics)
    ]
    return sql.SQL("; ").join(statements)


@dataclass(frozen=True)
class News:
    """A notification's news, after the game's id: ``<last seq>:<status>:<events as JSON>``
    (migration 0016). ``rows`` are the events as the trigger wrote them."""

    last_seq: int
    status: str
    rows: list[dict[str, Any]]


@lru_cache(maxsize=256)
def read_news(news: str) -> News | None:
    """The news decoded, once for every stream of its game (the same string reaches them
    all); None for a notification without events (too long to carry them) or one that
    cannot be read."""
    last_seq, _, rest = news.partition(":")
    status, carried, events = rest.partition(":")
    if not carried or not status:
        return None
    try:
        rows = orjson.loads(events)
        if not isinstance(rows, list):
            return None
        return News(last_seq=int(last_seq), status=status, rows=rows)
    except ValueError:
        return None


Connect = Callable[[], Awaitable[psycopg.AsyncConnection]]


class Listener:
    """The process's one LISTENing connection, fanning notifications out to subscriptions.

    Runs as a task on the event loop from the first ``subscribe`` until ``stop``, or until
    no stream has followed any game for ``IDLE_SECONDS`` (the next ``subscribe`` starts it
    again, and a stream reads the log when it opens: nothing is missed). It LISTENs on the
    channel of each topic some subscription follows (``channel_of``), and no other: a topic
    followed for the first time is LISTENed on at once, between two notifications, and its
    subscriptions are then woken with no news, to read what was committed before
    (``heard`` lets a stream that has not read yet wait for it instead); a topic no longer
    followed is UNLISTENed on ``UNLISTEN_SECONDS`` later. Each notification
    ``<topic>:<news>`` wakes the subscriptions to that topic with its news. If the
    connection fails, the listener says so once in the log, tries again after 0.5 s, 1 s,
    2 s, ... (at most 30 s, with jitter), and once connected again wakes every subscription,
    with no news, so that each stream reads whatever it missed meanwhile.
    """

    def __init__(self, connect: Connect) -> None:
        self._connect = connect
        self.fanout = Fanout()
        self._task: asyncio.Task[None] | None = None
        self._conn: psycopg.AsyncConnection | None = None
        self._idle: asyncio.TimerHandle | None = None
        self.connected = False
        self.connections = 0  # made so far: a test can tell a reconnection happened
        self.heard_topics: set[str] = set()  # LISTENed on, on the connection now
        self._retune: asyncio.Future[None] | None = None  # set: the channels must change
        self._unlisten: asyncio.TimerHandle | None = None
        self._tuned: asyncio.Future[None] | None = None  # set after each change of channels

    @contextmanager
    def subscribe(
        self, game: object, subscription: Subscription | None = None
    ) -> Iterator[Subscription]:
        """Follows the topic ``game`` (a game's id, or any other channel's name) for the
        block: with a new subscription, or with ``subscription``, which may follow other
        topics too (a key's stream follows all its games on one)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="listener")
        topic = str(game)
        subscription = self.fanout.add(topic, subscription)
        if topic not in self.heard_topics:
            self._change_channels()
        try:
            yield subscription
        finally:
            self.fanout.remove(topic, subscription)
            if not self.fanout and self._task is not None and self._idle is None:
                self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._rest)
            if (
                self._unlisten is None
                and topic not in self.fanout
                and topic in self.heard_topics
            ):
                self._unlisten = asyncio.get_running_loop().call_later(
                    UNLISTEN_SECONDS, self._change_channels
                )

    async def heard(
        self,
        topic: object,
        subscription: Subscription | None = None,
        timeout: float = CONNECT_SECONDS,
    ) -> None:
        """Returns once the connection LISTENs on ``topic`` (followed by a subscription):
        from then on no notification of it is missed. At once while not connected: once
        connected, the listener wakes every subscription. After ``timeout`` at most: the
        wake-up of a topic newly LISTENed on comes anyway. Then ``subscription`` (the
        caller's, about to read everything) forgets the wake-ups it was handed so far."""
        deadline = time.monotonic() + timeout
        while self.connected and str(topic) not in self.heard_topics:
            tuned = self._tuned
            left = deadline - time.monotonic()
            if tuned is None or left <= 0:
                break
            with suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(tuned), left)
        if subscription is not None:
            subscription.forget()

    def _change_channels(self) -> None:
        """Asks the reading of notifications to stop a moment, to LISTEN and UNLISTEN."""
        if self._unlisten is not None:
            self._unlisten.cancel()  # this change makes the pending one too
            self._unlisten = None
        retune = self._retune
        if retune is not None and not retune.done():
            retune.set_result(None)

    def _rest(self) -> None:
        """Stops listening, no stream having followed a game for ``IDLE_SECONDS``. The task
        is let go at once, so that a stream subscribing from now on starts another; the
        cancelled one closes its own connection."""
        self._idle = None
        if self.fanout or self._task is None:
            return
        task, self._task = self._task, None
        task.cancel()

    @property
    def streams(self) -> int:
        return self.fanout.subscriptions

    def _wake(self, game: str, news: str) -> None:
        # Without news (``STREAMS_NEWS`` off, the plain way) each stream reads its game's log.
        self.fanout.publish(game, news if settings.STREAMS_NEWS else None)

    def _wake_all(self) -> None:
        self.fanout.publish_all()

    async def _run(self) -> None:
        pause = FIRST_PAUSE
        while True:
            try:
                conn = self._conn = await self._connect()
            except Exception as error:  # noqa: BLE001 - whatever it is, try again later
                logger.warning("cannot listen for game events (%s); retrying in %.1f s",
                               _oneline(error), pause)
            else:
                self.connected, pause = True, FIRST_PAUSE
                self.connections += 1
                if self.connections > 1:
                    logger.info("listening for game events again")
                try:
                    await self._listen(conn)
                    logger.warning("lost the connection listening for game events")
                except Exception as error:  # noqa: BLE001 - the streams must go on
                    logger.warning("lost the connection listening for game events (%s)",
                                   _oneline(error))
                finally:
                    await self._close_connection(conn)
            await asyncio.sleep(pause * random.uniform(0.8, 1.2))
            pause = min(pause * 2, LONGEST_PAUSE)

    async def _listen(self, conn: psycopg.AsyncConnection) -> None:
        """LISTENs on what is followed, hands out the notifications until the channels must
        change, changes them, and so on; returns (or raises) when the connection is lost."""
        self.heard_topics = set()
        loop = asyncio.get_running_loop()
        if self._tuned is None or self._tuned.done():
            self._tuned = loop.create_future()  # ``heard`` waits for the first tuning too
        first = True
        while True:
            self._retune = loop.create_future()
            added = await self._tune(conn)
            if first:
                self._wake_all()  # whatever was committed while no one listened
                first = False
            else:
                self.fanout.publish_to(added)  # whatever was committed before it LISTENed
            reading = asyncio.ensure_future(self._read(conn))
            try:
                await asyncio.wait((reading, self._retune), return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not reading.done():
                    reading.cancel()
                    with suppress(asyncio.CancelledError):
                        await reading
            if not reading.cancelled():
                reading.result()  # raises what lost the connection
                return

    async def _tune(self, conn: psycopg.AsyncConnection) -> set[str]:
        """LISTENs on the topics followed and not yet heard, UNLISTENs on those no longer
        followed, in one round trip; says which it began to hear."""
        wanted = self.fanout.topics
        added, dropped = wanted - self.heard_topics, self.heard_topics - wanted
        if added or dropped:
            await conn.execute(tuning(added, dropped))
        self.heard_topics = (self.heard_topics | added) - dropped
        tuned, self._tuned = self._tuned, asyncio.get_running_loop().create_future()
        if tuned is not None and not tuned.done():
            tuned.set_result(None)
        return added

    async def _read(self, conn: psycopg.AsyncConnection) -> None:
        async for note in conn.notifies():
            game, _, news = note.payload.partition(":")
            self._wake(game, news)

    async def _close_connection(self, conn: psycopg.AsyncConnection | None) -> None:
        """Closes ``conn``; the listener's state says so only if it is still the listener's
        connection (a listener that went idle and was woken again may have another)."""
        if conn is None:
            return
        if self._conn is conn:
            self._conn, self.connected = None, False
            self.heard_topics = set()
            tuned = self._tuned
            if tuned is not None and not tuned.done():
                tuned.set_result(None)  # ``heard`` waits no more: nothing is heard now
        with suppress(psycopg.Error, OSError):
            await conn.close()

    async def stop(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        if self._unlisten is not None:
            self._unlisten.cancel()
            self._unlisten = None
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        await self._close_connection(self._conn)
        self.connected = False
        self._wake_all()


def _oneline(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


_listeners: dict[asyncio.AbstractEventLoop, Listener] = {}


def listener() -> Listener:
    """The running event loop's listener (one per worker process), made on first use."""
    loop = asyncio.get_running_loop()
    found = _listeners.get(loop)
    if found is None:
        for old in [other for other in _listeners if other.is_closed()]:
            del _listeners[old]
        parameters = listen_parameters(settings.DATABASES["default"])
        found = _listeners[loop] = Listener(lambda: connect_listening(parameters))
    return found


async def stop_listening() -> None:
    """Closes this event loop's listener, if it has one (the worker is stopping)."""
    found = _listeners.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.stop()
