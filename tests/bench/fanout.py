"""The processor time a worker spends handing one move to each event stream of its game.

    .venv/bin/python -m tests.bench.fanout [--streams 1000] [--games 20] [--moves 400]

No server and no database: in one process, ``--streams`` stream bodies as the service sends
them (``event_stream`` inside Django's ``StreamingHttpResponse``, sent part by part by the
threaded bridge's ``AsyncBody`` to a ``send`` that only counts bytes), subscribed to the
process's listener (``games.db.notify.Listener``, its connection never made), spread over
``--games`` games. Then ``--moves`` notifications as PostgreSQL sends them (a held dice
event, in the news format of migration 0016) are handed to the listener, one game after the
other, each run to the end before the next: the processor time (``time.process_time``) per
move and per stream woken is what the fan-out costs the worker's event loop, where the
moves of everyone else wait meanwhile. Being processor time in one process, it hardly moves
with the load of a shared machine, unlike the rates of ``tests.bench.crowd``. Run it in
another checkout (``cd ../other && python -m tests.bench.fanout``) to compare.
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
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "fan-out-benchmark")

import django

django.setup()

from django.http import StreamingHttpResponse  # noqa: E402

from games.api.games import stream  # noqa: E402
from games.api.games.stream import Progress, event_stream  # noqa: E402
from games.db.notify import Listener  # noqa: E402
from games.serving.threaded_wsgi import AsyncBody  # noqa: E402


def news(seq: int) -> str:
    """A notification's payload after the game's id: one held event, the game still on."""
    row = {"seq": seq, "type": "held", "seat": 0, "data": {"held": [0]},
           "created_at": "2026-11-29T07:00:00.000000+00:00"}
    return f"{seq}:active:{json.dumps([row])}"


async def run(streams: int, games: int, moves: int) -> tuple[float, int]:
    """(processor seconds for the moves, bytes sent to all streams)."""
    never = asyncio.Event()

    async def connect() -> Any:
        await never.wait()

    listener = Listener(connect)

    @asynccontextmanager
    async def wake(game_id: uuid.UUID) -> AsyncIterator[Any]:
        with listener.subscribe(game_id) as subscription:
            yield subscription

    async def read(game_id: uuid.UUID, after: int, **_: Any) -> Progress:
        return Progress(over=False, last_seq=after, events=[])

    ids = [uuid.uuid4() for _ in range(games)]
    sent = [0]

    async def send(message: dict[str, Any]) -> None:
        sent[0] += len(message.get("body", b""))

    bodies = [
        AsyncBody(StreamingHttpResponse(
            event_stream(ids[i % games], 0, wake=wake, read=read), content_type="text/event-stream"
        ))
        for i in range(streams)
    ]
    tasks = [asyncio.ensure_future(body.send(send)) for body in bodies]
    while listener.streams < streams:
        await asyncio.sleep(0.01)
    for _ in range(20):
        await asyncio.sleep(0)
    started_bytes = sent[0]
    started = time.process_time()
    for move in range(moves):
        listener._wake(str(ids[move % games]), news(move // games + 1))
        for _ in range(8):  # every woken stream runs its step and sends
            await asyncio.sleep(0)
    used = time.process_time() - started
    bytes_sent = sent[0] - started_bytes
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
    args = parser.parse_args()
    stream.OPEN_STREAMS.set(0)
    per_game = args.streams / args.games
    costs = []
    for _ in range(args.rounds):
        used, sent = asyncio.run(run(args.streams, args.games, args.moves))
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
