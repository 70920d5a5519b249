"""uvicorn's httptools protocol with the request's head bounded in fields, bytes and time.

httptools' parser takes a head of any size with any number of fields, and uvicorn gives
the head no deadline: heads of 1 MB, or of 10,000 fields, were taken in, and a hundred such
connections held about 85 MB more of a worker's memory; a client could also take as long as
it liked to send one, keeping its connection. uvicorn's one bound of the kind belongs to its
other parser (h11's largest incomplete event), and gunicorn's ``limit_request_*`` settings
apply to its own parser, which a uvicorn worker does not use. So the bounds are kept here,
in the protocol both ``make run`` (``uvicorn --http``) and gunicorn's worker class
(``games/serving/worker.py``) serve with: they hold whatever bridge runs the application
behind it.

- A head with more than ``SERVER_HEAD_MAX_FIELDS`` fields, or more than
  ``SERVER_HEAD_MAX_BYTES`` bytes, is answered 431 ``headers_too_large``. Fields past the
  bound are not kept, and the bytes of a head not yet whole are counted as they arrive, so
  a head never holds more than the bound and one read of the socket.
- A head not whole within ``SERVER_HEAD_TIMEOUT`` seconds of its first byte (of the
  connection's opening, for the first) is answered 408 ``request_timeout``; a connection
  that sent nothing at all is just closed. Each connection has its own timer on the loop,
  so a slow client delays nobody else. Between requests uvicorn's keep-alive timeout holds.

A refusal is a short problem document with ``Connection: close``; the application never
sees the request. The connection is then half-closed and what the client still sends is
read and dropped for at most ``LINGER`` seconds before it is closed: a connection closed
with unread bytes is reset, and the client would lose the answer with it.
"""

import asyncio
import http
import json
import logging
from dataclasses import dataclass
from functools import cache
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

logger = logging.getLogger(__name__)

LINGER = 2.0  # seconds a refused connection's late bytes are read and dropped
FIELD_OVERHEAD = 4  # ": " and CRLF around each field, counted into the head's bytes


@dataclass(frozen=True)
class HeadLimits:
    fields: int
    size: int
    seconds: float


@cache
def head_limits() -> HeadLimits:
    """The bounds of config/settings.py, read once the application (hence Django's
    settings) is loaded: the server loads it before it takes a connection."""
    from django.conf import settings

    return HeadLimits(
        fields=settings.SERVER_HEAD_MAX_FIELDS,
        size=settings.SERVER_HEAD_MAX_BYTES,
        seconds=float(settings.SERVER_HEAD_TIMEOUT),
    )


@cache
def refusal(status: int) -> bytes:
    """The whole answer of a refused head: the problem document of the service's registry,
    in English (the head's Accept-Language is not read: the head is refused unread)."""
    from django.utils import translation

    from games.http.codes import HttpCode
    from games.http.problems import PROBLEM, problem

    with translation.override("en"):
        if status == 431:
            body = problem(
                HttpCode.HEADERS_TOO_LARGE,
                "the request's head has more header fields or bytes than the server takes",
            )
        else:
            body = problem(HttpCode.REQUEST_TIMEOUT, "the request's head came too slowly")
    content = json.dumps(body).encode()
    head = (
        f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
        f"content-type: {PROBLEM}\r\ncontent-language: en\r\n"
        f"content-length: {len(content)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("latin1") + content


class HeadBoundedProtocol(HttpToolsProtocol):
    """``uvicorn --http games.serving.protocol:HeadBoundedProtocol``: see the module."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = head_limits()
        self._in_head = True  # the next bytes belong to a request's head
        self._head_bytes = 0  # bytes received while the head was not whole
        self._head_fields = 0
        self._head_size = 0  # the head's bytes as the parser handed them over
        self._head_clock: asyncio.TimerHandle | None = None
        self._refused: int | None = None

    # -- the connection -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_clock()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused is not None:
            return  # the late bytes of a refused request: dropped
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_clock is None:  # the first bytes of the next request
                self._start_clock()
        super().data_received(data)
        if self._in_head and self._head_bytes > self.limits.size and self._refused is None:
            self._refused = 431
        if self._refused is not None:
            self._refuse(self._refused)

    # -- the parser's callbacks ---------------------------------------------------------
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_fields = self._head_size = 0
        if self._head_clock is None:
            self._start_clock()

    def on_url(self, url: bytes) -> None:
        if self._over(len(url)):
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._head_fields += 1
        if self._head_fields > self.limits.fields:
            self._refused = 431
        if self._over(len(name) + len(value) + FIELD_OVERHEAD):
            return
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        if self._refused is not None:
            return  # the application never sees a refused request
        self._in_head = False
        self._stop_clock()
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self._refused is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused is not None:
            return
        super().on_message_complete()
        self._in_head, self._head_bytes = True, 0

    # -- the bounds -----------------------------------------------------------------------
    def _over(self, size: int) -> bool:
        """Counts ``size`` more bytes of the head; whether the head is refused."""
        self._head_size += size
        if self._head_size > self.limits.size:
            self._refused = 431
        return self._refused is not None

    def _start_clock(self) -> None:
        self._stop_clock()
        self._head_clock = self.loop.call_later(self.limits.seconds, self._too_slow)

    def _stop_clock(self) -> None:
        if self._head_clock is not None:
            self._head_clock.cancel()
            self._head_clock = None

    def _too_slow(self) -> None:
        self._head_clock = None
        if not self._in_head or self.transport.is_closing():
            return
        if self._head_bytes == 0 and self.cycle is None:
            self.transport.close()  # a connection that never sent a byte: nothing to answer
            return
        self._refused = 408
        self._refuse(408)

    def _refuse(self, status: int) -> None:
        """Answers ``status`` and closes the connection, unless it is closing already."""
        self._stop_clock()
        if self.transport.is_closing():
            return
        logger.warning(
            "refused a request's head from %s: %s",
            self.client[0] if self.client else "?", http.HTTPStatus(status).phrase,
        )
        if self.cycle is not None and not self.cycle.response_complete:
            self.transport.close()  # an answer to a request before it is under way
            return
        self.transport.write(refusal(status))
        if not self.transport.can_write_eof():
            self.transport.close()
            return
        self.transport.write_eof()
        self.loop.call_later(LINGER, self.transport.close)
