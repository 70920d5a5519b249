"""What wakes a key's stream: its owner's channel and its games' news, except news of a
move within a turn, which changes nothing the stream sends."""

import asyncio
import json
import time
import uuid

from games.api.bots import stream
from games.arena.feed import Seats
from games.arena.wakeups import KeySubscription, within_a_turn
from games.db import notify


def news(status: str, *types: str) -> str:
    events = [
        {"seq": seq, "type": kind, "seat": 0, "data": {}, "created_at": "2026-11-29T10:00:00+00:00"}
        for seq, kind in enumerate(types, start=5)
    ]
    return f"{4 + len(types)}:{status}:{json.dumps(events)}"


def test_only_rolls_holds_and_dice_set_aside_in_an_active_game_fall_within_a_turn() -> None:
    assert within_a_turn(news("active", "rolled"))
    assert within_a_turn(news("active", "held", "rolled"))
    assert within_a_turn(news("active", "set_aside", "rolled"))
    assert not within_a_turn(news("active", "rolled", "busted"))  # the turn passed
    assert not within_a_turn(news("active", "scored"))
    assert not within_a_turn(news("finished", "rolled"))  # e.g. a game ended by the clock
    assert not within_a_turn(news("active", "timed_out", "rolled"))
    assert not within_a_turn("7")  # too long to carry its events: read
    assert not within_a_turn("7:active:not json")
    assert not within_a_turn("7:active:[]")


def test_a_keys_stream_sleeps_through_rolls_and_wakes_when_a_turn_passes() -> None:
    async def scenario() -> None:
        fanout = notify.Fanout()
        stream = fanout.add("owner-1", KeySubscription("owner-1"))
        fanout.add("game-1", stream)
        fanout.publish("game-1", news("active", "rolled"))
        fanout.publish("game-1", news("active", "held"))
        assert not await stream.wait(0.02)
        fanout.publish("game-1", news("active", "scored"))
        assert await stream.wait(0.1) and stream.take_woken() == {"game-1"}
        fanout.publish("game-1", None)  # no news (or news off): read
        assert await stream.wait(0.1) and stream.take_woken() == {"game-1"}
        fanout.publish("owner-1", news("active", "rolled"))  # the owner's channel, always
        assert await stream.wait(0.1) and stream.take_woken() == {"owner-1"}
        fanout.publish_all()
        assert await stream.wait(0.1) and stream.take_woken() is None

    asyncio.run(scenario())


def test_key_streams_woken_for_the_same_games_share_one_read(monkeypatch) -> None:
    """Streams woken by one move's notification (each bot's owner's, up to three a key)
    read the game's bot seats once; a stream woken later, after the read began, reads
    again, so that it never gets an answer older than its wake-up."""
    reads: list[frozenset[uuid.UUID]] = []

    def read_seats(games: frozenset[uuid.UUID]) -> Seats:
        reads.append(games)
        time.sleep(0.05)  # a read's round trip
        return Seats(rows=[], totals={})

    monkeypatch.setattr(stream, "read_seats", read_seats)
    monkeypatch.setattr(stream, "_in_thread", lambda work: work())
    game = frozenset({uuid.uuid4()})

    async def scenario() -> None:
        woken = time.monotonic()
        together = await asyncio.gather(*(
            stream.shared_seats(game, not_before=woken, executor=None) for _ in range(4)
        ))
        assert len(reads) == 1 and all(seats is together[0] for seats in together)
        later = time.monotonic()
        await stream.shared_seats(game, not_before=later, executor=None)
        assert len(reads) == 2
        assert await stream.shared_seats(frozenset(), not_before=later, executor=None) is None
        assert len(reads) == 2

    asyncio.run(scenario())
