"""A game's log as Server-Sent Events, pushed as soon as each move commits.

``GET /api/v1/games/{id}/stream/`` answers ``text/event-stream``: one message per event of
the log (``id: <seq>``, ``event: <type>``, ``data: <the event as the events endpoint renders
it>``), from the position the client names (``Last-Event-ID`` on a browser's reconnection,
else ``?after=``), else from the beginning. The stream ends once the game is over and its
last event is sent; a client that comes back after that gets 204, which tells a browser's
``EventSource`` to stop reconnecting.

The view checks the request and the game in one of the server's request threads, like every
other request; the stream's body is an async generator that the server sends from its event
loop (``games.serving.threaded_wsgi``), so an open stream costs a coroutine, not a thread, and no
database connection while it waits. On PostgreSQL it subscribes to its worker process's one
listener (``games.db.notify.Listener``) and reads the log only when woken: when a commit names
its game, or when the listener has reconnected after losing the database. Without
PostgreSQL it polls the log. A read runs on one of the request threads and borrows a pooled
connection for its few milliseconds, and streams of one game woken together share one read.
Most wake-ups need no read at all: the notification carries the change's events and the
game's status (migration 0016), which every stream of the game in the process is sent as
one decoding of them (``told``), when they follow on from what the stream has sent.

If the database cannot be reached, a stream that needs to read ends (the browser reconnects
after ``retry`` and resumes from its ``Last-Event-ID``), and a new stream is refused with 503
``database_unavailable`` and ``Retry-After``: no error escapes to the server.
"""

import asyncio
import datetime as dt
import json
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import cached_property, lru_cache, partial
from typing import Any, Protocol

from django.db import Error as DatabaseError
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from games.api.games.bodies import EventBody, render_event
from games.db.gamestore import game_log
from games.db.notify import listener, read_news
from games.http.codes import HttpCode, Refused
from games.http.permissions import require_may_see
from games.http.problems import problem_response
from games.http.translation import said
from games.models import Event
from games.observe.metrics import OPEN_STREAMS
from games.play.errors import ServiceCode, ServiceError
from games.play.privacy import private_of
from games.play.selectors import game_columns
from games.serving.threaded_wsgi import EXECUTOR_KEY
from scoring import ProblemCode
from scoring.match import GameStatus

logger = logging.getLogger(__name__)
RETRY_MILLISECONDS = 2000  # how long a browser waits before it reconnects
HEARTBEAT_SECONDS = 15.0  # a comment this often keeps proxies from closing an idle stream
POLL_SECONDS = 0.5  # between two reads of the log when nothing tells us it grew
BATCH = 200  # events read at once
OVER = frozenset({GameStatus.FINISHED, GameStatus.ABANDONED})
MAX_POSITION = 2**31 - 1  # the events endpoint's bound on `after`
POSITION_RE = re.compile(r"[0-9]{1,10}")
RETRY = f"retry: {RETRY_MILLISECONDS}\n\n".encode()
KEEP_ALIVE = b": keep-alive\n\n"


def sse_message(event: Mapping[str, Any]) -> bytes:
    """One rendered event as an SSE message; JSON escapes newlines, so ``data`` is one line."""
    data = json.dumps(event, separators=(",", ":"), ensure_ascii=False)
    return f"id: {event['seq']}\nevent: {event['type']}\ndata: {data}\n\n".encode()


class BadPosition(ValueError):
    def __init__(self, field: str, detail: str) -> None:
        super().__init__(detail)
        self.field = field
        self.detail = detail


def start_position(request: HttpRequest) -> int:
    """The last seq the client has: ``Last-Event-ID`` (a reconnecting browser), else ``after``.

    The header wins because it is newer: a browser resends the URL it was opened with,
    ``?after=`` included, together with the id of the last event it got.
    """
    query = request.GET.get("after")
    after = _position("after", query) if query is not None else 0
    header = (request.headers.get("Last-Event-ID") or "").strip()
    return _position("Last-Event-ID", header) if header else after


def _position(field: str, raw: str) -> int:
    if POSITION_RE.fullmatch(raw) is None or int(raw) > MAX_POSITION:
        raise BadPosition(
            field,
            gettext("must be an event seq: an integer from 0 to {most}").format(most=MAX_POSITION),
        )
    return int(raw)


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


def _read(game_id: uuid.UUID, after: int) -> Progress | None:
    """The game's position and its events after ``after``; None if the game is gone.

    Runs in a thread (the view's; for a stream's later reads, one of the server's request
    threads), then closes the connection it used (on PostgreSQL: gives it back to the pool),
    so that a waiting stream holds none. Plain SQL in one round trip on PostgreSQL
    (``games.db.gamestore``): every stream reads on opening and again on each move of its
    game, and through the ORM building the two queries cost more than running them.
    """
    try:
        found = game_log(game_id, after=after, limit=BATCH)
        if found is None:
            return None
        status, last_seq, events = found
        rendered = [render_event(event) for event in events]
        return Progress(over=status in OVER, last_seq=last_seq, events=rendered)
    finally:
        if not connection.in_atomic_block:  # a transaction around the view (a test's) keeps it
            connection.close()


async def _read_in_thread(
    game_id: uuid.UUID, after: int, executor: Executor | None = None
) -> Progress | None:
    """``_read`` in one of ``executor``'s threads: the server's request threads, which own the
    worker's pooled connections (``games.serving.threaded_wsgi``), else the loop's default ones."""
    return await asyncio.get_running_loop().run_in_executor(executor, _read, game_id, after)


ReadKey = tuple[asyncio.AbstractEventLoop, uuid.UUID, int]


_reading: dict[ReadKey, tuple[float, asyncio.Future[Any]]] = {}


async def read_log(
    game_id: uuid.UUID, after: int, *, not_before: float = 0.0, executor: Executor | None = None
) -> Progress | None:
    """``_read``, shared: streams of one game that ask for the same position share one read.

    A notification wakes every stream of its game at once, and streams that are in step ask
    for the same events: a hundred spectators of one game cost one read per move, not a
    hundred. A stream joins a read under way only if it began at or after ``not_before``
    (when the stream was woken), so it never gets an answer older than its wake-up. The
    shared read is shielded, so one client going away cancels only its own wait.
    """
    key = (asyncio.get_running_loop(), game_id, after)
    started, running = _reading.get(key, (0.0, None))
    if running is None or started < not_before:
        started = time.monotonic()
        running = asyncio.ensure_future(_read_in_thread(game_id, after, executor))
        _reading[key] = (started, running)
        running.add_done_callback(lambda done: _forget(key, done))
    return await asyncio.shield(running)


def _forget(key: ReadKey, done: asyncio.Future[Any]) -> None:
    if _reading.get(key, (0.0, None))[1] is done:
        del _reading[key]
    if not done.cancelled():
        done.exception()  # retrieved here, so a failure no one awaits any more is not logged


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

    async def wait(self, timeout: float) -> bool:
        """True when the log may have grown (read it), False when ``timeout`` passed."""
        ...


class Polling:
    """Without notifications: the log may have grown every ``POLL_SECONDS``."""

    woken_at = 0.0
    news: str | None = None

    async def wait(self, timeout: float) -> bool:
        if timeout < POLL_SECONDS:
            await asyncio.sleep(timeout)
            return False
        await asyncio.sleep(POLL_SECONDS)
        self.woken_at = time.monotonic()
        return True


@asynccontextmanager
async def wakeups(game_id: uuid.UUID) -> AsyncIterator[Waiting]:
    """The process's listener on PostgreSQL, polling elsewhere."""
    if connection.vendor != "postgresql":
        yield Polling()
        return
    with listener().subscribe(game_id) as subscription:
        yield subscription


async def event_stream(
    game_id: uuid.UUID,
    after: int,
    *,
    wake: Callable[[uuid.UUID], AbstractAsyncContextManager[Waiting]] = wakeups,
    read: Callable[..., Awaitable[Progress | None]] = read_log,
    heartbeat: float = HEARTBEAT_SECONDS,
) -> AsyncIterator[bytes]:
    """The body of the stream: the retry hint, then each event after ``after`` as it comes.

    Ends once the game is over and everything is sent, if the game is deleted, or if the
    database cannot be reached (the client then resumes from its last event). A client that
    goes away cancels the task that iterates this; leaving ``wake``'s block then ends the
    stream's subscription. One generator, not one wrapped in another: each event passes
    through every stream of its game, so each layer costs a thousand times.
    """
    yield RETRY
    OPEN_STREAMS.inc()
    try:
        async with wake(game_id) as waiting:
            sent = after
            beat_due = time.monotonic() + heartbeat
            while True:
                try:
                    progress = told(waiting, sent) or await read(
                        game_id, sent, not_before=waiting.woken_at
                    )
                except DatabaseError as error:
                    logger.warning(
                        "event stream of game %s ended after seq %d: the database cannot be"
                        " read (%s); the client resumes from there", game_id, sent,
                        _oneline(error),
                    )
                    return
                if progress is None:
                    return
                if progress.events:
                    yield progress.payload  # the same bytes for every stream in step
                    sent = progress.events[-1]["seq"]
                    beat_due = time.monotonic() + heartbeat
                    if len(progress.events) == BATCH:
                        continue  # more to send at once
                if progress.over and sent >= progress.last_seq:
                    return
                while not await waiting.wait(max(beat_due - time.monotonic(), 0.0)):
                    yield KEEP_ALIVE
                    beat_due = time.monotonic() + heartbeat
    finally:
        OPEN_STREAMS.dec()


def _check_visible(request: HttpRequest, pk: uuid.UUID) -> None:
    """A game of an assignment is private until its deadline (``MaySeeGame``)."""
    found = game_columns(pk)
    if found is not None:
        require_may_see(request, private_of(pk, found))


def _oneline(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


@csrf_exempt  # a GET changes nothing; other methods answer 405 like every other path
def game_stream(request: HttpRequest, pk: uuid.UUID) -> HttpResponseBase:
    """Checks the request and the game, then answers with the stream.

    A plain (sync) view: it runs in one of the server's request threads like every other
    request (``games.serving.threaded_wsgi``), which hands the stream's async body to the
    event loop.
    """
    if request.method != "GET":
        refused = problem_response(
            HttpCode.METHOD_NOT_ALLOWED,
            gettext('method "{method}" not allowed').format(method=request.method),
        )
        refused["Allow"] = "GET"
        return refused
    try:
        after = start_position(request)
    except BadPosition as bad:
        error = {"field": bad.field, "code": ProblemCode.INVALID, "detail": bad.detail}
        detail = gettext("{field}: {detail}").format(field=bad.field, detail=bad.detail)
        return problem_response(ProblemCode.INVALID, detail, errors=[error])
    try:
        _check_visible(request, pk)
        found = _read(pk, MAX_POSITION)  # gives its connection back to the pool at once
    except (ServiceError, Refused) as refused:
        return problem_response(refused.code, said(refused))
    except DatabaseError as error:
        logger.warning("event stream refused: the database cannot be read (%s)", _oneline(error))
        return problem_response(
            HttpCode.DATABASE_UNAVAILABLE, gettext("the database cannot be reached")
        )
    if found is None:
        return problem_response(ServiceCode.NOT_FOUND, gettext("no game with this id"))
    if found.over and found.last_seq <= after:
        # Nothing more will come. 204 (not an empty stream) tells EventSource to stop
        # reconnecting.
        done = HttpResponse(status=204)
        del done["Content-Type"]
        return done
    # Its later reads run on the server's request threads, when it says which they are.
    read = partial(read_log, executor=request.META.get(EXECUTOR_KEY))
    response = StreamingHttpResponse(
        event_stream(pk, after, read=read), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response
