"""A streamed answer's own way to its client's connection, for parts sent without a turn of
its body.

A live stream's body is an async generator that the event loop sends part by part
(``games.serving.threaded_wsgi.AsyncBody``): each part wakes the stream's task, resumes the
generator and its wrappers, and passes through the server's ASGI ``send``. A move watched by
a thousand streams pays that a thousand times on the worker's one event loop, where every
other request of the process waits meanwhile. While a stream's body waits (it has handed
over every part it made), a part may instead go straight to the connection: ``Outlet.write``
frames it as ``send`` would (one chunk of the chunked answer) and writes it to the
connection's transport, from the code that learns of the part (the process's fan-out of a
move), with no task woken.

It is the server's business how an answer reaches its connection, so the outlet is opened
here, by the bridge that sends the body, from uvicorn's HTTP protocol: its ``send`` is a
method of the request's cycle, which holds the transport, the flow control and the framing.
Under any other server (or an answer not sent in chunks) the outlet stays shut, and every
part goes through ``send`` as before. A write is refused (False) whenever ``send`` would not
write at once: the client went away, the answer is complete, or the connection is paused for
a slow reader; the caller then hands the part to the body as usual.
"""

from collections.abc import Callable
from typing import Any

Write = Callable[[bytes], bool]


class Outlet:
    """Where a streamed answer's parts may be written directly while it is open."""

    __slots__ = ("_write",)

    def __init__(self) -> None:
        self._write: Write | None = None

    @property
    def open(self) -> bool:
        return self._write is not None

    def connect(self, send: Any) -> None:
        """Opens the outlet onto the connection that ``send`` (the server's ASGI send, the
        answer's head already sent) writes to, if the server lets it."""
        self._write = direct_write(send)

    def shut(self) -> None:
        self._write = None

    def write(self, part: bytes) -> bool:
        """True when ``part`` was written to the connection; False when it was not (shut, or
        the connection cannot take it now): the body must send it."""
        write = self._write
        return write is not None and write(part)


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
        transport.write(b"%x\r\n%b\r\n" % (len(part), part))
        return True

    return write
