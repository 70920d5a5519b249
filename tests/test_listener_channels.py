"""A process's listener LISTENs on the channels of the topics its streams follow, and no
other (migration 0023): a move of a game no stream of the process follows never reaches it."""

import asyncio
import uuid

import pytest

from games.db import notify
from games.db.notify import Listener, channel_of
from tests.test_sse import FakeServer, settle

GAME = "3f0c2a9e-8d1b-4c61-9a55-2f1d0b7e4c10"
OTHER = "9b2d7c41-0e5f-4a38-8c17-6d0a3f2e9b55"


def test_a_games_channel_is_its_id_and_a_long_name_gets_a_short_digest() -> None:
    owner = f"bots-{uuid.uuid4()}-{uuid.uuid4()}"  # a key's owner's: 78 characters
    assert channel_of(GAME) == GAME
    assert len(channel_of(owner)) <= 63 and channel_of(owner) == channel_of(owner)
    assert channel_of(owner) != channel_of(f"bots-{uuid.uuid4()}-teacher")


def test_it_listens_on_the_topics_followed_and_drops_those_no_one_follows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notify, "UNLISTEN_SECONDS", 0.05)

    async def scenario() -> list[str]:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME):
            await settle()
            with listener.subscribe(OTHER), listener.subscribe(OTHER):
                await settle()
                assert listener.heard_topics == {GAME, OTHER}
            await asyncio.sleep(0.2)  # both of OTHER's streams gone: unlistened soon after
            assert listener.heard_topics == {GAME}
            assert listener.connected and len(server.made) == 1  # all on one connection
        await listener.stop()
        return server.made[0].statements

    assert asyncio.run(scenario()) == [
        f'LISTEN "{GAME}"', f'LISTEN "{OTHER}"', f'UNLISTEN "{OTHER}"'
    ]


def test_a_topic_newly_listened_on_wakes_its_streams_and_heard_waits_for_it() -> None:
    """A stream that read before its game was LISTENed on may have missed a move: woken,
    it reads again. One that waits for ``heard`` reads after, and needs no wake-up."""

    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as first:
            await settle()
            assert await first.wait(0.1)  # connecting wakes all
            with listener.subscribe(OTHER) as early, listener.subscribe(OTHER) as waits:
                assert OTHER not in listener.heard_topics
                await listener.heard(OTHER, waits)
                assert OTHER in listener.heard_topics
                assert await early.wait(0.1) and early.news is None
                assert not await waits.wait(0.05)
                server.made[0].notes.put_nowait(f"{OTHER}:5")
                assert await waits.wait(1.0) and waits.news == "5"
                assert not await first.wait(0.05)
        await listener.stop()

    asyncio.run(scenario())


def test_heard_does_not_wait_for_a_listener_that_is_not_connected() -> None:
    """Once it connects, it LISTENs on everything followed and wakes every stream."""

    async def scenario() -> None:
        server = FakeServer()
        server.down = True
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as stream:
            await asyncio.wait_for(listener.heard(GAME), 0.5)
            assert not listener.connected and not await stream.wait(0.05)
        await listener.stop()

    asyncio.run(scenario())


def test_a_connection_lost_while_changing_channels_is_made_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(notify, "FIRST_PAUSE", 0.02)

    async def scenario() -> None:
        server = FakeServer()
        listener = Listener(server.connect)  # type: ignore[arg-type]
        with listener.subscribe(GAME) as stream:
            await settle()
            assert await stream.wait(0.1)

            async def refused(query: object) -> None:
                raise notify.psycopg.OperationalError("server closed the connection")

            server.made[0].execute = refused  # type: ignore[method-assign]
            with listener.subscribe(OTHER) as other:
                assert await other.wait(2.0)  # connected again: every stream reads
                assert listener.connected and len(server.made) == 2
                assert listener.heard_topics == {GAME, OTHER}
        await listener.stop()

    asyncio.run(scenario())
