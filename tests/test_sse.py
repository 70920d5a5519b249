"""The live stream's parts, without a server or a database: messages, positions, pacing.

The stream itself, through the real ASGI server, is pinned by tests/live/test_stream.py.
"""

import asyncio
import json
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import dj_database_url
import psycopg
import pytest
from django.db import OperationalError
from django.test import RequestFactory

from games.api.games import stream, stream_news
from games.api.games.stream import KEEP_ALIVE, RETRY, BadPosition, event_stream, start_position
from games.api.games.stream_news import (
    POLL_SECONDS,
    Delivering,
    Polling,
    Progress,
    sse_message,
    wakeups,
)
from games.db import notify
from games.db.notify import Listener, listen_parameters
from games.serving.outlet import Outlet
from tests.conftest import pins_the_fast_path

GAME = uuid.UUID("3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10")


def event(seq: int, type_: str = "rolled", **data: Any) -> dict[str, Any]:
    return {"seq": seq, "type": type_, "seat": 0, "data": data, "created_at": "2026-11-21T10:00Z"}


# -- messages and positions -------------------------------------------------------------------


def test_a_message_is_the_seq_the_type_and_the_event_as_json_on_one_line() -> None:
    rolled = event(3, dice=[3, 3, 5, 1, 6], note="two\nlines", name="Zoë")
    lines = sse_message(rolled).decode().split("\n")
    assert lines[:2] == ["id: 3", "event: rolled"]
    assert lines[2].startswith("data: ")
    assert json.loads(lines[2].removeprefix("data: ")) == rolled
    assert lines[3:] == ["", ""]  # a blank line ends the message
    assert "Zoë" in lines[2]  # UTF-8, as the events endpoint renders it


def test_the_hint_and_the_heartbeat_are_what_event_source_expects() -> None:
    assert RETRY == b"retry: 2000\n\n"
    assert KEEP_ALIVE == b": keep-alive\n\n"  # a comment: EventSource ignores it


@pytest.mark.parametrize(
    ("query", "header", "expected"),
    [
        ({}, None, 0),
        ({"after": "4"}, None, 4),
        ({}, "7", 7),
        ({"after": "4"}, "7", 7),  # a reconnecting browser: its header is newer than its URL
        ({"after": "4"}, "", 4),  # an empty id is no id
        ({}, "2147483647", 2147483647),
    ],
)
def test_the_stream_starts_after_last_event_id_else_after(
    query: dict[str, str], header: str | None, expected: int
) -> None:
    headers = {} if header is None else {"HTTP_LAST_EVENT_ID": header}
    assert start_position(RequestFactory().get("/", query, **headers)) == expected


@pytest.mark.parametrize(
    ("query", "header", "field"),
    [
        ({"after": "-1"}, None, "after"),
        ({"after": "1.5"}, None, "after"),
        ({"after": ""}, None, "after"),
        ({"after": "2147483648"}, None, "after"),
        ({"after": "\u0663"}, None, "after"),  # an Arabic-Indic 3 is a digit, not a seq
        ({"after": "3\n"}, None, "after"),
        ({}, "abc", "Last-Event-ID"),
        ({"after": "x"}, "3", "after"),  # a bad query is bad even when the header is good
    ],
)
def test_a_position_that_is_not_an_event_seq_is_refused(
    query: dict[str, str], header: str | None, field: str
) -> None:
    headers = {} if header is None else {"HTTP_LAST_EVENT_ID": header}
    with pytest.raises(BadPosition) as refused:
        start_position(RequestFactory().get("/", query, **headers))
    assert refused.value.field == field


# -- the stream's pacing, with a fake log and fake wake-ups ----------------------------------


class FakeWaiting:
    """Wakes the stream every ``interval`` (as polling does); shorter waits time out."""

    interval = 0.01
    woken_at = 0.0
    news: str | None = None
    sent = 0
    sent_at = 0.0

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.closed = False

    async def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        await asyncio.sleep(min(timeout, self.interval))
        return timeout >= self.interval


def waking(waiting: FakeWaiting) -> Callable[[uuid.UUID], Any]:
    @asynccontextmanager
    async def wake(game_id: uuid.UUID) -> AsyncIterator[FakeWaiting]:
        try:
            yield waiting
        finally:
            waiting.closed = True

    return wake


def reading(*found: Progress | None) -> tuple[Callable[..., Any], list[int]]:
    """A fake log read answering each of ``found`` in turn, then the last one again."""
    asked: list[int] = []
    answers = list(found)

    async def read(game_id: uuid.UUID, after: int, **_: Any) -> Progress | None:
        asked.append(after)
        return answers.pop(0) if len(answers) > 1 else answers[0]

    return read, asked


async def gather(chunks: AsyncIterator[bytes], until: bytes | None = None) -> list[bytes]:
    """The stream's messages, as a client parses them (a chunk may carry several)."""
    got = []
    async for chunk in chunks:
        got.append(chunk)
        if chunk == until:
            await chunks.aclose()  # type: ignore[attr-defined]
            break
    return re.findall(rb".*?\n\n", b"".join(got), re.DOTALL)


def test_the_stream_sends_each_new_event_once_and_ends_when_the_game_is_over() -> None:
    one, two, done = event(1, "created"), event(2), event(3, "finished")
    read, asked = reading(
        Progress(over=False, last_seq=2, events=[one, two]),
        Progress(over=False, last_seq=2, events=[]),
        Progress(over=True, last_seq=3, events=[done]),
    )
    waiting = FakeWaiting()
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(waiting), read=read)))
    assert got == [RETRY, sse_message(one), sse_message(two), sse_message(done)]
    assert asked == [0, 2, 2]
    assert len(waiting.waits) == 2 and waiting.closed


def test_a_full_batch_is_followed_by_the_next_without_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stream, "BATCH", 2)
    read, asked = reading(
        Progress(over=True, last_seq=3, events=[event(1), event(2)]),
        Progress(over=True, last_seq=3, events=[event(3)]),
    )
    waiting = FakeWaiting()
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(waiting), read=read)))
    assert len(got) == 4 and asked == [0, 2] and waiting.waits == []


def test_a_game_over_already_sent_ends_the_stream_at_once() -> None:
    read, _ = reading(Progress(over=True, last_seq=9, events=[]))
    got = asyncio.run(gather(event_stream(GAME, 9, wake=waking(FakeWaiting()), read=read)))
    assert got == [RETRY]


def test_a_deleted_game_ends_the_stream() -> None:
    read, _ = reading(Progress(over=False, last_seq=1, events=[event(1)]), None)
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(FakeWaiting()), read=read)))
    assert got == [RETRY, sse_message(event(1))]


def test_an_idle_stream_sends_a_heartbeat_and_closes_its_wakeups_when_the_client_goes() -> None:
    read, asked = reading(Progress(over=False, last_seq=1, events=[]))
    waiting = FakeWaiting()
    chunks = event_stream(GAME, 1, wake=waking(waiting), read=read, heartbeat=0.05)
    started = time.monotonic()
    got = asyncio.run(gather(chunks, until=KEEP_ALIVE))
    assert got == [RETRY, KEEP_ALIVE]
    assert time.monotonic() - started >= 0.05  # reads that find nothing do not delay it
    assert len(asked) > 2  # each wake-up read the log again
    assert waiting.closed


def test_a_stream_that_cannot_read_the_database_ends_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def read(game_id: uuid.UUID, after: int, **_: Any) -> Progress | None:
        if after == 0:
            return Progress(over=False, last_seq=1, events=[event(1)])
        raise OperationalError("the server closed the connection unexpectedly")

    waiting = FakeWaiting()
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(waiting), read=read)))
    assert got == [RETRY, sse_message(event(1))]  # then the end: the client resumes after 1
    assert waiting.closed
    assert "after seq 1" in caplog.text and "Traceback" not in caplog.text


def test_a_cancelled_stream_closes_its_wakeups() -> None:
    read, _ = reading(Progress(over=False, last_seq=1, events=[]))
    waiting = FakeWaiting()

    async def cancel_while_waiting() -> None:
        task = asyncio.create_task(gather(event_stream(GAME, 1, wake=waking(waiting), read=read)))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_while_waiting())
    assert waiting.closed


# -- news carried by the notification (migration 0016) ----------------------------------------


def news(last_seq: int, status: str, *seqs: int) -> str:
    """A notification's news as the trigger writes it: the game's status, its new events."""
    rows = [
        {"seq": seq, "type": "rolled", "seat": 0, "data": {"dice": [seq] * 5},
         "created_at": "2026-11-21T10:00:00.12+00:00"}
        for seq in seqs
    ]
    return f"{last_seq}:{status}:{json.dumps(rows)}"


def carried(seq: int) -> dict[str, Any]:
    """The event ``news`` carries, as the events endpoint renders it."""
    return {"seq": seq, "type": "rolled", "seat": 0, "data": {"dice": [seq] * 5},
            "created_at": "2026-11-21T10:00:00.120000Z"}


class NewsWaiting(FakeWaiting):
    """Wakes the stream with each of ``notes`` in turn, as the listener would."""

    def __init__(self, *notes: str) -> None:
        super().__init__()
        self.notes = list(notes)

    async def wait(self, timeout: float) -> bool:
        self.waits.append(timeout)
        await asyncio.sleep(0)
        if not self.notes:
            await asyncio.sleep(min(timeout, self.interval))
            return False
        self.news = self.notes.pop(0)
        return True


def test_news_that_follows_on_is_sent_without_reading_the_log() -> None:
    read, asked = reading(Progress(over=False, last_seq=1, events=[event(1, "created")]))
    waiting = NewsWaiting(news(2, "active", 2), news(4, "finished", 3, 4))
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(waiting), read=read)))
    assert got == [
        RETRY, sse_message(event(1, "created")),
        sse_message(carried(2)), sse_message(carried(3)), sse_message(carried(4)),
    ]
    assert asked == [0]  # the opening read only; the game's end came with its news


def test_news_that_skips_events_not_yet_sent_is_read_instead() -> None:
    """A notification missed while the stream was busy: the next one starts past what it sent."""
    read, asked = reading(
        Progress(over=False, last_seq=1, events=[event(1, "created")]),
        Progress(over=True, last_seq=3, events=[event(2), event(3, "finished")]),
    )
    waiting = NewsWaiting(news(3, "finished", 3))
    got = asyncio.run(gather(event_stream(GAME, 0, wake=waking(waiting), read=read)))
    assert got[-2:] == [sse_message(event(2)), sse_message(event(3, "finished"))]
    assert asked == [0, 1]


@pytest.mark.parametrize(
    ("sent", "expected"), [(1, [2, 3]), (2, [3]), (3, []), (0, None)],
)
def test_news_gives_what_the_stream_has_not_sent(sent: int, expected: list[int] | None) -> None:
    waiting = SimpleNamespace(news=news(3, "active", 2, 3))
    found = stream_news.told(waiting, sent)
    assert (None if found is None else [e["seq"] for e in found.events]) == expected
    assert waiting.news is None  # taken: the next wake-up brings its own


@pytest.mark.parametrize(
    "note", [None, "", "7", "7:active", "7:active:not json", '7:active:[{"seq": 7}]', "7::[]"]
)
def test_a_wake_up_without_readable_news_reads_the_log(note: str | None) -> None:
    assert stream_news.told(SimpleNamespace(news=note), 6) is None


def test_news_is_decoded_once_for_every_stream_of_its_game() -> None:
    note = news(9, "active", 9)
    first, second = (stream_news.told(SimpleNamespace(news=note), 8) for _ in range(2))
    assert first is second and first is not None
    assert first.messages is second.messages


# -- the process's listener ------------------------------------------------------------------


class FakeConnection:
    """Stands for a psycopg connection that LISTENs: hands out what is put in ``notes``."""

    def __init__(self) -> None:
        self.notes: asyncio.Queue[str | Exception] = asyncio.Queue()
        self.closed = False
        self.statements: list[str] = []  # LISTEN and UNLISTEN, as sent

    async def execute(self, query: Any) -> None:
        self.statements.append(query.as_string())

    async def notifies(self) -> AsyncIterator[Any]:
        while True:
            note = await self.notes.get()
            if isinstance(note, Exception):
                raise note
            yield SimpleNamespace(payload=note)

    async def close(self) -> None:
        self.closed = True


class FakeServer:
    """Hands out fake connections; refuses while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.made: list[FakeConnection] = []

    async def connect(self) -> FakeConnection:
        if self.down:
            raise psycopg.OperationalError("connection refused")
        self.made.append(FakeConnection())
        return self.made[-1]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_wake_ups_that_come_together_make_one_and_one_after_a_timeout_is_kept() -> None:
    async def scenario() -> list[bool]:
        subscription = notify.Subscription("g")
        waiting = asyncio.ensure_future(subscription.wait(1.0))
        await asyncio.sleep(0)
        subscription.wake("1")
        subscription.wake("2")  # before the stream runs again: one wake-up, the last news
        first = await waiting
        assert subscription.news == "2"
        timed_out = await subscription.wait(0.01)
        subscription.wake()  # while not waiting: kept for the next wait
        return [first, await subscription.wait(0.01), timed_out, await subscription.wait(0.01)]

    assert asyncio.run(scenario()) == [True, True, False, False]


def test_one_subscription_follows_several_topics_and_says_which_woke_it() -> None:
    async def scenario() -> None:
        fanout = notify.Fanout()
        mine = fanout.add("owner")
        fanout.add("game-1", mine)
        fanout.add("game-2", mine)
        other = fanout.add("game-2")
        assert fanout.subscriptions == 2
        fanout.publish("game-1", "news")
        fanout.publish("game-2", "more")
        assert await mine.wait(0.1) and mine.take_woken() == {"game-1", "game-2"}
        assert await other.wait(0.1) and other.news == "more"
        fanout.remove("game-1", mine)
        fanout.publish("game-1", "gone")
        assert not await mine.wait(0.01)
        fanout.publish_all()  # the listener reconnected: every topic may have news
        assert await mine.wait(0.1) and mine.take_woken() is None

    asyncio.run(scenario())


def test_a_move_reaches_every_stream_of_its_game_as_the_same_bytes() -> None:
    async def scenario() -> list[bytes]:
        fanout = notify.Fanout()
        note = (
            '2:active:[{"seq": 2, "type": "held", "seat": 0, "data": {"held": [0]},'
            ' "created_at": "2026-11-21T10:00:00+00:00"}]'
        )

        @asynccontextmanager
        async def wake(game_id: uuid.UUID) -> AsyncIterator[notify.Subscription]:
            subscription = fanout.add(str(game_id), Delivering(str(game_id), Outlet()))
            try:
                yield subscription
            finally:
                fanout.remove(str(game_id), subscription)

        read, _ = reading(Progress(over=False, last_seq=1, events=[]))
        bodies = [event_stream(GAME, 1, wake=wake, read=read) for _ in range(3)]
        for body in bodies:
            await anext(body)  # the retry hint
        pending = [asyncio.ensure_future(anext(body)) for body in bodies]
        await settle()
        fanout.publish(str(GAME), note)
        got = await asyncio.gather(*pending)
        for body in bodies:
            await body.aclose()  # type: ignore[attr-defined]
        return got

    got = asyncio.run(scenario())
    assert got[0].startswith(b"id: 2\nevent: held\n") and got[0].endswith(b"\n\n")
    assert got[0] is got[1] is got[2]  # encoded once, handed to each


def test_one_listener_wakes_every_stream_of_the_game_named_and_no_other() -> None:
    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        other = uuid.uuid4()
        with listener.subscribe(GAME) as one, listener.subscribe(GAME) as two, \
                listener.subscribe(other) as three:
            await settle()
            assert len(server.made) == 1 and listener.connected and listener.streams == 3
            for woken in (one, two, three):  # connecting wakes all: they read what they missed
                assert await woken.wait(0.1)
            server.made[0].notes.put_nowait(f"{GAME}:7")
            assert await one.wait(1.0) and await two.wait(1.0)
            assert not await three.wait(0.05)
        assert listener.streams == 0
        await listener.stop()
        assert server.made[0].closed

    asyncio.run(scenario())


def test_a_wake_up_while_the_stream_is_busy_is_not_lost() -> None:
    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as stream:
            await settle()
            assert await stream.wait(0.1)  # the wake-up of connecting
            server.made[0].notes.put_nowait(f"{GAME}:2")
            await settle()  # the stream is not waiting now: it is reading, say
            assert await stream.wait(0.0)
        await listener.stop()

    asyncio.run(scenario())


@pins_the_fast_path
def test_the_listener_hands_each_stream_its_games_news_and_none_after_reconnecting() -> None:
    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as stream:
            await settle()
            assert await stream.wait(0.1) and stream.news is None  # connected: read it all
            server.made[0].notes.put_nowait(f"{GAME}:{news(2, 'active', 2)}")
            assert await stream.wait(0.1) and stream.news == news(2, "active", 2)
            server.made[0].notes.put_nowait(psycopg.OperationalError("lost"))
            assert await stream.wait(2.0) and stream.news is None  # connected again
        await listener.stop()

    asyncio.run(scenario())


def test_a_lost_connection_is_made_again_with_pauses_and_then_every_stream_reads(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(notify, "FIRST_PAUSE", 0.02)

    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as stream:
            await settle()
            assert await stream.wait(0.1)
            server.down = True
            server.made[0].notes.put_nowait(psycopg.OperationalError("terminating connection"))
            await settle()
            assert not listener.connected and server.made[0].closed
            assert not await stream.wait(0.1)  # still down: nothing to read, the stream waits
            server.down = False
            assert await stream.wait(2.0)  # back: the stream is told to read what it missed
            assert listener.connected and len(server.made) == 2
            server.made[1].notes.put_nowait(f"{GAME}:9")
            assert await stream.wait(1.0)
        await listener.stop()

    asyncio.run(scenario())
    assert "lost the connection listening for game events" in caplog.text
    assert "cannot listen for game events" in caplog.text
    assert "Traceback" not in caplog.text


def test_a_listener_no_stream_needs_stops_listening_and_starts_again_for_the_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once its last stream has gone for ``IDLE_SECONDS``, a listener closes its connection:
    every move's notification would otherwise wake it for nothing. A stream that comes back
    within that time finds it still listening; one that comes later starts it again."""
    monkeypatch.setattr(notify, "IDLE_SECONDS", 0.1)

    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME):
            await settle()
        await asyncio.sleep(0.02)
        with listener.subscribe(GAME) as back_soon:  # within the idle time: same connection
            await settle()
            server.made[0].notes.put_nowait(f"{GAME}:3")
            assert await back_soon.wait(1.0)
        await asyncio.sleep(0.3)
        assert not listener.connected and server.made[0].closed and len(server.made) == 1
        with listener.subscribe(GAME) as later:
            await settle()
            assert listener.connected and len(server.made) == 2
            assert await later.wait(0.1)  # connecting wakes it: it reads what it missed
            server.made[1].notes.put_nowait(f"{GAME}:4")
            assert await later.wait(1.0)
        await listener.stop()
        assert server.made[1].closed

    asyncio.run(scenario())


def test_without_postgres_the_stream_polls(settings, monkeypatch) -> None:
    monkeypatch.setattr(stream_news, "POLL_SECONDS", 0.05)  # a poll as it is, but sooner

    async def scenario() -> list[bool]:
        async with wakeups()(GAME) as waiting:
            assert isinstance(waiting, Polling)
            return [await waiting.wait(POLL_SECONDS), await waiting.wait(0.01)]

    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("polls only without PostgreSQL")
    assert asyncio.run(scenario()) == [True, False]


def test_the_listening_connection_uses_djangos_database_settings() -> None:
    database = dj_database_url.parse("postgres://ann:secret@db.example:5433/dice?sslmode=require")
    database["OPTIONS"] |= {"isolation_level": 1, "server_side_binding": True, "pool": {}}
    assert listen_parameters(database) == {
        "dbname": "dice",
        "user": "ann",
        "password": "secret",
        "host": "db.example",
        "port": 5433,
        "sslmode": "require",
        "connect_timeout": 5,
        "application_name": "dice-game-stream",
    }


def test_streams_woken_together_share_one_read_but_never_an_older_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads: list[int] = []

    async def slow_read(game_id: uuid.UUID, after: int, executor: object = None) -> Progress:
        reads.append(after)
        which = len(reads)
        await asyncio.sleep(0.05)
        return Progress(over=False, last_seq=which, events=[])

    monkeypatch.setattr(stream, "_read_in_thread", slow_read)

    async def scenario() -> list[Progress | None]:
        woken = time.monotonic()
        first = asyncio.ensure_future(stream.read_log(GAME, 3, not_before=woken))
        await asyncio.sleep(0)
        same = [stream.read_log(GAME, 3, not_before=woken) for _ in range(50)]
        later = stream.read_log(GAME, 3, not_before=time.monotonic())  # woken after it began
        return await asyncio.gather(first, *same, later)

    answers = asyncio.run(scenario())
    assert reads == [3, 3]  # 51 streams in step: one read; the one woken later: its own
    assert {a.last_seq for a in answers[:51]} == {1} and answers[51].last_seq == 2


# -- a move sent by the stream's subscription itself, while the stream waits ------------------


class Connection:
    """What uvicorn's request cycle offers an outlet: a transport that keeps what is written,
    and says whether the client is gone or reads too slowly."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.disconnected = self.response_complete = False
        self.response_started, self.chunked_encoding = True, True
        self.flow = SimpleNamespace(write_paused=False)
        self.transport = SimpleNamespace(write=self.written.append, is_closing=lambda: False)

    async def send(self, message: dict[str, Any]) -> None:
        raise AssertionError("only the outlet writes here")

    def parts(self) -> list[bytes]:
        """The chunks written, unframed (``<length in hex>\\r\\n<part>\\r\\n``)."""
        found = []
        for chunk in self.written:
            length, _, rest = chunk.partition(b"\r\n")
            assert rest[int(length, 16):] == b"\r\n"
            found.append(rest[: int(length, 16)])
        return found


def delivering_stream(
    fanout: notify.Fanout, connection: Connection | None, *found: Progress
) -> tuple[AsyncIterator[bytes], list[int]]:
    """A stream of GAME from seq 1, its outlet open onto ``connection`` (shut without one),
    its reads of the log answering ``found`` (by default: nothing new); and the positions
    it read from."""
    outlet = Outlet()
    if connection is not None:
        outlet.connect(connection.send)

    @asynccontextmanager
    async def wake(game_id: uuid.UUID) -> AsyncIterator[notify.Subscription]:
        subscription = fanout.add(str(game_id), Delivering(str(game_id), outlet))
        try:
            yield subscription
        finally:
            fanout.remove(str(game_id), subscription)

    read, asked = reading(*(found or [Progress(over=False, last_seq=1, events=[])]))
    return event_stream(GAME, 1, wake=wake, read=read, heartbeat=0.2), asked


def test_a_waiting_stream_is_sent_each_move_by_its_subscription_without_waking() -> None:
    async def scenario() -> tuple[Connection, list[bytes], list[int]]:
        fanout, connection = notify.Fanout(), Connection()
        body, asked = delivering_stream(
            fanout, connection,
            Progress(over=False, last_seq=1, events=[]),
            Progress(over=True, last_seq=7, events=[carried(5), carried(6), carried(7)]),
        )
        assert await anext(body) == RETRY
        pending = asyncio.ensure_future(anext(body))
        await settle()
        for seq in (2, 3, 4):
            fanout.publish(str(GAME), news(seq, "active", seq))
            await settle()
        assert not pending.done()  # the stream itself slept through the moves
        fanout.publish(str(GAME), news(6, "active", 6))  # seq 5 missed: the stream reads
        rest = [await pending] + [chunk async for chunk in body]
        return connection, rest, asked

    connection, rest, asked = asyncio.run(scenario())
    assert connection.parts() == [sse_message(carried(seq)) for seq in (2, 3, 4)]
    # Woken, the stream reads on from seq 4 (not 1): nothing twice, nothing missed.
    assert asked == [1, 4]
    assert re.findall(rb"id: (\d+)", b"".join(rest)) == [b"5", b"6", b"7"]


def test_a_move_reaches_every_stream_of_its_game_in_one_pass() -> None:
    async def scenario() -> tuple[list[Connection], list[bool], bytes]:
        fanout = notify.Fanout()
        connections = [Connection(), Connection()]
        bodies = [delivering_stream(fanout, c)[0] for c in connections]
        bodies.append(delivering_stream(fanout, None)[0])  # no outlet: it must be woken
        for body in bodies:
            assert await anext(body) == RETRY
        pending = [asyncio.ensure_future(anext(body)) for body in bodies]
        await settle()
        fanout.publish(str(GAME), news(2, "active", 2))
        woken = await asyncio.wait_for(pending[2], 1)
        await settle()
        done = [waiting.done() for waiting in pending[:2]]
        for waiting in pending[:2]:
            waiting.cancel()
        await asyncio.gather(*pending[:2], return_exceptions=True)
        for body in bodies:
            await body.aclose()  # type: ignore[attr-defined]
        return connections, done, woken

    connections, done, woken = asyncio.run(scenario())
    assert [c.parts() for c in connections] == [[sse_message(carried(2))]] * 2
    assert done == [False, False]  # the two streams in step slept through it
    assert woken == sse_message(carried(2))


def test_a_move_the_subscription_may_not_send_itself_wakes_the_stream() -> None:
    async def scenario(
        shut: bool, paused: bool, gone: bool, status: str
    ) -> tuple[Connection, bytes]:
        fanout, connection = notify.Fanout(), Connection()
        connection.flow.write_paused, connection.disconnected = paused, gone
        body, _ = delivering_stream(fanout, None if shut else connection)
        await anext(body)
        pending = asyncio.ensure_future(anext(body))
        await settle()
        fanout.publish(str(GAME), news(2, status, 2))
        chunk = await asyncio.wait_for(pending, 1)
        await body.aclose()  # type: ignore[attr-defined]
        return connection, chunk

    for case in [
        (True, False, False, "active"),  # a server that gives no outlet
        (False, True, False, "active"),  # a slow reader
        (False, False, True, "active"),  # a client gone
        (False, False, False, "finished"),  # the game's end: the stream must end too
    ]:
        connection, chunk = asyncio.run(scenario(*case))
        assert connection.written == [] and chunk == sse_message(carried(2))


def test_moves_sent_by_the_subscription_put_off_the_heartbeat() -> None:
    async def scenario() -> tuple[Connection, float]:
        fanout, connection = notify.Fanout(), Connection()
        body, _ = delivering_stream(fanout, connection)  # a heartbeat every 0.2 s
        await anext(body)
        started = time.monotonic()
        pending = asyncio.ensure_future(anext(body))
        for seq in range(2, 8):  # a move every 0.05 s for 0.3 s
            await asyncio.sleep(0.05)
            fanout.publish(str(GAME), news(seq, "active", seq))
        beat = await asyncio.wait_for(pending, 1)
        await body.aclose()  # type: ignore[attr-defined]
        assert beat == KEEP_ALIVE
        return connection, time.monotonic() - started

    connection, took = asyncio.run(scenario())
    assert len(connection.parts()) == 6
    assert took >= 0.45  # 0.2 s after the last move (at 0.3 s), not 0.2 s after the first


def test_an_outlet_opens_only_onto_a_chunked_answer_of_uvicorns_cycle() -> None:
    connection = Connection()
    outlet = Outlet()
    outlet.connect(connection.send)
    assert outlet.open and outlet.write(b"data: x\n\n")
    assert connection.written == [b"9\r\ndata: x\n\n\r\n"]
    connection.response_complete = True
    assert not outlet.write(b"late")
    outlet.shut()
    assert not outlet.open and not outlet.write(b"x")

    async def plain_send(message: dict[str, Any]) -> None:
        pass

    for send in (plain_send, Connection().send):
        outlet.connect(send)
        if send is not plain_send:
            send.__self__.chunked_encoding = False  # type: ignore[attr-defined]
            outlet.connect(send)
        assert not outlet.open
