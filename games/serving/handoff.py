"""A worker's end of its stream sender (``games.serving.sender``): the process that writes
the worker's live streams to their clients.

``link()`` is the worker's one connection to its sender, started with the first stream
handed to it (``SERVER_STREAM_SENDER``; off, and every stream is written by the worker).
``Link.hand(transport)`` gives the sender the stream's connection (a copy of its descriptor:
the worker keeps its own, reads on it and notices when the client goes away), and
``Link.write`` hands it each part. The parts handed during one turn of the event loop go to
the sender together, after it, in one message for each run of the same part: a move that
reaches the 25 streams of its game in this process is one message, not 25 writes.

The sender holds a stream back when its client reads slowly (``paused``) and lets go of it
when asked (``release``: once everything handed is written, so that the worker may then end
the answer itself and keep the connection alive), or when it can no longer write to it
(``dropped``: the worker then closes the connection too, and the client reconnects and
resumes from its last event). If the sender goes away, every stream handed to it is closed
the same way, and the next stream starts a new one.
"""

import asyncio
import logging
import os
import socket
import struct
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

from games.serving.sender import (
    CLOSE,
    DONE,
    DROPPED,
    HEAD,
    IDS,
    OPEN,
    PAUSED,
    REPLY,
    RESUMED,
    WRITE,
)

logger = logging.getLogger(__name__)

MOST_QUEUED = 64 * 1024 * 1024  # bytes the sender has not taken yet before it is given up
RESTART_SECONDS = 1.0  # the least time between two starts of a process's sender
RELEASE_SECONDS = 5.0  # how long the end of an answer waits for the sender to write the rest
# Where ``games`` is found, whichever folder the worker was started from.
PACKAGES = Path(__file__).resolve().parents[2]


def chunk(part: bytes) -> bytes:
    """``part`` framed as one chunk of a chunked answer, as uvicorn's ``send`` frames it."""
    return b"%x\r\n%b\r\n" % (len(part), part)


class Handed:
    """One stream handed to the sender."""

    __slots__ = ("done", "dropped", "id", "paused", "resumed", "transport")

    def __init__(self, stream_id: int, transport: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.id = stream_id
        self.transport = transport
        self.paused = False
        self.dropped = False  # the sender let go of it, or went away
        self.resumed: asyncio.Future[None] | None = None
        self.done: asyncio.Future[None] = loop.create_future()


class Link:
    """The connection to one sender process, on one event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, nice: int) -> None:
        self.loop = loop
        self.started_at = time.monotonic()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "games.serving.sender", str(theirs.fileno()), str(nice)],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                cwd=PACKAGES,
            )
        finally:
            theirs.close()
        ours.setblocking(False)
        self.sock = ours
        self.handed: dict[int, Handed] = {}
        self.lost = False
        self._next_id = 0
        self._turn: list[Any] = []  # this turn's frames, and runs [part, ids] of writes
        self._queued: deque[tuple[memoryview, int | None]] = deque()  # (bytes, descriptor)
        self._queued_bytes = 0
        self._replies = bytearray()
        loop.add_reader(ours.fileno(), self._read)

    def hand(self, transport: Any) -> Handed | None:
        """Hands the stream of ``transport``'s connection to the sender; None if it cannot."""
        sock = transport.get_extra_info("socket")
        if self.lost or sock is None:
            return None
        try:
            descriptor = os.dup(sock.fileno())  # the same connection, whatever ours becomes
        except OSError:
            return None
        self._next_id += 1
        handed = self.handed[self._next_id] = Handed(self._next_id, transport, self.loop)
        self._add(HEAD.pack(OPEN, 0, handed.id), descriptor)
        return handed

    def write(self, handed: Handed, part: bytes) -> bool:
        """Hands ``part`` (framed as one chunk of the chunked answer when it is sent) to
        ``handed``'s stream; False when it cannot take it now (held back for a slow reader,
        or let go of)."""
        if handed.paused or handed.dropped:
            return False
        turn = self._turn
        if turn and type(turn[-1]) is list and turn[-1][0] is part:
            turn[-1][1].append(handed.id)
        else:
            if not turn:
                self.loop.call_soon(self._flush)
            turn.append([part, [handed.id]])
        return True

    async def resumed(self, handed: Handed) -> None:
        """Returns once the sender may take ``handed``'s parts again (or has let go of it)."""
        while handed.paused and not handed.dropped:
            if handed.resumed is None:
                handed.resumed = self.loop.create_future()
            await handed.resumed

    def release(self, handed: Handed) -> asyncio.Future[None]:
        """Asks the sender to let go of ``handed`` once it has written everything handed: the
        future is done then (at once if it let go already)."""
        if not handed.dropped and handed.id in self.handed:
            self._add(HEAD.pack(CLOSE, 0, handed.id), None)
        else:
            _settle(handed.done)
        return handed.done

    def close(self) -> None:
        """Stops the sender (the worker is stopping): every handed stream is closed."""
        self._lose("the worker is stopping")

    def _add(self, frame: bytes, descriptor: int | None) -> None:
        if not self._turn:
            self.loop.call_soon(self._flush)
        self._turn.append((frame, descriptor))

    def _flush(self) -> None:
        """This turn's frames, as few messages as can be: each run of one part is one WRITE
        (framed as a chunk once), and a descriptor goes with its own OPEN."""
        turn, self._turn = self._turn, []
        if self.lost:
            return
        pending = bytearray()
        for entry in turn:
            if type(entry) is list:
                part, ids = entry
                framed = chunk(part)
                pending += HEAD.pack(WRITE, 4 * len(ids) + len(framed), len(ids))
                pending += struct.pack(IDS.format(len(ids)), *ids)
                pending += framed
                continue
            frame, descriptor = entry
            if descriptor is None:
                pending += frame
                continue
            self._queue(bytes(pending), None)
            pending.clear()
            self._queue(frame, descriptor)
        self._queue(bytes(pending), None)
        self._send()

    def _queue(self, data: bytes, descriptor: int | None) -> None:
        if data or descriptor is not None:
            self._queued.append((memoryview(data), descriptor))
            self._queued_bytes += len(data)

    def _send(self) -> None:
        while self._queued:
            data, descriptor = self._queued[0]
            given = [] if descriptor is None else [
                (socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", descriptor))
            ]
            try:
                sent = self.sock.sendmsg([data], given)
            except (BlockingIOError, InterruptedError):
                sent = -1
            except OSError as error:
                self._lose(f"it cannot be reached ({error})")
                return
            if sent < 0:
                break
            if descriptor is not None:
                os.close(descriptor)  # the sender has its own now
            self._queued_bytes -= sent
            if sent < len(data):
                self._queued[0] = (data[sent:], None)
                break
            self._queued.popleft()
        if self._queued:
            if self._queued_bytes > MOST_QUEUED:
                self._lose(f"it has not taken {self._queued_bytes} bytes")
                return
            self.loop.add_writer(self.sock.fileno(), self._send)
        else:
            self.loop.remove_writer(self.sock.fileno())

    def _read(self) -> None:
        try:
            data = self.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._lose("it stopped")
            return
        self._replies += data
        whole = len(self._replies) - len(self._replies) % REPLY.size
        for kind, stream_id in REPLY.iter_unpack(bytes(self._replies[:whole])):
            self._replied(kind, stream_id)
        del self._replies[:whole]

    def _replied(self, kind: int, stream_id: int) -> None:
        handed = self.handed.get(stream_id)
        if handed is None:
            return
        if kind == PAUSED:
            handed.paused = True
        elif kind == RESUMED:
            handed.paused = False
            if handed.resumed is not None:
                _settle(handed.resumed)
                handed.resumed = None
        elif kind in (DONE, DROPPED):
            del self.handed[stream_id]
            _let_go(handed, closing=kind == DROPPED)

    def _lose(self, why: str) -> None:
        if self.lost:
            return
        self.lost = True
        if self.handed:
            logger.warning("the stream sender is gone (%s): its %d streams end, and their"
                           " clients reconnect", why, len(self.handed))
        running = not self.loop.is_closed()  # else its connections went with it
        if running:
            self.loop.remove_reader(self.sock.fileno())
            self.loop.remove_writer(self.sock.fileno())
        self.sock.close()
        for _, descriptor in self._queued:
            if descriptor is not None:
                os.close(descriptor)
        self._queued.clear()
        for entry in self._turn:
            if type(entry) is tuple and entry[1] is not None:
                os.close(entry[1])
        self._turn = []
        handed, self.handed = self.handed, {}
        for one in handed.values():
            _let_go(one, closing=running)
        if self.process.poll() is None:
            self.process.kill()
        if running:
            self.loop.run_in_executor(None, self.process.wait)
        else:
            self.process.wait()


def _let_go(handed: Handed, *, closing: bool) -> None:
    """The sender holds ``handed`` no more; ``closing``: nor will its answer go on (its
    connection is closed, and its body ends as for a client that went away)."""
    handed.dropped = True
    if closing:
        handed.transport.abort()
    _settle(handed.done)
    if handed.resumed is not None:
        _settle(handed.resumed)


def _settle(future: "asyncio.Future[None]") -> None:
    if not future.done():
        future.set_result(None)


_nice: int | None = None  # the sender's niceness; None: no sender (configure)
_links: dict[asyncio.AbstractEventLoop, Link] = {}


def configure(nice: int | None) -> None:
    """Whether this process's streams are handed to a sender, and at what niceness (added
    to the worker's own); None: they are written by the worker itself."""
    global _nice
    _nice = nice


def link() -> Link | None:
    """The running loop's link to its sender, started now if it has none (or lost it);
    None when there is no sender, or it was lost less than ``RESTART_SECONDS`` ago."""
    if _nice is None:
        return None
    loop = asyncio.get_running_loop()
    found = _links.get(loop)
    if found is not None and (
        not found.lost or time.monotonic() - found.started_at < RESTART_SECONDS
    ):
        return None if found.lost else found
    try:
        found = _links[loop] = Link(loop, _nice)
    except OSError as error:
        logger.warning("the stream sender cannot start (%s): the worker writes its streams",
                       error)
        return None
    return found


def stop() -> None:
    """Stops every sender of this process (its server is shutting down)."""
    for found in _links.values():
        found.close()
    _links.clear()
