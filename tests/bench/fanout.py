"""The processor time a worker spends handing one move to each event stream of its game.

    .venv/bin/python -m tests.bench.fanout [--streams 1000] [--games 20] [--moves 400] [--woken]

No server and no database: in one process, ``--streams`` stream bodies as the service sends
them (``event_stream`` inside Django's ``StreamingHttpResponse``, sent part by part by the
threaded bridge's ``AsyncBody`` through a ``send`` that only counts bytes, its outlet opened
onto a connection whose transport only counts bytes), each with the subscription the service
gives it, to the process's listener (``games.db.notify.Listener``, its connection never
made), spread over ``--games`` games. Then ``--moves`` notifications as PostgreSQL sends them
(a held dice event, in the news format of migration 0016) are handed to the listener, one
game after the other, each run to the end before the next: the processor time
(``time.process_time``) per move and per stream woken is what the fan-out costs the worker's
event loop, where the moves of everyone else wait meanwhile. With ``--woken`` the outlets
stay shut, so that each move wakes every stream's task to send it (what a server without an
outlet does). Being processor time in one process, it moves less with the load of a shared
machine than the rates of ``tests.bench.crowd`` do (though a busy core beside it still makes
the same work take more processor time). Run it in another checkout
(``cd ../other && python -m tests.bench.fanout``) to compare.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "fan-out-benchmark")

import django

django.setup()

from django.http import StreamingHttpResponse  # noqa: E402

from games.api.games import stream  # noqa: E402
from games.api.games.stream import event_stream  # noqa: E402
from games.api.games.stream_news import Delivering, Progress  # noqa: E402
from games.db.notify import Listener  # noqa: E402
from games.serving.outlet import Outlet  # noqa: E402
from games.serving.threaded_wsgi import AsyncBody  # noqa: E402


def news(seq: int) -> str:
    """A notification's payload after the game's id: one held event, the game still on."""
    row = {"seq": seq, "type": "held", "seat": 0, "data": {"held": [0]},
           "created_at": "2026-11-29T07:00:00.000000+00:00"}
    return f"{seq}:active:{json.dumps([row])}"


class Connection:
    """Where a stream's bytes go, as uvicorn's request cycle offers it to ``send`` and to an
    outlet (``games.serving.outlet``): here both only count them."""

    sent = 0
    disconnected = response_complete = False
    response_started = chunked_encoding = True

    def __init__(self) -> None:
        self.flow = SimpleNamespace(write_paused=False)
        self.transport = SimpleNamespace(write=self.count, is_closing=lambda: False)

    def count(self, data: bytes) -> None:
        Connection.sent += len(data)

    async def send(self, message: dict[str, Any]) -> None:
        self.count(message.get("body", b""))


async def run(streams: int, games: int, moves: int, woken: bool) -> tuple[float, int]:
    """(processor seconds for the moves, bytes sent to all streams)."""
    never = asyncio.Event()

    async def connect() -> Any:
        await never.wait()

    listener = Listener(connect)

    def stream_of(game_id: uuid.UUID) -> tuple[StreamingHttpResponse, Connection]:
        outlet = Outlet()

        @asynccontextmanager
        async def wake(game_id: uuid.UUID) -> AsyncIterator[Any]:
            with listener.subscribe(game_id, Delivering(str(game_id), outlet)) as subscription:
                yield subscription

        response = StreamingHttpResponse(
            event_stream(game_id, 0, wake=wake, read=read), content_type="text/event-stream"
        )
        if not woken:
            response.outlet = outlet  # type: ignore[attr-defined]  # as the view sets it
        return response, Connection()

    async def read(game_id: uuid.UUID, after: int, **_: Any) -> Progress:
        return Progress(over=False, last_seq=after, events=[])

    ids = [uuid.uuid4() for _ in range(games)]
    opened = [stream_of(ids[i % games]) for i in range(streams)]
    tasks = [
        asyncio.ensure_future(AsyncBody(response).send(connection.send))
        for response, connection in opened
    ]
    while listener.streams < streams:
        await asyncio.sleep(0.01)
    for _ in range(20):
        await asyncio.sleep(0)
    started_bytes = Connection.sent
    started = time.process_time()
    for move in range(moves):
        listener._wake(str(ids[move % games]), news(move // games + 1))
        for _ in range(8):  # every woken stream runs its step and sends
            await asyncio.sleep(0)
    used = time.process_time() - started
    bytes_sent = Connection.sent - started_bytes
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await listener.stop()
    return used, bytes_sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--woken", action="store_true",
                        help="outlets shut: each move wakes every stream's task to send it")
    args = parser.parse_args()
    stream.OPEN_STREAMS.set(0)
    per_game = args.streams / args.games
    costs = []
    for _ in range(args.rounds):
        used, sent = asyncio.run(run(args.streams, args.games, args.moves, args.woken))
        costs.append(used / args.moves)
        expected = args.moves * per_game
        print(f"  {1000 * used / args.moves:.2f} ms a move, {1e6 * used / expected:.1f} us a"
              f" stream woken ({sent} bytes sent)")
    best = statistics.median(costs)
    print(f"median: {1000 * best:.2f} ms of processor time a move to {per_game:.0f} streams,"
          f" {1e6 * best / per_game:.1f} us a stream; load average {os.getloadavg()[0]:.2f}")
    print(f"rerun: .venv/bin/python -m tests.bench.fanout {' '.join(sys.argv[1:])}")


if __name__ == "__main__":
    main()
