"""On PostgreSQL the event log tells listeners of each committed change (migration 0006),
with the change's events and the game's status where they fit (migration 0016), on the
game's own channel (migration 0023)."""

import asyncio
import uuid

import psycopg
import pytest
from django.db import connection, transaction
from psycopg import sql

from games.api.games import stream, stream_news
from games.db import notify
from games.db.notify import listen_parameters
from games.models import Event, Game
from tests.conftest import pins_the_fast_path, postgres_only

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def heard(listener: psycopg.Connection, expected: int = 0) -> list[str]:
    """The notifications sent so far: the ``expected`` ones waited for (up to 5 s, for a
    loaded machine), then any more that come within 0.2 s."""
    listener.execute("SELECT 1")  # a round trip delivers what has been sent so far
    notes = []
    if expected:
        notes = [note.payload for note in listener.notifies(timeout=5, stop_after=expected)]
    return notes + [note.payload for note in listener.notifies(timeout=0.2, stop_after=50)]


def follow(listener: psycopg.Connection, game: dict) -> None:
    listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(game["id"])))


@pytest.fixture
def listener():
    with psycopg.connect(**listen_parameters(connection.settings_dict), autocommit=True) as conn:
        yield conn


def test_a_committed_move_is_announced_with_its_last_event(api, listener) -> None:
    game = api.create()
    follow(listener, game)
    api.ok(game, "roll")
    api.ok(game, "hold", {"hold": [0]})
    assert [note.split(":")[:3] for note in heard(listener, 2)] == [
        [game["id"], "2", "active"], [game["id"], "3", "active"]
    ]


def test_the_announcement_carries_the_events_as_the_events_endpoint_renders_them(
    api, listener
) -> None:
    """What a stream sends from a notification is what it would send from a read."""
    game = api.create(("Ann", "Ben"))
    follow(listener, game)
    api.ok(game, "roll")
    api.ok(game, "hold", {"hold": [0, 2]})
    rolled = api.ok(game, "roll")
    api.ok(game, "score", {"category": next(iter(rolled["choices"]))})
    notes = heard(listener, 4)
    assert len(notes) == 4
    carried = [stream_news._decoded(note.partition(":")[2]) for note in notes]
    assert [event for progress in carried for event in progress.events] == api.events(game, 1)
    assert {progress.over for progress in carried} == {False}


def test_a_finished_game_is_announced_as_finished(api, listener) -> None:
    game = api.create()
    follow(listener, game)
    for _ in range(13):
        api.play_turn(game)
    last = api.events(game)[-1]
    assert last["type"] == "finished"
    assert heard(listener, 27)[-1].split(":")[1:3] == [str(last["seq"]), "finished"]


def test_events_too_long_for_a_notification_are_announced_by_their_last_seq(
    api, listener
) -> None:
    """A change whose events are too long to carry (a notification holds under 8000 bytes:
    a whole game of computer turns, say) is announced by the game's last seq alone."""
    game = api.create()
    follow(listener, game)
    first = api.events(game)[-1]["seq"] + 1
    Event.objects.bulk_create(
        Event(game_id=game["id"], seq=seq, type="note", data={"pad": "x" * 200})
        for seq in range(first, first + 60)
    )
    assert heard(listener, 1) == [f"{game['id']}:{first + 59}"]


def test_a_refused_move_and_a_rolled_back_change_announce_nothing(api, listener) -> None:
    game = api.create()
    follow(listener, game)
    assert api.move(game, "score", {"category": "chance"}).status_code == 409  # not rolled yet
    with pytest.raises(RuntimeError), transaction.atomic():
        Event.objects.create(game=Game.objects.get(pk=game["id"]), seq=99, type="rolled", data={})
        raise RuntimeError("the change fails after its event was written")
    assert heard(listener) == []


@pins_the_fast_path
def test_a_stream_is_sent_each_move_from_its_notification_without_reading_the_log(api) -> None:
    """The process's real listener, a stream of the game, two moves: the stream reads the log
    once, as it opens, and is sent each move from the notification alone."""
    game = api.create()
    reads: list[int] = []

    async def read(game_id: uuid.UUID, after: int, **kw: object):
        reads.append(after)
        return await asyncio.to_thread(stream._read, game_id, after)

    def move(action: str, body: dict | None = None) -> None:
        api.ok(game, action, body)
        connection.close()  # this thread's own

    async def scenario() -> list[bytes]:
        # The listener is connected before the stream opens: once connected it wakes every
        # stream it has, with no news, to read what it may have missed (a read that, on a
        # loaded machine, came after the first move and was counted here).
        listening = notify.listener()
        with listening.subscribe("before the stream"):
            for _ in range(200):  # until the listener is connected
                if listening.connected:
                    break
                await asyncio.sleep(0.05)
            chunks = stream.event_stream(uuid.UUID(game["id"]), 0, read=read)
            got = [await anext(chunks), await anext(chunks)]  # the hint, the game's first event
            await asyncio.to_thread(move, "roll")
            got.append(await asyncio.wait_for(anext(chunks), 5))
            await asyncio.to_thread(move, "hold", {"hold": [0]})
            got.append(await asyncio.wait_for(anext(chunks), 5))
            await chunks.aclose()
        await notify.stop_listening()
        return got

    got = asyncio.run(scenario())
    assert got[1:] == [stream_news.sse_message(event) for event in api.events(game)]
    assert reads == [0]


def test_a_processs_listener_is_told_only_of_the_games_its_streams_follow(
    api, monkeypatch
) -> None:
    """Moves of a game no stream of the process follows never reach it (migration 0023):
    every move of every game used to wake every worker's listener."""
    followed, other = api.create(), api.create()
    told: list[str] = []
    wake = notify.Listener._wake

    def counted(self: notify.Listener, game: str, news: str) -> None:
        told.append(game)
        wake(self, game, news)

    monkeypatch.setattr(notify.Listener, "_wake", counted)

    def moves() -> None:
        for game in (other, followed, other):
            api.ok(game, "roll")
        connection.close()  # this thread's own

    async def scenario() -> None:
        listening = notify.listener()
        with listening.subscribe(followed["id"]):
            for _ in range(200):
                if listening.connected and followed["id"] in listening.heard_topics:
                    break
                await asyncio.sleep(0.05)
            await asyncio.to_thread(moves)
            for _ in range(100):  # up to 5 s for the followed game's, on a loaded machine
                if told:
                    break
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.3)  # time for any other notification to come
        await notify.stop_listening()

    asyncio.run(scenario())
    assert told == [followed["id"]]
