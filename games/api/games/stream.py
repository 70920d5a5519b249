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
one decoding of them (``told``), when they follow on from what the stream has sent; while
the stream waits with everything before them sent, its subscription writes them to the
client itself, and the stream is not even woken (``games.api.games.stream_news``).

If the database cannot be reached, a stream that needs to read ends (the browser reconnects
after ``retry`` and resumes from its ``Last-Event-ID``), and a new stream is refused with 503
``database_unavailable`` and ``Retry-After``: no error escapes to the server.
"""

import asyncio
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Executor
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any

from django.db import Error as DatabaseError
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from games.api.games.bodies import render_event
from games.api.games.stream_news import BATCH, OVER, Progress, Waiting, told, wakeups
from games.db.gamestore import game_log
from games.http.codes import HttpCode, Refused
from games.http.permissions import require_may_see
from games.http.problems import problem_response
from games.http.translation import said
from games.observe.logs import one_line
from games.observe.metrics import OPEN_STREAMS
from games.play.errors import ServiceCode, ServiceError
from games.play.privacy import private_of
from games.play.selectors import game_columns
from games.serving.outlet import Outlet
from games.serving.threaded_wsgi import EXECUTOR_KEY
from scoring import ProblemCode

logger = logging.getLogger(__name__)
RETRY_MILLISECONDS = 2000  # how long a browser waits before it reconnects
HEARTBEAT_SECONDS = 15.0  # a comment this often keeps proxies from closing an idle stream
MAX_POSITION = 2**31 - 1  # the events endpoint's bound on `after`
POSITION_RE = re.compile(r"[0-9]{1,10}")
RETRY = f"retry: {RETRY_MILLISECONDS}\n\n".encode()
KEEP_ALIVE = b": keep-alive\n\n"


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


async def event_stream(
    game_id: uuid.UUID,
    after: int,
    *,
    wake: Callable[[uuid.UUID], AbstractAsyncContextManager[Waiting]] | None = None,
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
        async with (wake or wakeups())(game_id) as waiting:
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
                        one_line(error),
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
                waiting.sent = sent
                while True:
                    woken = await waiting.wait(max(beat_due - time.monotonic(), 0.0))
                    # Moves the subscription sent itself meanwhile, if any.
                    sent = waiting.sent
                    beat_due = max(beat_due, waiting.sent_at + heartbeat)
                    if woken:
                        break
                    if time.monotonic() >= beat_due:
                        yield KEEP_ALIVE
                        beat_due = time.monotonic() + heartbeat
    finally:
        OPEN_STREAMS.dec()


def _check_visible(request: HttpRequest, pk: uuid.UUID) -> None:
    """A game of an assignment is private until its deadline (``MaySeeGame``)."""
    found = game_columns(pk)
    if found is not None:
        require_may_see(request, private_of(pk, found))


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
        logger.warning("event stream refused: the database cannot be read (%s)", one_line(error))
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
    outlet = Outlet()  # opened by the server that sends the body, if it can
    response = StreamingHttpResponse(
        event_stream(pk, after, wake=wakeups(outlet), read=read),
        content_type="text/event-stream",
    )
    response.outlet = outlet  # type: ignore[attr-defined]  # found by games.serving.threaded_wsgi
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response
