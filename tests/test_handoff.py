"""The stream sender (``games.serving.sender``) and a worker's end of it
(``games.serving.handoff``, ``games.serving.outlet``): a real sender process and real TCP
connections, no server. Behind uvicorn, tests/live/test_stream.py."""

import asyncio
import os
import signal
import socket
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from django.http import StreamingHttpResponse

from games.serving import handoff
from games.serving.outlet import Outlet
from games.serving.sender import MOST_WAITING
from games.serving.threaded_wsgi import AsyncBody

WITHIN = 10.0  # seconds anything here may take on a loaded machine


def chunk(part: bytes) -> bytes:
    return b"%x\r\n%b\r\n" % (len(part), part)


@pytest.fixture
def sender() -> Iterator[None]:
    handoff.configure(0)
    yield
    handoff.stop()


class Connections:
    """Pairs of a server's transport (what a worker holds) and its client's socket."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.clients: list[socket.socket] = []

    async def open(self, small: bool = False) -> tuple[Any, socket.socket]:
        """A new pair; ``small``: with buffers of a few KiB on both sides, so that what a
        client does not read soon waits in the sender rather than in the kernel."""
        client = socket.socket()
        if small:
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.connect(self.server.getsockname())
        accepted, _ = self.server.accept()
        if small:
            accepted.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        transport, _ = await asyncio.get_running_loop().connect_accepted_socket(
            asyncio.Protocol, accepted
        )
        self.clients.append(client)
        return transport, client

    def close(self) -> None:
        for client in self.clients:
            client.close()
        self.server.close()


@asynccontextmanager
async def linked() -> AsyncIterator[tuple[handoff.Link, Connections]]:
    """This loop's link to a sender, and connections to hand it; closed afterwards."""
    connections = Connections()
    try:
        found = handoff.link()
        assert found is not None
        yield found, connections
    finally:
        connections.close()


async def handed_one(
    link: handoff.Link, connections: Connections, small: bool = False
) -> tuple[Any, socket.socket, handoff.Handed]:
    """A new connection, handed to the sender: its transport, its client, its handle."""
    transport, client = await connections.open(small)
    handed = link.hand(transport)
    assert handed is not None
    return transport, client, handed


async def received(client: socket.socket, size: int) -> bytes:
    """``size`` bytes from ``client``, or fewer if its connection ends first."""

    def read() -> bytes:
        client.settimeout(WITHIN)
        data = b""
        while len(data) < size:
            more = client.recv(size - len(data))
            if not more:
                break
            data += more
        return data

    return await asyncio.to_thread(read)


async def ended(client: socket.socket) -> bool:
    """Whether the client's connection ends within ``WITHIN`` (what was sent is read)."""

    def read() -> bool:
        client.settimeout(WITHIN)
        try:
            while client.recv(65536):
                pass
        except TimeoutError:
            return False
        except OSError:
            pass  # reset: ended too
        return True

    return await asyncio.to_thread(read)


async def until(condition: Any) -> None:
    deadline = time.monotonic() + WITHIN
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(0.01)


def test_the_parts_of_a_turn_reach_every_stream_in_order_as_chunks(sender: None) -> None:
    async def scenario() -> None:
        async with linked() as (link, connections):
            pairs = [await connections.open() for _ in range(5)]
            handed = [link.hand(transport) for transport, _ in pairs]
            move, other = b"id: 2\nevent: rolled\n\n", b"id: 3\nevent: held\n\n"
            for one in handed:  # a move to every stream of the game, in one turn
                assert one is not None and link.write(one, move)
            for one in handed:
                link.write(one, other)  # type: ignore[arg-type]
            link.write(handed[0], b"only the first\n\n")  # type: ignore[arg-type]
            for (transport, _), one in zip(pairs, handed, strict=True):
                await link.release(one)  # type: ignore[arg-type]
                transport.write(b"0\r\n\r\n")  # the server's last chunk, after the sender's
            expected = chunk(move) + chunk(other)
            first = expected + chunk(b"only the first\n\n") + b"0\r\n\r\n"
            assert await received(pairs[0][1], len(first)) == first
            for _, client in pairs[1:]:
                assert await received(client, len(expected) + 5) == expected + b"0\r\n\r\n"

    asyncio.run(scenario())


def test_a_slow_reader_is_held_back_then_resumed(sender: None) -> None:
    async def scenario() -> None:
        async with linked() as (link, connections):
            _, client, handed = await handed_one(link, connections, small=True)
            part, written = b"x" * 16384, 0
            while not handed.paused:  # the client reads nothing meanwhile
                if link.write(handed, part):
                    written += len(chunk(part))
                await asyncio.sleep(0.005)
                assert written < MOST_WAITING
            assert not link.write(handed, part)  # refused while held back
            resuming = asyncio.ensure_future(link.resumed(handed))
            await asyncio.sleep(0.2)
            assert not resuming.done()
            assert len(await received(client, written)) == written  # the client catches up
            await asyncio.wait_for(resuming, WITHIN)
            assert not handed.paused and link.write(handed, part)

    asyncio.run(scenario())


def test_a_client_that_lets_too_much_pile_up_is_disconnected(sender: None) -> None:
    async def scenario() -> None:
        async with linked() as (link, connections):
            transport, client, handed = await handed_one(link, connections, small=True)
            part = b"x" * 65536
            for _ in range(2 * MOST_WAITING // len(part)):
                handed.paused = False  # as a body that took no notice would
                link.write(handed, part)
                await asyncio.sleep(0)
            await asyncio.wait_for(handed.done, WITHIN)
            assert handed.dropped and transport.is_closing()
            assert not link.write(handed, part)
            assert await ended(client)

    asyncio.run(scenario())


def test_streams_end_when_their_sender_dies_and_the_next_starts_a_new_one(
    sender: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handoff, "RESTART_SECONDS", 0.0)

    async def scenario() -> None:
        async with linked() as (link, connections):
            pairs = [await connections.open() for _ in range(3)]
            handed = [link.hand(transport) for transport, _ in pairs]
            for one in handed:
                link.write(one, b"data: before\n\n")  # type: ignore[arg-type]
            for _, client in pairs:
                before = chunk(b"data: before\n\n")
                assert await received(client, len(before)) == before
            os.kill(link.process.pid, signal.SIGKILL)
            await until(lambda: link.lost)
            for (transport, client), one in zip(pairs, handed, strict=True):
                assert one is not None and one.dropped and transport.is_closing()
                assert await ended(client)  # the browser reconnects, from its last event
            again = handoff.link()
            assert again is not None and again is not link
            transport, client = await connections.open()
            one = again.hand(transport)
            assert one is not None and again.write(one, b"data: after\n\n")
            after = chunk(b"data: after\n\n")
            assert await received(client, len(after)) == after

    asyncio.run(scenario())


def test_a_stream_let_go_of_ends_with_its_worker_end_and_the_sender_with_its_worker(
    sender: None,
) -> None:
    async def scenario() -> None:
        async with linked() as (link, connections):
            transport, client, handed = await handed_one(link, connections)
            link.write(handed, b"data: x\n\n")
            link.release(handed)  # not waited for: the client went away, say
            transport.close()
            assert await ended(client)  # the sender keeps no copy of the connection open
            link.sock.close()  # the worker's end gone, as when the worker dies
            await asyncio.to_thread(link.process.wait, WITHIN)

    asyncio.run(scenario())


class Cycle:
    """What uvicorn's request cycle offers an outlet, over a real connection."""

    disconnected = response_complete = False
    response_started = chunked_encoding = True

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.flow = type("Flow", (), {"write_paused": False})()

    async def send(self, message: dict[str, Any]) -> None:
        body = message.get("body", b"")
        self.transport.write(chunk(body) if body else b"0\r\n\r\n")


def test_a_streamed_answer_goes_through_the_sender_and_ends_after_it(sender: None) -> None:
    outlet = Outlet()

    async def parts() -> AsyncIterator[bytes]:
        yield b"retry: 2000\n\n"
        assert outlet.handed
        assert outlet.write(b"id: 2\n\n")  # as a subscription would, while the body waits
        yield b"id: 3\n\n"

    async def scenario() -> None:
        async with linked() as (_, connections):
            transport, client = await connections.open()
            response = StreamingHttpResponse(parts(), content_type="text/event-stream")
            response.outlet = outlet  # type: ignore[attr-defined]
            await AsyncBody(response).send(Cycle(transport).send)
            expected = (
                chunk(b"retry: 2000\n\n") + chunk(b"id: 2\n\n") + chunk(b"id: 3\n\n")
                + b"0\r\n\r\n"
            )
            assert await received(client, len(expected)) == expected
            assert not outlet.open

    asyncio.run(scenario())
