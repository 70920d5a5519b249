"""A WSGI application served from an ASGI server in one hand-over to a pool of threads.

An adapter that lets the WSGI side read the body and send the answer through the event loop
(a2wsgi does) crosses between the thread and the loop four times for a small POST, and each
crossing waits for the interpreter lock: under load, with every thread busy, that made the
service about a third slower than the same code in gunicorn's threaded WSGI server
(docs/benchmark.md, "Why the service is served this way"). Here the loop reads the whole
(bounded) body, one pooled thread runs the application and collects its whole answer, and
the loop sends it: the request crosses over once and comes back once.

A request the ``quick`` predicate names (a move, a game's creation or read: short, bounded
work) does not cross over at all: it runs on the event loop's own thread, between two reads
of the loop. Under load the threads took the interpreter lock from one another, so a move
waited for whichever thread held it: run on the loop's thread, one after the other, the
slowest moves (the 99th percentile) were answered sooner in five rounds of six
(docs/benchmark.md, "Quick requests on the loop's thread"). While such a request runs, the
loop waits: every other request and stream of the worker process waits a move's length
(a few milliseconds at most), as under a server of synchronous workers. Such requests run
one after the other in one ``contextvars.Context`` of their own, so that Django keeps one
connection handler for them as it does for each pooled thread. A quick request that took
longer than ``quick_limit`` seconds (a database that went away: the pool waits seconds for a
connection) sends the quick requests to the threads for the next ``quick_pause`` seconds, so
that a worker whose database is gone never holds its loop up for long (its streams, its
health answers, gunicorn's check that it is alive).

The JSON API's answers are small; the largest answers on this path are the docs' static
files (a few megabytes at most), which are collected the same way. An answer whose body is an
async iterator (Django's ``StreamingHttpResponse`` over an async generator: the live event
streams) is the exception: the thread hands it back as soon as the headers are known, and
the loop sends each part as it comes, until the body ends or the client goes away. So a
stream costs one crossing to open, like any request, and then no thread at all.
"""

import asyncio
import contextvars
import io
import logging
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from a2wsgi.wsgi import build_environ

from games.serving.outlet import Outlet

logger = logging.getLogger(__name__)

# The environ key under which the application finds the pool of threads it runs in, for work
# of its own that must run there too (the event streams' reads of the log, which use the
# threads' database connections).
EXECUTOR_KEY = "threaded_wsgi.executor"

Headers = list[tuple[bytes, bytes]]
Answer = tuple[int, Headers, "bytes | AsyncBody"]


class AsyncBody:
    """An answer's body that the event loop sends part by part (see the module's notes)."""

    def __init__(self, iterable: Any) -> None:
        self.iterable = iterable  # has __aiter__; its close() ends the request for Django

    async def send(self, send: Any) -> None:
        # Django's response's own async iteration wraps its ``streaming_content`` (itself a
        # wrapper of the body) once more, for nothing here: each layer costs every part.
        content = getattr(self.iterable, "streaming_content", self.iterable)
        parts = aiter(content)
        # A body that may write parts itself while it waits (``games.serving.outlet``), unless
        # its parts are encoded on the way (compressed, say), which a direct write would skip.
        outlet = getattr(self.iterable, "outlet", None)
        has_header = getattr(self.iterable, "has_header", None)
        if isinstance(outlet, Outlet) and not (has_header and has_header("Content-Encoding")):
            outlet.connect(send)
        else:
            outlet = Outlet()  # never connected: shut
        try:
            async for part in parts:
                if not outlet.handed:
                    await send({"type": "http.response.body", "body": part, "more_body": True})
                elif not await outlet.send(part):
                    return  # the stream sender let go of it: its connection is closed
            await outlet.release()  # what the stream sender holds is written first
            outlet.shut()  # before the last chunk: nothing may follow it
            await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass  # the client went away while a part was being sent
        finally:
            outlet.shut()
            closing = getattr(parts, "aclose", None)
            if closing is not None:
                await closing()


class ThreadedWSGI:
    """An ASGI application running ``app`` (WSGI) in ``threads`` long-lived threads."""

    def __init__(
        self,
        app: Callable[..., Iterable[bytes]],
        *,
        threads: int,
        max_body: int,
        quick: Callable[[dict[str, Any]], bool] | None = None,
        quick_limit: float = 1.0,
        quick_pause: float = 30.0,
    ):
        self.app = app
        self.max_body = max_body
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="api")
        self.quick = quick
        self.here = contextvars.Context()  # the quick requests' context (see the module)
        self.quick_limit, self.quick_pause = quick_limit, quick_pause
        self.paused_until = 0.0  # time.monotonic() before which no request runs here
        self.closer = Closer(self.executor)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        read = await self._body(scope, receive)
        if read is None:
            return  # the client went away before its body arrived
        body, length = read
        # A plain dict: PEP 3333 lets a server add its own keys, which a2wsgi's TypedDict
        # does not list (the executor's, below).
        environ = cast(
            "dict[str, Any]",
            build_environ(scope, io.BytesIO(body)),  # type: ignore[arg-type]  # an ASGI scope is a plain dict here
        )
        environ["CONTENT_LENGTH"] = str(length)
        environ["wsgi.errors"] = sys.stderr
        environ[EXECUTOR_KEY] = self.executor
        if self._here(scope):
            status, headers, content = self._run_here(environ)
        else:
            loop = asyncio.get_running_loop()
            status, headers, content = await loop.run_in_executor(
                self.executor, self._run, environ
            )
        if length > self.max_body:
            headers.append((b"connection", b"close"))  # the rest of the body is never read
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if isinstance(content, AsyncBody):
            await self._stream(content, receive, send)
        else:
            await send({"type": "http.response.body", "body": content})

    async def _stream(self, body: AsyncBody, receive: Any, send: Any) -> None:
        """Sends ``body`` until it ends or the client disconnects, whichever comes first; then
        closes the answer in a thread (Django's end of request: the ``request_finished``
        signal)."""
        sending = asyncio.ensure_future(body.send(send))
        listening = asyncio.ensure_future(_disconnection(receive))
        try:
            await asyncio.wait({sending, listening}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sending, listening):
                task.cancel()
            sent, _ = await asyncio.gather(sending, listening, return_exceptions=True)
            if isinstance(sent, Exception):  # a failure of the body's own, not the client's
                logger.error("a streamed answer failed", exc_info=sent)
            close = getattr(body.iterable, "close", None)
            if close is not None:
                await self.closer.close(close)

    async def _body(self, scope: dict[str, Any], receive: Any) -> tuple[bytes, int] | None:
        """The request's body, read whole if it is within ``max_body``, and the length the
        application is told it has (its ``CONTENT_LENGTH``); None if the client went away.

        A body is as long as its Content-Length says or, sent chunked (no Content-Length, a
        Transfer-Encoding), as long as its chunks, read as they come. A body over
        ``max_body`` is not kept: one that declares its length is not read at all, a
        chunked one no further than past the bound. Either way the application is told a
        length over the bound and refuses it unread (413), as Django does, and the answer
        closes the connection, so the rest is never read. A request with neither header has
        no body (HTTP/1.1), and nothing is awaited for it.
        """
        declared = _content_length(scope)
        chunked = declared is None and _has_header(scope, b"transfer-encoding")
        if declared is None and not chunked:
            return b"", 0
        if declared is not None and (declared == 0 or declared > self.max_body):
            return b"", declared
        # A chunked body is read until it ends or is known to be over the bound.
        bound = self.max_body + 1 if declared is None else declared
        body = bytearray()
        while len(body) < bound:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        if len(body) > self.max_body:
            return b"", len(body)  # chunked, past the bound: refused with what was read
        return bytes(body[:bound]), min(len(body), bound)

    def _here(self, scope: dict[str, Any]) -> bool:
        """Whether the request runs on the loop's thread (see the module)."""
        if self.quick is None or not self.quick(scope):
            return False
        return time.monotonic() >= self.paused_until

    def _run_here(self, environ: dict[str, Any]) -> Answer:
        """Runs the application on the event loop's thread, the loop waiting meanwhile.

        Django refuses database work in a thread whose event loop is running (its
        ``async_unsafe`` guard), since such work would hold the loop up unawares; here the
        hold-up is the point, so the thread shows no running loop for the request's length.
        """
        loop = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(None)
        started = time.monotonic()
        try:
            return self.here.run(self._run, environ)
        finally:
            asyncio.events._set_running_loop(loop)
            took = time.monotonic() - started
            if took > self.quick_limit:
                self.paused_until = time.monotonic() + self.quick_pause
                logger.warning(
                    "a quick request took %.1f s: the next %.0f s of them go to the threads",
                    took, self.quick_pause,
                )

    def _run(self, environ: dict[str, Any]) -> Answer:
        """Runs the application in this thread and gathers its whole answer."""
        started: list[Any] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return lambda chunk: chunks.append(chunk)  # the legacy write() callable

        chunks: list[bytes] = []
        iterable = self.app(environ, start_response)
        status, headers = started
        if getattr(iterable, "is_async", False) and hasattr(iterable, "__aiter__"):
            return _status(status), _latin1(headers), AsyncBody(iterable)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        return _status(status), _latin1(headers), b"".join(chunks)


class Closer:
    """Runs the closes of streamed answers (Django's end of request) in the threads, those of
    streams that end together in one hand-over: a crowd of clients leaving at once (a class
    closing its tabs) costs a few crossings to the threads, not one each."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self.executor = executor
        self._due: list[tuple[Callable[[], object], asyncio.Future[None]]] = []
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop _due waits on

    async def close(self, close: Callable[[], object]) -> None:
        """Returns once ``close`` has run (in a thread, with the others due by then)."""
        loop = asyncio.get_running_loop()
        if not self._due or self._loop is not loop:  # (a loop that stopped left its own)
            self._due, self._loop = [], loop
            loop.call_soon(self._hand_over, loop)  # after the loop's other wake-ups of now
        done: asyncio.Future[None] = loop.create_future()
        self._due.append((close, done))
        await done

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        due, self._due = self._due, []
        ran = loop.run_in_executor(self.executor, _close_all, [close for close, _ in due])
        ran.add_done_callback(lambda _: _resolve(done for _, done in due))


def _close_all(closes: list[Callable[[], object]]) -> None:
    for close in closes:
        try:
            close()
        except Exception:
            logger.exception("closing a streamed answer failed")


def _resolve(futures: Iterable[asyncio.Future[None]]) -> None:
    for future in futures:
        if not future.done():
            future.set_result(None)


def _status(status: str) -> int:
    return int(status.split(" ", 1)[0])


def _latin1(headers: list[tuple[str, str]]) -> Headers:
    return [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers]


async def _disconnection(receive: Any) -> None:
    """Returns when the client has gone away (the server says so through ``receive``)."""
    while (await receive())["type"] != "http.disconnect":
        pass


def _content_length(scope: dict[str, Any]) -> int | None:
    """The length the request declares; None without a Content-Length (a malformed one is
    none: the server has refused such a request before it got here)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return max(int(value), 0)
            except ValueError:
                return 0
    return None


def _has_header(scope: dict[str, Any], wanted: bytes) -> bool:
    return any(name == wanted for name, _ in scope.get("headers", ()))
