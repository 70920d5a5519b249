"""What a key's stream sends (``games.arena.feed``) and how its body runs
(``games.api.bots.stream``), without a server.

The stream through the real server (its timings, its limit, revocation) is pinned by
tests/live/test_bots_live.py.
"""

import asyncio
import json
import uuid
from typing import Any

import pytest
from django.test import RequestFactory

from games.api.bots.stream import key_stream, me_stream
from games.api.games.stream import KEEP_ALIVE, RETRY
from games.arena import owners
from games.arena.feed import Feed
from games.arena.registry import owner_of_caller
from games.classrooms.keys import caller_for_key
from games.play.privacy import hash_token
from tests.api.conftest import assert_problem
from tests.classrooms.conftest import Class

from .conftest import BotApi


def parsed(messages: list[bytes]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for raw in messages:
        lines = dict(line.split(": ", 1) for line in raw.decode().strip().split("\n"))
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def feed_of(key: str) -> Feed:
    caller = caller_for_key(key)
    return Feed(owner=owner_of_caller(caller), key_id=caller.key_id)


def test_on_connection_every_game_not_over_is_sent_with_its_turn(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    solo = bots.seat(ann, [{"bot": gus["id"]}]).json()
    waiting = bots.seat(ann, [{"bot": gus["id"]}], open_seats=1).json()
    theirs = bots.seat(ann, [{"name": "Ann"}, {"bot": gus["id"]}]).json()
    sent = parsed(feed_of(ann).read_all())
    assert [(e, d["game"]) for e, d in sent] == sorted(
        [("seated", solo["id"]), ("turn", solo["id"]), ("seated", waiting["id"]),
         ("seated", theirs["id"])],
        key=lambda pair: (pair[1], pair[0] == "turn"),
    )
    seated = {d["game"]: d for e, d in sent if e == "seated"}
    assert seated[theirs["id"]] == {
        "game": theirs["id"], "seat": 1, "bot": gus["id"], "ruleset": "yahtzee",
        "token": theirs["players"][1]["token"], "tournament": None,
    }
    turn = next(d for e, d in sent if e == "turn")
    assert turn == {"game": solo["id"], "seat": 0, "bot": gus["id"],
                    "version": solo["version"], "deadline": None}
    # A reconnection (a new stream) is sent all of it again, a bot that restarts picks up.
    assert parsed(feed_of(ann).read_all()) == sent


def test_a_turn_is_sent_once_at_its_start_then_the_game_once_it_finishes(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    feed = feed_of(ann)
    assert feed.read_all() == []
    game = bots.seat(ann, [{"name": "Ann"}, {"bot": gus["id"]}]).json()
    assert [e for e, _ in parsed(feed.read_all())] == ["seated"]  # Ann is to move
    bots.ok(game, "roll", seat=0)
    assert feed.read_games([uuid.UUID(game["id"])]) == []
    after = bots.ok(game, "score", {"category": "chance"}, seat=0)
    assert parsed(feed.read_games([uuid.UUID(game["id"])])) == [
        ("turn", {"game": game["id"], "seat": 1, "bot": gus["id"],
                  "version": after["version"], "deadline": None}),
    ]
    bots.ok(game, "roll", seat=1)  # within the turn: nothing new
    assert feed.read_games([uuid.UUID(game["id"])]) == []
    while (now := bots.get(game))["status"] == "active":
        bots.play_turn(game, seat=now["current_seat"])
    finished = parsed(feed.read_all())
    assert finished == [("finished", {"game": game["id"], "totals": [
        p["total"] for p in now["players"]], "winners": now["winners"]})]
    assert feed.read_all() == [] and feed.games == set()


def test_a_solitaire_bot_hears_of_each_of_its_turns(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    game = bots.seat(ann, [{"bot": gus["id"]}]).json()
    feed = feed_of(ann)
    assert [e for e, _ in parsed(feed.read_all())] == ["seated", "turn"]
    bots.play_turn(game)
    assert [e for e, _ in parsed(feed.read_games([uuid.UUID(game["id"])]))] == ["turn"]


def test_a_stream_carries_its_owners_bots_only_never_another_keys_tokens(
    bots: BotApi, room: Class
) -> None:
    ann, ben = bots.key_of(room, "Ann"), bots.key_of(room, "Ben")
    gus = bots.register(ann, "Gus")
    teachers = bots.register(room.teacher_key, "Marker")
    shared = bots.seat(room.teacher_key, [{"bot": gus["id"]}, {"bot": teachers["id"]}]).json()
    anns = parsed(feed_of(ann).read_all())
    teacher = parsed(feed_of(room.teacher_key).read_all())
    assert {d["bot"] for _, d in anns} == {gus["id"]}
    assert {d["bot"] for _, d in teacher} == {teachers["id"]}  # its own bots' only
    assert feed_of(ben).read_all() == []
    # Each token is the seat's own.
    seat_token = {d["seat"]: d["token"] for e, d in anns + teacher if e == "seated"}
    assert set(seat_token) == {0, 1}
    from games.models import Player

    hashes = dict(Player.objects.filter(game_id=shared["id"]).values_list("seat", "token_hash"))
    assert {seat: hash_token(token) for seat, token in seat_token.items()} == hashes


def test_a_tournaments_status_goes_to_the_streams_open_then(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    feed = feed_of(ann)
    owners.tournament_changed(tournament_id=uuid.UUID(int=1), status="old news", bot_ids=[])
    assert feed.read_all() == []
    tid = uuid.uuid4()
    owners.tournament_changed(tournament_id=tid, status="running", bot_ids=[uuid.UUID(gus["id"])])
    assert parsed(feed.read_all()) == [("tournament", {"tournament": str(tid),
                                                       "status": "running"})]
    assert feed.read_all() == []
    assert feed_of(bots.key_of(room, "Ben")).read_all() == []


def test_the_streams_reads_take_a_few_queries_however_many_games(
    bots: BotApi, room: Class, django_assert_max_num_queries: Any
) -> None:
    ann = bots.key_of(room, "Ann")
    gus, max_ = bots.register(ann, "Gus"), bots.register(ann, "Max")
    games = [bots.seat(ann, [{"bot": gus["id"]}, {"bot": max_["id"]}]).json() for _ in range(6)]
    feed = feed_of(ann)
    with django_assert_max_num_queries(3):  # the notices' start, the seats, the notices
        assert len(feed.read_all()) == 6 * 3
    with django_assert_max_num_queries(3):
        assert feed.key_valid()
        feed.read_all()
    bots.play_turn(games[0])
    with django_assert_max_num_queries(1):
        assert len(feed.read_games([uuid.UUID(g["id"]) for g in games])) == 1
    bots.client.post(f"/api/v1/games/{games[1]['id']}/leave/", {}, format="json",
                     HTTP_AUTHORIZATION=f"Bearer {games[1]['players'][0]['token']}")
    bots.client.post(f"/api/v1/games/{games[1]['id']}/leave/", {}, format="json",
                     HTTP_AUTHORIZATION=f"Bearer {games[1]['players'][1]['token']}")
    with django_assert_max_num_queries(2):  # the seats, then the ended game's totals
        assert [e for e, _ in parsed(feed.read_games([uuid.UUID(games[1]["id"])]))] == [
            "finished"]


async def _take(body: Any, count: int, timeout: float = 5.0) -> list[bytes]:
    return [await asyncio.wait_for(anext(body), timeout) for _ in range(count)]


@pytest.mark.django_db(transaction=True)
def test_the_body_sends_the_hint_the_games_then_comments_and_ends_on_revocation(
    bots: BotApi, room: Class
) -> None:
    ann = bots.key_of(room, "Ann")
    gus = bots.register(ann, "Gus")
    game = bots.seat(ann, [{"bot": gus["id"]}]).json()

    async def run() -> list[bytes]:
        feed = await asyncio.to_thread(feed_of, ann)
        body = key_stream(feed, slot=0, stream_id=uuid.uuid4(), heartbeat=0.2)
        start = await _take(body, 3)
        assert parsed(start[1:]) == [("seated", parsed(start[1:])[0][1]),
                                     ("turn", parsed(start[1:])[1][1])]
        more = await _take(body, 1)
        await asyncio.to_thread(
            bots.client.post, f"/api/v1/classrooms/{room.id}/students/"
            f"{room.students['Ann']['student']['id']}/revoke/", {}, format="json",
            HTTP_X_API_KEY=room.teacher_key,
        )
        rest = [chunk async for chunk in body]
        return start + more + rest

    chunks = asyncio.run(run())
    assert chunks[0] == RETRY and parsed(chunks[1:2])[0][1]["game"] == game["id"]
    assert KEEP_ALIVE in chunks[3:]  # a comment while nothing happens; then the end


def test_a_fourth_stream_of_one_key_is_refused(bots: BotApi, room: Class) -> None:
    ann = bots.key_of(room, "Ann")

    def opened() -> Any:
        request = RequestFactory().get("/api/v1/me/stream/")
        request.caller = caller_for_key(ann)  # type: ignore[attr-defined]  # as the middleware sets it
        return me_stream(request)

    streams = [opened() for _ in range(3)]
    assert all(s.status_code == 200 for s in streams)
    refused = opened()
    assert refused.status_code == 429 and refused["Retry-After"]
    assert json.loads(refused.content)["code"] == "too_many_streams"
    assert opened().status_code == 429
    # Another key of the classroom has streams of its own.
    other = RequestFactory().get("/api/v1/me/stream/")
    other.caller = caller_for_key(bots.key_of(room, "Ben"))  # type: ignore[attr-defined]
    assert me_stream(other).status_code == 200
    assert_problem(bots.call("get", "/api/v1/me/stream/", None), 401, "not_authenticated")
