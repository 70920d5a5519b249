"""The worker's accepting (games/serving/worker.py): one connection at a time, a pause after
each so that other workers take their share, a new connection left to a worker holding
fewer (games/serving/shares.py), every connection served, none after closing."""

import asyncio
import socket
import time

from games.serving.shares import Shares
from games.serving.worker import LONGEST_LEFT, SPREAD_BELOW, Acceptor


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


def test_a_worker_holding_more_than_another_leaves_a_new_connection_to_it_for_a_while() -> None:
    """Another worker holds fewer: this one leaves the connection in the backlog for it, a
    millisecond at a time, and takes it itself only after ``LONGEST_LEFT`` (the other may be
    busy, or stuck)."""
    asked: list[float] = []

    def fewest_elsewhere(held: int) -> int:
        assert held == 5
        asked.append(time.monotonic())
        return 0  # another worker holds none

    async def scenario() -> None:
        served = Listening(pause=0.0, open_connections=lambda: 5, fewest_elsewhere=fewest_elsewhere)
        assert await talk(served.port, b"late") == b"late"
        served.close()

    asyncio.run(scenario())
    assert len(asked) > 5  # left to the other again and again...
    assert asked[-1] - asked[0] >= LONGEST_LEFT  # ...then taken


def test_a_worker_holding_fewest_takes_a_new_connection_at_once() -> None:
    asked: list[int] = []

    def fewest_elsewhere(held: int) -> int:
        asked.append(held)
        return 3  # another worker holds as many

    async def scenario() -> None:
        served = Listening(pause=0.0, open_connections=lambda: 3, fewest_elsewhere=fewest_elsewhere)
        assert await talk(served.port, b"now") == b"now"
        served.close()

    asyncio.run(scenario())
    assert asked == [3]


def test_the_shares_give_each_worker_a_slot_and_tell_the_fewest_of_the_others() -> None:
    shares = Shares()
    first = shares.slot_for([])
    second = shares.slot_for([first])
    assert first != second
    assert shares.fewest_elsewhere(first) is None  # no other worker has written yet
    shares.write(first, 101, 7)
    shares.write(second, 102, 3)
    assert shares.fewest_elsewhere(first) == 3 and shares.fewest_elsewhere(second) == 7
    shares.clear(second)  # its worker exited
    assert shares.fewest_elsewhere(first) is None
    assert shares.slot_for([first]) == second  # free again
