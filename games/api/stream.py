"""A game's log as Server-Sent Events, pushed as soon as each move commits.

``GET /api/v1/games/{id}/stream/`` answers ``text/event-stream``: one message per event of
the log (``id: <seq>``, ``event: <type>``, ``data: <the event as the events endpoint renders
it>``), from the position the client names (``Last-Event-ID`` on a browser's reconnection,
else ``?after=``), else from the beginning. The stream ends once the game is over and its
last event is sent; a client that comes back after that gets 204, which tells a browser's
``EventSource`` to stop reconnecting.

The view is async (served under ASGI), so an open stream costs a coroutine, not a thread.
On PostgreSQL, ``games.notify`` announces every commit on the channel ``game_events``; the
stream LISTENs there and wakes as soon as its game is named, and reads the log every few
seconds anyway, in case a notification was lost. Without PostgreSQL, or when listening
fails, it polls the log. Between two reads the stream holds no connection of Django's: on
PostgreSQL an open stream costs one connection, the one that listens.
"""

import asyncio
import json
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager, aclosing, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from psycopg import sql

from ..models import Event, Game
from ..notify import CHANNEL
from .errors import problem_response
from .render import render_event

logger = logging.getLogger(__name__)

RETRY_MILLISECONDS = 2000  # how long a browser waits before it reconnects
HEARTBEAT_SECONDS = 15.0  # a comment this often keeps proxies from closing an idle stream
POLL_SECONDS = 0.5  # between two reads of the log when nothing tells us it grew
SAFETY_POLL_SECONDS = 5.0  # between two reads while listening: a lost notification costs this
CONNECT_SECONDS = 5  # to open the listening connection before falling back to polling
BATCH = 200  # events read at once
LISTENER_NAME = "dice-game-stream"  # the listening connections' application_name

OVER = frozenset({Game.Status.FINISHED, Game.Status.ABANDONED})
MAX_POSITION = 2**31 - 1  # the events endpoint's bound on `after`
POSITION_RE = re.compile(r"[0-9]{1,10}")
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
        raise BadPosition(field, f"must be an event seq: an integer from 0 to {MAX_POSITION}")
    return int(raw)


@dataclass(frozen=True)
class Progress:
    """What one read of the log found."""

    over: bool  # the game is finished or abandoned: its log will not grow
    last_seq: int  # the seq of the game's last event
    events: list[dict[str, Any]]  # rendered, oldest first, at most BATCH of them


def _read(game_id: uuid.UUID, after: int) -> Progress | None:
    """The game's position and its events after ``after``; None if the game is gone.

    Runs in the request's worker thread (``sync_to_async``), then closes the connection it
    used, so that a waiting stream holds none.
    """
    try:
        row = Game.objects.filter(pk=game_id).values_list("status", "last_seq").first()
        if row is None:
            return None
        status, last_seq = row
        events = []
        if last_seq > after:
            rows = Event.objects.filter(game_id=game_id, seq__gt=after).order_by("seq")[:BATCH]
            events = [render_event(event) for event in rows]
        return Progress(over=status in OVER, last_seq=last_seq, events=events)
    finally:
        connections["default"].close()


read_log: Callable[[uuid.UUID, int], Awaitable[Progress | None]] = sync_to_async(_read)


class Waiting(Protocol):
    @property
    def interval(self) -> float: ...

    async def wait(self, timeout: float) -> None: ...


class Wakeups:
    """Waits until the game's log may have grown: a notification about it, or a timeout.

    With a listening connection, a wait ends as soon as a notification for this game
    arrives. Without one (or once it has failed), the stream reads the log every
    ``POLL_SECONDS``: ``interval`` is the longest the stream may wait between two reads.
    """

    def __init__(self, game_id: uuid.UUID, listener: psycopg.AsyncConnection | None) -> None:
        self._game = str(game_id)
        self._listener = listener

    @property
    def interval(self) -> float:
        return SAFETY_POLL_SECONDS if self._listener is not None else POLL_SECONDS

    async def wait(self, timeout: float) -> None:
        if self._listener is None:
            await asyncio.sleep(timeout)
            return
        deadline = time.monotonic() + timeout
        try:
            while (left := deadline - time.monotonic()) > 0:
                # aclosing: the generator holds the connection's lock until it is closed.
                async with aclosing(self._listener.notifies(timeout=left, stop_after=1)) as notes:
                    async for note in notes:
                        if note.payload.partition(":")[0] == self._game:
                            return
        except psycopg.Error:
            logger.warning("lost the connection listening for game events", exc_info=True)
            await self.close()

    async def close(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()


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


async def listen(parameters: Mapping[str, Any]) -> psycopg.AsyncConnection | None:
    """A connection that listens for game events, or None if there is none to be had."""
    try:
        listener = await asyncio.wait_for(
            psycopg.AsyncConnection.connect(**parameters, autocommit=True), CONNECT_SECONDS
        )
    except (psycopg.Error, OSError, TimeoutError):
        logger.warning("cannot listen for game events; the stream polls instead", exc_info=True)
        return None
    try:
        await listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
    except psycopg.Error:
        logger.warning("LISTEN failed; the stream polls instead", exc_info=True)
        await listener.close()
        return None
    return listener


@asynccontextmanager
async def wakeups(game_id: uuid.UUID) -> AsyncIterator[Wakeups]:
    """Listens on PostgreSQL, polls elsewhere; the connection closes with the stream."""
    listener = None
    if connections["default"].vendor == "postgresql":
        listener = await listen(listen_parameters(settings.DATABASES["default"]))
    waiting = Wakeups(game_id, listener)
    try:
        yield waiting
    finally:
        await waiting.close()


async def event_stream(
    game_id: uuid.UUID,
    after: int,
    *,
    wake: Callable[[uuid.UUID], AbstractAsyncContextManager[Waiting]] = wakeups,
    read: Callable[[uuid.UUID, int], Awaitable[Progress | None]] = read_log,
    heartbeat: float = HEARTBEAT_SECONDS,
) -> AsyncIterator[bytes]:
    """The body of the stream: the retry hint, then each event after ``after`` as it comes.

    Ends once the game is over and everything is sent (or if the game is deleted). A client
    that goes away cancels the task that iterates this; leaving ``wake``'s block then closes
    the listening connection.
    """
    yield RETRY
    async with wake(game_id) as waiting:
        sent = after
        beat_due = time.monotonic() + heartbeat
        while True:
            progress = await read(game_id, sent)
            if progress is None:
                return
            for event in progress.events:
                yield sse_message(event)
                sent = event["seq"]
            if progress.events:
                beat_due = time.monotonic() + heartbeat
                if len(progress.events) == BATCH:
                    continue  # more to send at once
            if progress.over and sent >= progress.last_seq:
                return
            if time.monotonic() >= beat_due:
                yield KEEP_ALIVE
                beat_due = time.monotonic() + heartbeat
            await waiting.wait(min(waiting.interval, max(beat_due - time.monotonic(), 0.0)))


@csrf_exempt  # a GET changes nothing; other methods answer 405 like every other path
async def game_stream(request: HttpRequest, pk: uuid.UUID) -> HttpResponseBase:
    if request.method != "GET":
        refused = problem_response("method_not_allowed", f'method "{request.method}" not allowed')
        refused["Allow"] = "GET"
        return refused
    try:
        after = start_position(request)
    except BadPosition as bad:
        error = {"field": bad.field, "code": "invalid", "detail": bad.detail}
        return problem_response("invalid", f"{bad.field}: {bad.detail}", errors=[error])
    found = await Game.objects.filter(pk=pk).values_list("status", "last_seq").afirst()
    if found is None:
        return problem_response("not_found", "no game with this id")
    status, last_seq = found
    if status in OVER and last_seq <= after:
        # Nothing more will come. 204 (not an empty stream) tells EventSource to stop
        # reconnecting.
        done = HttpResponse(status=204)
        del done["Content-Type"]
        return done
    response = StreamingHttpResponse(event_stream(pk, after), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response
