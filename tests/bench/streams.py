"""Hold many event streams open at once, as many browsers following games would.

``python -m tests.bench.streams URL COUNT GAME_ID...`` opens COUNT streams (spread over the games;
with ``--keys FILE`` instead of the games, keys' own streams, three a key of the JSON list in FILE)
on the service at URL, reads each up to its first message, prints ``open <n>`` once every
stream is open, and then keeps reading (and discarding) until its standard input closes. With
``STREAMS_DEAF`` set in its environment it reads nothing more once they are open (each
connection's reading paused): the service's writes then wake no reader on this machine.
Used by ``tests/bench/run.py``; plain asyncio sockets, since an SSE client holds a connection and
reads lines, nothing more. Each stream's writer is kept as long as its reader: asyncio closes
the connection of a writer that is let go (``StreamWriter.__del__``), which once closed every
stream here as soon as it had opened.
"""

import asyncio
import json
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

CONNECTING_AT_ONCE = 50
KEY_STREAMS = 3  # the most one key may hold open


Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def hold(
    host: str, port: int, path: str, gate: asyncio.Semaphore, key: str | None = None
) -> Stream:
    async with gate:
        reader, writer = await asyncio.open_connection(host, port)
        head = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
        if key:
            head += f"X-API-Key: {key}\r\n"
        writer.write(f"{head}\r\n".encode())
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"{path}: {status!r}")
        await reader.readuntil(b"\r\n\r\n")  # the headers
        await reader.readuntil(b"\n\n")  # the first message: the retry hint
    return reader, writer


async def drain(reader: asyncio.StreamReader) -> None:
    while await reader.read(65536):
        pass


async def main(url: str, count: int, games: list[str]) -> None:
    parts = urlsplit(url)
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    if games[:1] == ["--keys"]:  # keys' own streams, KEY_STREAMS a key, from the file named
        keys = json.loads(Path(games[1]).read_text())
        opening = [
            hold(parts.hostname, parts.port, "/api/v1/me/stream/", gate, keys[i // KEY_STREAMS])
            for i in range(min(count, KEY_STREAMS * len(keys)))
        ]
    else:
        opening = [
            hold(parts.hostname, parts.port, f"/api/v1/games/{games[i % len(games)]}/stream/", gate)
            for i in range(count)
        ]
    streams = await asyncio.gather(*opening)
    print(f"open {len(streams)}", flush=True)
    draining = []
    if os.environ.get("STREAMS_DEAF"):
        for _, writer in streams:
            writer.transport.pause_reading()
    else:
        draining = [asyncio.create_task(drain(reader)) for reader, _ in streams]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in draining:
        task.cancel()
    for _, writer in streams:
        writer.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
