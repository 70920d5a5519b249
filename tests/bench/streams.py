"""Hold many event streams open at once, as many browsers following games would.

``python -m tests.bench.streams URL COUNT GAME_ID...`` opens COUNT streams (spread over the games)
on the service at URL, reads each up to its first message, prints ``open <n>`` once every
stream is open, and then keeps reading (and discarding) until its standard input closes.
Used by ``tests/bench/run.py``; plain asyncio sockets, since an SSE client holds a connection and
reads lines, nothing more. Each stream's writer is kept as long as its reader: asyncio closes
the connection of a writer that is let go (``StreamWriter.__del__``), which once closed every
stream here as soon as it had opened.
"""

import asyncio
import sys
from urllib.parse import urlsplit

CONNECTING_AT_ONCE = 50


Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def hold(host: str, port: int, path: str, gate: asyncio.Semaphore) -> Stream:
    async with gate:
        reader, writer = await asyncio.open_connection(host, port)
        head = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n"
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
    streams = await asyncio.gather(
        *(
            hold(parts.hostname, parts.port, f"/api/v1/games/{games[i % len(games)]}/stream/", gate)
            for i in range(count)
        )
    )
    print(f"open {len(streams)}", flush=True)
    draining = [asyncio.create_task(drain(reader)) for reader, _ in streams]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for task in draining:
        task.cancel()
    for _, writer in streams:
        writer.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3:]))
