"""What wakes a key's stream: its owner's channel and its games' news, except news of a
move within a turn, which changes nothing the stream sends."""

import asyncio
import json

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
