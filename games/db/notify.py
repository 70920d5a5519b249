"""Telling live listeners that a game's log has grown.

On PostgreSQL a committed change sends ``NOTIFY game_events, '<game id>:<last seq>...'``: a
trigger on the event log does it, inside the transaction that writes the events, and
PostgreSQL delivers it when that commits (migrations 0006 and 0016). Each worker process
LISTENs on one connection of its own (``Listener``), started by the first event stream that
waits, and wakes every stream of that process that follows the game named, handing each the
rest of the payload (the news: the game's status and the new events, where they fit in
it): a thousand open streams cost one connection, not a thousand. When that connection is
lost (the database restarts, say) the listener reconnects with growing pauses and then wakes
every stream, with no news, so that each reads its game's log again: nothing is missed.
Other databases have no such channel: their streams poll (see ``games.api.games.stream``).
"""

import asyncio
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

CHANNEL = "game_events"
LISTENER_NAME = "dice-game-stream"  # the listening connection's application_name
CONNECT_SECONDS = 5  # to open the listening connection, before trying again later
FIRST_PAUSE = 0.5  # seconds before the first reconnection; doubled each failure...
LONGEST_PAUSE = 30.0  # ...up to this
# Seconds a listener with no stream left keeps listening before it stops: while it listens,
# every move's notification wakes it (and its backend) for nothing.
IDLE_SECONDS = 10.0
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


async def connect_and_listen(parameters: Mapping[str, Any]) -> psycopg.AsyncConnection:
    """A connection LISTENing on the channel; raises what connecting raises."""
    conn = await asyncio.wait_for(
        psycopg.AsyncConnection.connect(**parameters, autocommit=True), CONNECT_SECONDS
    )
    try:
        await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
    except BaseException:
        await conn.close()
        raise
    return conn


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


class Subscription:
    """A stream's interest in one or more topics (a game stream: its game's id; a key's
    stream: its owner's channel and each of its games): ``wait`` returns when one of them
    may have news. ``woken`` holds the topics of the wake-ups not yet taken (None: every
    topic, the listener having reconnected), ``news`` the last one's news.

    Waiting costs a future and a timer, no task: a wake-up is handed to a thousand waiting
    streams in a row, so what each costs counts (``asyncio.wait_for`` made a task per wait).
    """

    __slots__ = ("_kept", "_waiter", "game", "news", "woken", "woken_at")

    def __init__(self, game: str = "") -> None:
        self.game = game  # the topic it was made for (a game stream's only one)
        self.woken_at = 0.0  # time.monotonic() of the last wake-up
        # What the last wake-up's notification said after the topic (None: nothing, so
        # read the log); the stream takes it when it has used it.
        self.news: str | None = None
        self.woken: set[str] | None = set()
        self._kept = False  # a wake-up that came while the stream was not waiting
        self._waiter: asyncio.Future[bool] | None = None

    def wake(self, news: str | None = None, topic: str | None = None) -> None:
        self.woken_at = time.monotonic()
        self.news = news
        if topic is None:
            self.woken = None
        elif self.woken is not None:
            self.woken.add(topic)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)
        elif waiter is None or waiter.cancelled() or not waiter.result():
            self._kept = True  # not waiting (or its wait just timed out): the next wait returns

    @property
    def waiting(self) -> bool:
        """True while its stream waits in ``wait`` with no wake-up handed to it yet: the
        stream has sent everything it had, and is doing nothing else."""
        waiter = self._waiter
        return waiter is not None and not waiter.done()

    def take_woken(self) -> set[str] | None:
        """The topics woken since the last call (None: all of them), forgotten here."""
        woken, self.woken = self.woken, set()
        return woken

    async def wait(self, timeout: float) -> bool:
        """True when woken, False at the timeout. A wake-up while not waiting is kept; wake-ups
        that come together make one."""
        if self._kept:
            self._kept = False
            return True
        loop = asyncio.get_running_loop()
        waiter = self._waiter = loop.create_future()
        timer = loop.call_later(timeout, _time_up, waiter)
        try:
            return await waiter
        finally:
            timer.cancel()
            self._waiter = None


def _time_up(waiter: "asyncio.Future[bool]") -> None:
    if not waiter.done():
        waiter.set_result(False)


class Fanout:
    """The process's streams by topic, and the one hand-out of each piece of news to them.

    A topic is a string: a game's id, or another channel's name (a key's owner's). ``publish``
    gives the news (the same string object, decoded once by whoever reads it, as
    ``games.api.games.stream`` does) to every subscription of the topic, in one pass on the
    event loop; ``publish_all`` wakes every subscription with no news (each then reads what
    it may have missed). Whatever follows a topic on a process's event loop subscribes here
    (through ``Listener.subscribe``), a game stream with a subscription of its own, a key's
    stream with one subscription for all its topics: the listener below feeds it from
    PostgreSQL's notifications. docs/architecture.md, "Live streams", says how to use it.
    """

    def __init__(self) -> None:
        self._topics: dict[str, set[Subscription]] = {}

    def add(self, topic: str, subscription: Subscription | None = None) -> Subscription:
        """``subscription`` (a new one by default) follows ``topic`` from now on."""
        subscription = subscription or Subscription(topic)
        self._topics.setdefault(topic, set()).add(subscription)
        return subscription

    def remove(self, topic: str, subscription: Subscription) -> None:
        followers = self._topics.get(topic)
        if followers is not None:
            followers.discard(subscription)
            if not followers:
                del self._topics[topic]

    def publish(self, topic: str, news: str | None) -> None:
        for subscription in self._topics.get(topic, ()):
            subscription.wake(news, topic)

    def publish_all(self) -> None:
        woken: set[Subscription] = set()
        for followers in self._topics.values():
            woken |= followers
        for subscription in woken:
            subscription.wake()

    def __bool__(self) -> bool:
        return bool(self._topics)

    @property
    def subscriptions(self) -> int:
        """Subscriptions that follow a topic (one that follows several counts once)."""
        found: set[Subscription] = set()
        for followers in self._topics.values():
            found |= followers
        return len(found)


Connect = Callable[[], Awaitable[psycopg.AsyncConnection]]


class Listener:
    """The process's one LISTENing connection, fanning notifications out to subscriptions.

    Runs as a task on the event loop from the first ``subscribe`` until ``stop``, or until
    no stream has followed any game for ``IDLE_SECONDS`` (the next ``subscribe`` starts it
    again, and a stream reads the log when it opens: nothing is missed). Each
    notification ``<game>:<news>`` wakes the subscriptions to that game with its news. If the
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
        try:
            yield subscription
        finally:
            self.fanout.remove(topic, subscription)
            if not self.fanout and self._task is not None and self._idle is None:
                self._idle = asyncio.get_running_loop().call_later(IDLE_SECONDS, self._rest)

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
                self._wake_all()  # whatever was committed while no one listened
                try:
                    async for note in conn.notifies():
                        game, _, news = note.payload.partition(":")
                        self._wake(game, news)
                    logger.warning("lost the connection listening for game events")
                except Exception as error:  # noqa: BLE001 - the streams must go on
                    logger.warning("lost the connection listening for game events (%s)",
                                   _oneline(error))
                finally:
                    await self._close_connection(conn)
            await asyncio.sleep(pause * random.uniform(0.8, 1.2))
            pause = min(pause * 2, LONGEST_PAUSE)

    async def _close_connection(self, conn: psycopg.AsyncConnection | None) -> None:
        """Closes ``conn``; the listener's state says so only if it is still the listener's
        connection (a listener that went idle and was woken again may have another)."""
        if conn is None:
            return
        if self._conn is conn:
            self._conn, self.connected = None, False
        with suppress(psycopg.Error, OSError):
            await conn.close()

    async def stop(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
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
        found = _listeners[loop] = Listener(lambda: connect_and_listen(parameters))
    return found


async def stop_listening() -> None:
    """Closes this event loop's listener, if it has one (the worker is stopping)."""
    found = _listeners.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.stop()
