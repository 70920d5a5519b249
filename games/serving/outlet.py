"""A streamed answer's own way to its client's connection, for parts sent without a turn of
its body.

A live stream's body is an async generator that the event loop sends part by part
(``games.serving.threaded_wsgi.AsyncBody``): each part wakes the stream's task, resumes the
generator and its wrappers, and passes through the server's ASGI ``send``. A move watched by
a thousand streams pays that a thousand times on the worker's one event loop, where every
other request of the process waits meanwhile. While a stream's body waits (it has handed
over every part it made), a part may instead go straight to the connection: ``Outlet.write``
frames it as ``send`` would (one chunk of the chunked answer), from the code that learns of
the part (the process's fan-out of a move), with no task woken.

Where the worker has a stream sender (``games.serving.handoff``), the outlet hands the
connection to it when it opens, and every part of the answer goes there from then on, the
body's own included (``send``): the writes leave the worker's event loop. Without one, a part
is written to the connection's transport, as ``send`` would.

It is the server's business how an answer reaches its connection, so the outlet is opened
here, by the bridge that sends the body, from uvicorn's HTTP protocol: its ``send`` is a
method of the request's cycle, which holds the transport, the flow control and the framing.
Under any other server (or an answer not sent in chunks) the outlet stays shut, and every
part goes through ``send`` as before. A write is refused (False) whenever the part cannot
go at once: the client went away, the answer is complete, or the connection is held back
for a slow reader; the caller then hands the part to the body as usual.
"""

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from games.serving.handoff import RELEASE_SECONDS, Handed, Link, chunk, link

logger = logging.getLogger(__name__)

Write = Callable[[bytes], bool]


class Outlet:
    """Where a streamed answer's parts may be written directly while it is open."""

    __slots__ = ("_handed", "_link", "_write")

    def __init__(self) -> None:
        self._write: Write | None = None
        self._handed: Handed | None = None
        self._link: Link | None = None

    @property
    def open(self) -> bool:
        return self._write is not None or self._handed is not None

    @property
    def handed(self) -> bool:
        """Whether the answer's parts all go to the stream sender (``send``)."""
        return self._handed is not None

    def connect(self, send: Any) -> None:
        """Opens the outlet onto the connection that ``send`` (the server's ASGI send, the
        answer's head already sent) writes to, if the server lets it; hands the connection to
        the process's stream sender if it has one, and nothing waits in the transport."""
        self._write = direct_write(send)
        if self._write is None:
            return
        transport = send.__self__.transport
        found = link()
        if found is not None and transport.get_write_buffer_size() == 0:
            self._handed = found.hand(transport)
            self._link = found if self._handed is not None else None

    def write(self, part: bytes) -> bool:
        """True when ``part`` was written to the connection (or handed to the sender);
        False when it was not (shut, or the connection cannot take it now): the body must
        send it."""
        handed = self._handed
        if handed is not None:
            return self._link.write(handed, part)  # type: ignore[union-attr]
        write = self._write
        return write is not None and write(part)

    async def send(self, part: bytes) -> bool:
        """A part of the body, handed to the sender once it may take it; False when the
        sender has let go of the stream (its connection is closed: the answer ends)."""
        handed, found = self._handed, self._link
        if handed is None or found is None:
            return False
        await found.resumed(handed)
        return found.write(handed, part)

    async def release(self) -> None:
        """Waits until the sender has written every part it was handed and let go of the
        connection, so that the answer's last chunk, sent by the server, follows them. A
        sender that takes longer than ``RELEASE_SECONDS`` has the connection closed."""
        handed, found = self._handed, self._link
        self._handed = self._link = None
        if handed is None or found is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(found.release(handed)), RELEASE_SECONDS)
        except TimeoutError:
            logger.warning("a stream's last parts were not written in %.0f s: its connection"
                           " is closed", RELEASE_SECONDS)
            handed.transport.abort()

    def shut(self) -> None:
        """No part may be written any more; a connection still with the sender is let go of
        (the client went away, or the answer failed)."""
        self._write = None
        handed, found = self._handed, self._link
        self._handed = self._link = None
        if handed is not None and found is not None:
            found.release(handed)


def direct_write(send: Any) -> Write | None:
    """A write of one part of a chunked answer to the transport of uvicorn's request cycle
    behind ``send``; None when ``send`` is not such a cycle's, or its answer is not chunked."""
    cycle: Any = getattr(send, "__self__", None)
    transport = getattr(cycle, "transport", None)
    flow = getattr(cycle, "flow", None)
    if transport is None or flow is None or not getattr(cycle, "response_started", False):
        return None
    if getattr(cycle, "chunked_encoding", None) is not True:
        return None  # a Content-Length (counted by ``send``), or HEAD: no parts to add

    def write(part: bytes) -> bool:
        if (
            cycle.disconnected
            or cycle.response_complete
            or flow.write_paused
            or transport.is_closing()
        ):
            return False
        transport.write(chunk(part))
        return True

    return write
