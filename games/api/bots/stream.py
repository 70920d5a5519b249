"""The key's own stream: ``GET /api/v1/me/stream/``, Server-Sent Events for every game of
the key's owner's bots (``games.arena.feed`` says what is sent and when).

Served as the game streams are (``games.api.games.stream``): the view checks the request in
one of the server's request threads and hands an async body to the event loop, so an open
stream costs a coroutine, no thread and no database connection while it waits. It is woken
by ``games.arena.wakeups`` and reads in one of the request threads, giving its connection
back at once. It holds one of the key's three slots (``games.arena.slots``) while open,
renewed together with the slots of its process's other streams, and ends when its key is
revoked (its owner's channel wakes it at once; a read of everything every fourth heartbeat
checks the key too), or when the database cannot be read (a bot reconnects and is sent
every game again).
"""

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor
from functools import partial
from typing import Any, TypeVar

from django.db import Error as DatabaseError
from django.db import connection
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from games.api.games.stream import HEARTBEAT_SECONDS, KEEP_ALIVE, RETRY
from games.arena import slots
from games.arena.feed import Feed, Seats, read_seats
from games.arena.registry import owner_of_caller
from games.arena.wakeups import key_wakeups
from games.http.auth import caller_of
from games.http.codes import HttpCode
from games.http.problems import problem_response
from games.observe.logs import one_line
from games.observe.metrics import OPEN_STREAMS
from games.play.errors import ServiceCode
from games.serving.outlet import Outlet
from games.serving.threaded_wsgi import EXECUTOR_KEY

logger = logging.getLogger(__name__)
T = TypeVar("T")
# Heartbeats between two reads of everything that no notification asked for (a minute).
READ_ALL_EVERY = 4


def _in_thread(work: Callable[[], T]) -> T:
    """``work``, then the thread's connection closed (given back to the pool), so that a
    waiting stream holds none (as the game streams' reads do)."""
    try:
        return work()
    finally:
        if not connection.in_atomic_block:
            connection.close()


class Ended(Exception):
    """The key was revoked: the stream ends."""


def _read_all(feed: Feed) -> list[bytes]:
    if not feed.key_valid():
        raise Ended
    return feed.read_all()


async def key_stream(
    feed: Feed,
    *,
    slot: int,
    stream_id: uuid.UUID,
    executor: Executor | None = None,
    heartbeat: float = HEARTBEAT_SECONDS,
) -> AsyncIterator[bytes]:
    """The stream's body: the retry hint, every game not over (``seated``, and ``turn``
    where a bot is to move), then each change as it comes, a comment at least every
    ``heartbeat`` seconds."""
    loop = asyncio.get_running_loop()

    async def run(work: Callable[[], T]) -> T:
        return await loop.run_in_executor(executor, _in_thread, work)

    OPEN_STREAMS.inc()
    held = slots.leases(executor)
    held.hold(key_id=feed.key_id, slot=slot, stream=stream_id)
    try:
        yield RETRY
        with key_wakeups(feed.owner.channel) as wakeups:
            await wakeups.heard()  # subscribed and listened first, then read: none missed
            everything, games = True, set[str]()
            woken_at = 0.0
            beat_due, beats = time.monotonic() + heartbeat, 0
            while True:
                if everything:
                    messages = await run(lambda: _read_all(feed))
                else:
                    named = frozenset(uuid.UUID(game) for game in games) & feed.games
                    seats = await shared_seats(named, not_before=woken_at, executor=executor)
                    messages = feed.take_seats(seats) if seats is not None else []
                for message in messages:
                    yield message
                wakeups.follow({str(game) for game in feed.games})
                woken = await wakeups.wait(max(beat_due - time.monotonic(), 0.0))
                if woken is None:
                    yield KEEP_ALIVE
                    beats += 1
                    beat_due = time.monotonic() + heartbeat
                    # Now and then, in case a notification went astray: everything again.
                    everything, games = beats % READ_ALL_EVERY == 0, set()
                else:
                    everything, games, woken_at = woken.everything, woken.games, woken.at
    except Ended:
        return
    except DatabaseError as error:
        logger.warning("a key's stream ended: the database cannot be read (%s)", one_line(error))
    finally:
        OPEN_STREAMS.dec()
        try:
            await held.release(key_id=feed.key_id, slot=slot)
            await run(lambda: slots.slot_free(key_id=feed.key_id, slot=slot, stream=stream_id))
        except Exception:  # noqa: BLE001 - the lease runs out on its own
            logger.warning("a key's stream could not free its slot; its lease runs out")


SharedKey = tuple[asyncio.AbstractEventLoop, frozenset[uuid.UUID]]
_reading: dict[SharedKey, tuple[float, "asyncio.Future[Seats]"]] = {}


async def shared_seats(
    games: frozenset[uuid.UUID], *, not_before: float, executor: Executor | None
) -> Seats | None:
    """The bot seats of ``games`` (``feed.read_seats``), one read for every key stream of
    the process woken for them: a move in a game of two bots wakes both owners' streams,
    and each bot's owner may hold three. A stream joins a read under way only if it began
    at or after ``not_before`` (its wake-up), so it never gets an answer older than the
    move that woke it. None when it follows none of them."""
    if not games:
        return None
    loop = asyncio.get_running_loop()
    key = (loop, games)
    started, running = _reading.get(key, (0.0, None))
    if running is None or started < not_before:
        started = time.monotonic()
        running = loop.run_in_executor(executor, _in_thread, partial(read_seats, games))
        _reading[key] = (started, running)
        running.add_done_callback(partial(_forget, key))
    return await asyncio.shield(running)


def _forget(key: SharedKey, done: "asyncio.Future[Seats]") -> None:
    if _reading.get(key, (0.0, None))[1] is done:
        del _reading[key]
    if not done.cancelled():
        done.exception()  # retrieved here: a failure no stream awaits any more is not logged


@csrf_exempt  # a GET changes nothing; other methods answer 405 like every other path
def me_stream(request: HttpRequest) -> HttpResponseBase:
    """Checks the key and takes one of its stream slots, then answers with the stream."""
    if request.method != "GET":
        refused = problem_response(
            HttpCode.METHOD_NOT_ALLOWED,
            gettext('method "{method}" not allowed').format(method=request.method),
        )
        refused["Allow"] = "GET"
        return refused
    caller = caller_of(request)
    if caller is None:
        return problem_response(
            ServiceCode.NOT_AUTHENTICATED, gettext("the key's stream needs its key: send X-API-Key")
        )
    stream_id = uuid.uuid4()
    slot = slots.slot_take(key_id=caller.key_id, stream=stream_id)
    if slot is None:
        refused = problem_response(
            ServiceCode.TOO_MANY_STREAMS,
            gettext("one key holds at most {most} open streams: close one first").format(
                most=slots.MOST_STREAMS
            ),
        )
        return refused
    feed = Feed(owner=owner_of_caller(caller), key_id=caller.key_id)
    executor: Any = request.META.get(EXECUTOR_KEY)
    response = StreamingHttpResponse(
        key_stream(feed, slot=slot, stream_id=stream_id, executor=executor),
        content_type="text/event-stream",
    )
    # Its parts are written by the worker's stream sender, when it has one: the server that
    # sends the body hands the connection over (games.serving.outlet).
    response.outlet = Outlet()  # type: ignore[attr-defined]
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response
