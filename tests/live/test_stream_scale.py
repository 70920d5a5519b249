"""Event streams at scale on PostgreSQL, through the real server (gunicorn, uvicorn workers).

Many open streams cost no database connection each: one listener per worker process fans
each commit out to every stream of the game. And when the database goes away under open
streams, nothing escapes to the server's log: the streams end or go on, and a client that
resumes with Last-Event-ID gets every event once.
"""

import asyncio
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.conftest import postgres_only
from tests.databases import postgres_database

from .proxy import CuttableProxy
from .service import LiveService, manage, service_env, serving
from .test_stream import LISTENER, EventStream, eventually, logged, move, new_game

pytestmark = [pytest.mark.live, postgres_only]

STREAMS = 200
WORKERS = 2  # as tests/live/conftest.py serves PostgreSQL


def database_connections(service: LiveService) -> list[str]:
    """The application_name of every connection to the service's database but this one."""
    with psycopg.connect(service.database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT application_name FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return [name for (name,) in rows]


async def open_streams(service: LiveService, game_ids: list[str], count: int):
    """``count`` raw SSE connections spread over the games, each read past its first event."""
    parts = urlsplit(service.url)
    gate = asyncio.Semaphore(50)

    async def one(game_id: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        async with gate:
            reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
            writer.write(
                f"GET /api/v1/games/{game_id}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            assert b" 200 " in await reader.readline()
            await reader.readuntil(b"\r\n\r\n")
            await reader.readuntil(b"\nevent: created\n")
        return reader, writer

    return await asyncio.gather(*(one(game_ids[i % len(game_ids)]) for i in range(count)))


async def next_event_type(reader: asyncio.StreamReader) -> str:
    while True:
        line = (await reader.readline()).decode()
        assert line, "the stream ended"
        if line.startswith("event: "):
            return line.removeprefix("event: ").strip()


def test_many_streams_share_one_listener_per_worker_and_each_gets_every_move(
    live_service: LiveService,
) -> None:
    (game, token), (other, _) = new_game(live_service), new_game(live_service)
    move(live_service, game, token, "roll")  # every worker has served requests by now

    async def scenario() -> tuple[list[str], list[str], list[str]]:
        before = database_connections(live_service)
        streams = await open_streams(live_service, [game["id"], other["id"]], STREAMS)
        followers = streams[::2]  # those of `game`: the even ones
        for reader, _ in followers:
            assert await asyncio.wait_for(next_event_type(reader), 5) == "rolled"
        during = database_connections(live_service)
        await asyncio.to_thread(move, live_service, game, token, "hold", {"hold": [0]})
        got = await asyncio.wait_for(
            asyncio.gather(*(next_event_type(reader) for reader, _ in followers)), 10
        )
        for _, writer in streams:
            writer.close()
        return before, during, got

    before, during, got = asyncio.run(scenario())
    assert got == ["held"] * (STREAMS // 2)
    assert during.count(LISTENER) <= WORKERS  # one listener per worker process, at most
    # Each worker holds its pool (at most DATABASE_POOL_MAX_SIZE, 16 by default) and one
    # listener, however many streams are open.
    assert len(during) <= WORKERS * (16 + 1) < STREAMS, (before, during)


@pytest.fixture
def service_behind_a_proxy(tmp_path: Path) -> Iterator[tuple[LiveService, CuttableProxy]]:
    """The service (two workers, as compose runs it), reaching PostgreSQL through a proxy."""
    with postgres_database(os.environ["DATABASE_URL"], prefix="dice_live") as direct:
        parts = urlsplit(direct)
        with CuttableProxy(parts.hostname or "127.0.0.1", parts.port or 5432) as proxy:
            proxied = urlunsplit(parts._replace(netloc=f"{parts.username}@127.0.0.1:{proxy.port}"))
            env = service_env(
                tmp_path, proxied, THROTTLE_CREATE="", THROTTLE_MOVES="",
                DATABASE_POOL_TIMEOUT="2",
            )
            manage(env, "migrate", "--noinput")
            with serving(tmp_path, env, database_url=direct) as service:
                yield service, proxy


def healthy(service: LiveService) -> bool:
    status, _ = service.call("GET", "/api/v1/health/")
    return status == 200


def test_when_the_database_goes_away_streams_end_cleanly_and_clients_resume(
    service_behind_a_proxy: tuple[LiveService, CuttableProxy],
) -> None:
    service, proxy = service_behind_a_proxy
    game, token = new_game(service)
    move(service, game, token, "roll")
    stream = EventStream(service, game["id"])
    seen = [stream.next_event().body(), stream.next_event().body()]
    assert [e["type"] for e in seen] == ["created", "rolled"]

    proxy.cut()  # the database is gone: every connection reset, new ones refused
    refused = EventStream(service, game["id"])
    assert refused.response.status == 503
    assert refused.response.getheader("Content-Type") == "application/problem+json"
    assert refused.response.getheader("Retry-After")
    assert json.loads(refused.response.read())["code"] == "database_unavailable"
    refused.close()
    time.sleep(2)

    proxy.restore()
    # Each worker's pool reconnects on its own pace: wait until every worker answers.
    assert eventually(lambda: all(healthy(service) for _ in range(10)), 30)
    move(service, game, token, "hold", {"hold": [1]})
    try:
        message = stream.next(timeout=20)  # the listener is back: the stream goes on...
        while message is not None and message.event is None:
            message = stream.next(timeout=20)
    except TimeoutError:
        message = None
    if message is not None:
        seen.append(message.body())
    else:  # ...or it ended, and the client resumes from the last event it got
        stream.close()
        stream = EventStream(service, game["id"], last_event_id=str(seen[-1]["seq"]))
        seen.append(stream.next_event().body())
    stream.close()
    assert seen == logged(service, game)

    log = service.log.read_text(errors="replace")
    assert "Traceback" not in log
    assert "Exception in ASGI application" not in log
