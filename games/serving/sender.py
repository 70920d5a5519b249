"""The process that writes a worker's live streams to their clients: ``python -m
games.serving.sender FD NICE``.

A move watched by a thousand streams is a thousand writes, each a system call on its own
connection. Made on a worker's event loop, they held up every request of the worker
meanwhile, the moves of games no one watches included (docs/benchmark.md, "The streams'
writes in a process of their own"). So a worker hands each stream's connection to this
process (``games.serving.handoff``) once the stream has sent what it had, and from then on
gives it each part to send: one message for a move, whatever number of its streams follow
that game. The worker keeps its own end of each connection, and with it everything else
(reading the request, noticing that the client went away, the end of the answer).

This process runs at a lower priority (``NICE``, added to the worker's): when the machine
is busy, the moves go first and the streams' writes wait for a free moment. It imports
nothing of Django or of the service; it stops when its worker does (its control connection
closes).

The control connection (a Unix socket pair; frames below) carries, from the worker:

- ``OPEN id``, with the connection's descriptor (``SCM_RIGHTS``): the stream ``id`` is
  written here from now on;
- ``WRITE ids, part``: the same bytes to each of those streams, in order after what was
  handed before;
- ``CLOSE id``: once everything handed for ``id`` is written, let go of it (``DONE id``).

and, from here: ``DONE id``; ``PAUSED id`` when more than ``HIGH_WATER`` bytes wait for a
slow reader, ``RESUMED id`` once they are written (the worker holds the stream's body back
meanwhile, as a server's flow control would); ``DROPPED id`` when a stream can no longer be
written (its client went away, or let more than ``MOST_WAITING`` bytes pile up, in which
case its connection is shut, so that the client reconnects and resumes from its last event).
"""

import os
import selectors
import socket
import struct
import sys
from collections import deque
from contextlib import suppress

# A frame from the worker: its kind, the length of what follows, then a number (the stream's
# id for OPEN and CLOSE, the count of ids for WRITE); a WRITE's ids then its part follow.
HEAD = struct.Struct("!BII")
IDS = "!{}I"
# A frame to the worker: its kind and the stream's id.
REPLY = struct.Struct("!BI")
OPEN, WRITE, CLOSE = 1, 2, 3
DONE, PAUSED, RESUMED, DROPPED = 4, 5, 6, 7

HIGH_WATER = 64 * 1024  # bytes waiting for one stream's client before its body is held back
MOST_WAITING = 4 * 1024 * 1024  # bytes waiting for one client before its connection is shut
READ_SIZE = 256 * 1024
MOST_DESCRIPTORS = 64  # descriptors taken with one read of the control connection


class Stream:
    """One handed connection: its socket and what it could not take yet."""

    __slots__ = ("closing", "paused", "sock", "waiting", "waiting_bytes")

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.waiting: deque[memoryview] = deque()
        self.waiting_bytes = 0  # kept with ``waiting``: a slow reader's every part checks it
        self.paused = False
        self.closing = False

    def wait(self, part: memoryview) -> None:
        """``part`` waits, after what waits already, for the client to take more."""
        self.waiting.append(part)
        self.waiting_bytes += len(part)


class Sender:
    """The loop of the process: frames in from the control connection, parts out."""

    def __init__(self, control: socket.socket) -> None:
        self.control = control
        self.selector = selectors.DefaultSelector()
        self.selector.register(control, selectors.EVENT_READ, None)
        self.streams: dict[int, Stream] = {}
        self.read = bytearray()
        self.descriptors: deque[int] = deque()

    def run(self) -> None:
        while True:
            for key, events in self.selector.select():
                if key.data is None:
                    if not self._take():
                        return  # the worker is gone
                elif events & selectors.EVENT_WRITE:
                    self._flush(key.data)

    def _take(self) -> bool:
        """Reads what the worker sent and acts on each whole frame; False once it is gone."""
        try:
            data, ancillary, _, _ = self.control.recvmsg(
                READ_SIZE, socket.CMSG_SPACE(MOST_DESCRIPTORS * 4)
            )
        except (BlockingIOError, InterruptedError):
            return True
        except OSError:
            return False
        for level, kind, given in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                usable = len(given) - len(given) % 4
                self.descriptors.extend(struct.unpack(f"{usable // 4}i", given[:usable]))
        if not data:
            return False
        self.read += data
        start = 0
        while len(self.read) - start >= HEAD.size:
            kind, length, number = HEAD.unpack_from(self.read, start)
            end = start + HEAD.size + length
            if end > len(self.read):
                break
            self._act(kind, number, memoryview(self.read)[start + HEAD.size:end].tobytes())
            start = end
        del self.read[:start]
        return True

    def _act(self, kind: int, number: int, rest: bytes) -> None:
        if kind == OPEN:
            if not self.descriptors:  # its descriptor did not come: nothing to write to
                self._reply(DROPPED, number)
                return
            self._open(number, socket.socket(fileno=self.descriptors.popleft()))
        elif kind == WRITE:
            ids = struct.unpack_from(IDS.format(number), rest)
            part = memoryview(rest)[4 * number:]
            for stream_id in ids:
                self._write(stream_id, part)
        elif kind == CLOSE:
            stream = self.streams.get(number)
            if stream is None:
                self._reply(DONE, number)
            elif not stream.waiting:
                self._let_go(number, DONE)
            else:
                stream.closing = True

    def _open(self, stream_id: int, sock: socket.socket) -> None:
        sock.setblocking(False)
        self.streams[stream_id] = Stream(sock)

    def _write(self, stream_id: int, part: memoryview) -> None:
        stream = self.streams.get(stream_id)
        if stream is None:
            return  # let go of already (dropped)
        if stream.waiting:
            stream.wait(part)
            self._pile_up(stream_id, stream)
            return
        try:
            sent = stream.sock.send(part)
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            self._let_go(stream_id, DROPPED)
            return
        if sent < len(part):
            stream.wait(part[sent:])
            self.selector.register(stream.sock, selectors.EVENT_WRITE, stream_id)
            self._pile_up(stream_id, stream)

    def _pile_up(self, stream_id: int, stream: Stream) -> None:
        waiting = stream.waiting_bytes
        if waiting > MOST_WAITING:
            with suppress(OSError):
                stream.sock.shutdown(socket.SHUT_RDWR)  # the worker's end sees it close too
            self._let_go(stream_id, DROPPED)
        elif waiting > HIGH_WATER and not stream.paused:
            stream.paused = True
            self._reply(PAUSED, stream_id)

    def _flush(self, stream_id: int) -> None:
        stream = self.streams.get(stream_id)
        if stream is None:
            return  # let go of earlier in the same wake-up
        while stream.waiting:
            part = stream.waiting[0]
            try:
                sent = stream.sock.send(part)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self._let_go(stream_id, DROPPED)
                return
            stream.waiting_bytes -= sent
            if sent < len(part):
                stream.waiting[0] = part[sent:]
                return
            stream.waiting.popleft()
        self.selector.unregister(stream.sock)
        if stream.closing:
            self._let_go(stream_id, DONE)
        elif stream.paused:
            stream.paused = False
            self._reply(RESUMED, stream_id)

    def _let_go(self, stream_id: int, why: int) -> None:
        stream = self.streams.pop(stream_id)
        if stream.waiting:
            self.selector.unregister(stream.sock)
        stream.sock.close()  # this process's descriptor only: the worker still holds its own
        self._reply(why, stream_id)

    def _reply(self, kind: int, stream_id: int) -> None:
        with suppress(OSError):  # the worker is gone: the next read says so
            self.control.sendall(REPLY.pack(kind, stream_id))


def main(argv: list[str]) -> None:
    descriptor, nice = int(argv[0]), int(argv[1])
    if nice:
        os.nice(nice)
        # A batch task does not preempt the one that woke it: the worker that hands over a
        # move goes on with its requests, and this process writes at the next free moment.
        with suppress(AttributeError, OSError):  # Linux's
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    control = socket.socket(fileno=descriptor)
    control.setblocking(True)  # replies are small; reads wait for the selector anyway
    Sender(control).run()


if __name__ == "__main__":
    main(sys.argv[1:])
