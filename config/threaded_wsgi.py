"""A WSGI application served from an ASGI server in one hand-over to a pool of threads.

An adapter that lets the WSGI side read the body and send the answer through the event loop
(a2wsgi does) crosses between the thread and the loop four times for a small POST, and each
crossing waits for the interpreter lock: under load, with every thread busy, that made the
service about a third slower than the same code in gunicorn's threaded WSGI server (README,
"Serving"). Here the loop reads the whole (bounded) body, one pooled thread runs the
application and collects its whole answer, and the loop sends it: the request crosses over
once and comes back once.

The JSON API's answers are small; the largest answers on this path are the docs' static
files (a few megabytes at most), which are collected the same way. A streaming answer would
be held until it ends, so the event streams must not come here (see ``config.asgi``).
"""

import asyncio
import io
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi.wsgi import build_environ

Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


class ThreadedWSGI:
    """An ASGI application running ``app`` (WSGI) in ``threads`` long-lived threads."""

    def __init__(self, app: Callable[..., Iterable[bytes]], *, threads: int, max_body: int):
        self.app = app
        self.max_body = max_body
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="api")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = await self._body(scope, receive)
        if body is None:
            return  # the client went away before its body arrived
        environ = build_environ(scope, io.BytesIO(body))  # type: ignore[arg-type]
        environ["wsgi.errors"] = sys.stderr
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.executor, self._run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def _body(self, scope: dict[str, Any], receive: Any) -> bytes | None:
        """The body the request declares, read whole if it is within ``max_body``.

        A body over it is not read at all: the application sees its Content-Length and
        refuses it (413) without reading, as Django does. A body without a Content-Length
        (chunked) is not read either, as a WSGI server would not pass it on.
        """
        declared = _content_length(scope)
        if not declared or declared > self.max_body:
            return b""
        body = bytearray()
        while len(body) < declared:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        return bytes(body[:declared])

    def _run(self, environ: dict[str, Any]) -> Answer:
        """Runs the application in this thread and gathers its whole answer."""
        started: list[Any] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None):
            started[:] = [status, headers]
            return lambda chunk: chunks.append(chunk)  # the legacy write() callable

        chunks: list[bytes] = []
        iterable = self.app(environ, start_response)
        try:
            chunks.extend(iterable)
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (
            int(status.split(" ", 1)[0]),
            [(name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers],
            b"".join(chunks),
        )


def _content_length(scope: dict[str, Any]) -> int:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return max(int(value), 0)
            except ValueError:
                return 0
    return 0
