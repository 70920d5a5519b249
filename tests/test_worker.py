"""The worker's accepting (games/serving/worker.py): one connection at a time, a pause after
each so that other workers take their share, every connection served, none after closing."""

import asyncio
import socket

from games.serving.worker import SPREAD_BELOW, Acceptor


class Echo(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.transport.write(data)  # type: ignore[attr-defined]


def listening() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


class Listening:
    """A listening socket served by an :class:`Acceptor`, counting the connections it set up."""

    def __init__(self, **options: object) -> None:
        self.sock = listening()
        self.accepted: list[Echo] = []
        self.acceptor = Acceptor(self.sock, self._protocol, **options)  # type: ignore[arg-type]
        self.port = self.sock.getsockname()[1]

    def _protocol(self) -> Echo:
        self.accepted.append(Echo())
        return self.accepted[-1]

    def close(self) -> None:
        self.acceptor.close()
        self.sock.close()


async def talk(port: int, text: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(text)
    await writer.drain()
    answer = await asyncio.wait_for(reader.readexactly(len(text)), 5)
    writer.close()
    return answer


GREETINGS = [b"hi 0", b"hi 1", b"hi 2"]


async def greet_three(port: int) -> list[bytes]:
    """Three clients connecting at once, each sending its greeting; the echoes, in order."""
    return list(await asyncio.gather(*(talk(port, greeting) for greeting in GREETINGS)))


def test_connections_are_taken_one_at_a_time_and_all_served() -> None:
    async def scenario() -> None:
        served = Listening(pause=0.3)
        clients = asyncio.ensure_future(greet_three(served.port))
        await asyncio.sleep(0.15)
        assert len(served.accepted) == 1  # the others wait in the backlog for another worker
        assert await clients == GREETINGS and len(served.accepted) == 3
        served.close()

    asyncio.run(scenario())


def test_a_closed_acceptor_takes_no_more_connections() -> None:
    async def scenario() -> None:
        served = Listening(pause=0.0)
        assert await talk(served.port, b"one") == b"one"
        served.acceptor.close()
        _, writer = await asyncio.open_connection("127.0.0.1", served.port)
        writer.write(b"two")
        await asyncio.sleep(0.2)
        assert len(served.accepted) == 1  # the kernel queued it; no worker took it
        writer.close()
        served.sock.close()

    asyncio.run(scenario())


def test_a_worker_holding_many_connections_accepts_without_pausing() -> None:
    """A crowd (event streams, say) is let in at once: among that many, chance spreads it."""

    async def scenario() -> None:
        served = Listening(pause=5.0, open_connections=lambda: SPREAD_BELOW)
        answers = await asyncio.wait_for(greet_three(served.port), 2.0)
        assert answers == GREETINGS and len(served.accepted) == 3
        served.close()

    asyncio.run(scenario())


def test_closing_waits_for_the_connections_being_set_up_and_then_returns() -> None:
    async def scenario() -> None:
        served = Listening(pause=0)
        assert await talk(served.port, b"before") == b"before"
        served.close()
        await asyncio.wait_for(served.acceptor.wait_closed(), 1)

    asyncio.run(scenario())
