"""Bots through the real server: the key's stream (its promptness, its limit, revocation,
its replay on reconnection, whose tokens it carries) and the starter kit of docs/bots.md,
run as it is written against the live service.

On SQLite the key's stream reads every half second; on PostgreSQL it wakes on its worker's
``LISTEN``. Either way a turn reaches it within a second of the move that passed it.
"""

import os
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import LiveService
from .test_stream import EventStream, Message

pytestmark = pytest.mark.live

ROOT = Path(__file__).resolve().parents[2]
TURN_WITHIN = 1.0  # seconds from the move that passed the turn to the stream's `turn`
REVOKED_WITHIN = 5.0  # seconds from a key's revocation to its stream's end


class KeyStream(EventStream):
    """``GET /api/v1/me/stream/`` with a key, read as EventStream reads a game's."""

    def __init__(self, service: LiveService, key: str) -> None:
        self.connection = service.connection(timeout=30)
        self.connection.request("GET", "/api/v1/me/stream/", headers={
            "Accept": "text/event-stream", "X-API-Key": key,
        })
        self.response = self.connection.getresponse()

    def until(self, event: str, timeout: float = 5.0) -> Message:
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_event(max(deadline - time.monotonic(), 0.001))
            if message.event == event:
                return message


def classroom(service: LiveService, *students: str) -> dict[str, Any]:
    status, room = service.call("POST", "/api/v1/classrooms/", {"name": "Bots"})
    assert status == 201, room
    keys = {}
    for name in students:
        status, joined = service.call("POST", "/api/v1/classrooms/join/",
                                      {"join_code": room["join_code"], "name": name})
        assert status == 201, joined
        keys[name] = joined["api_key"]
        room.setdefault("ids", {})[name] = joined["student"]["id"]
    room["keys"] = keys
    return room


def bot(service: LiveService, key: str, name: str) -> str:
    status, made = service.call("POST", "/api/v1/bots/", {
        "name": name, "rulesets": ["yahtzee", "yatzy", "ten-thousand"],
    }, key=key)
    assert status == 201, made
    return made["id"]


def game(service: LiveService, key: str, players: list[dict[str, Any]],
         ruleset: str = "yahtzee") -> dict[str, Any]:
    status, made = service.call("POST", "/api/v1/games/",
                                {"ruleset": ruleset, "players": players}, key=key)
    assert status == 201, made
    return made


def test_a_turn_reaches_the_bots_key_within_a_second_and_a_reconnection_replays(
    live_service: LiveService,
) -> None:
    room = classroom(live_service, "Ann")
    ann = room["keys"]["Ann"]
    gus = bot(live_service, ann, "Gus")
    with KeyStream(live_service, ann) as stream:
        assert stream.response.status == 200
        created = game(live_service, ann, [{"name": "Ann"}, {"bot": gus}])
        seated = stream.until("seated").body()
        assert seated["game"] == created["id"] and seated["seat"] == 1
        assert seated["token"] == created["players"][1]["token"]
        anns = created["players"][0]["token"]
        live_service.call("POST", f"/api/v1/games/{created['id']}/roll/", {}, token=anns)
        passed_at = time.monotonic()
        status, after = live_service.call("POST", f"/api/v1/games/{created['id']}/score/",
                                          {"category": "chance"}, token=anns)
        assert status == 200, after
        turn = stream.until("turn", timeout=TURN_WITHIN + 1).body()
        assert time.monotonic() - passed_at < TURN_WITHIN
        assert turn == {"game": created["id"], "seat": 1, "bot": gus,
                        "version": after["version"], "deadline": None}
    with KeyStream(live_service, ann) as again:  # a bot that restarts picks up where it was
        assert [again.next_event().event, again.next_event().event] == ["seated", "turn"]


def test_a_key_holds_three_streams_and_a_revoked_keys_stream_ends_within_5_s(
    live_service: LiveService,
) -> None:
    room = classroom(live_service, "Ben")
    ben = room["keys"]["Ben"]
    streams = [KeyStream(live_service, ben) for _ in range(3)]
    try:
        assert [s.response.status for s in streams] == [200, 200, 200]
        status, refused = live_service.call("GET", "/api/v1/me/stream/", key=ben)
        assert (status, refused["code"]) == (429, "too_many_streams")
        for stream in streams:
            assert stream.next() is not None  # the retry hint: open
        streams.pop().close()  # a stream closed frees its slot at once
        deadline = time.monotonic() + 5
        while True:
            streams.append(KeyStream(live_service, ben))
            if streams[-1].response.status == 200:
                break
            streams.pop().close()
            assert time.monotonic() < deadline, "a closed stream's slot was not freed"
            time.sleep(0.2)
        status, _ = live_service.call(
            "POST", f"/api/v1/classrooms/{room['id']}/students/{room['ids']['Ben']}/revoke/",
            {}, key=room["teacher_key"])
        assert status == 200
        revoked_at = time.monotonic()
        for stream in streams:
            assert stream.rest(timeout=REVOKED_WITHIN + 1) == []
        assert time.monotonic() - revoked_at < REVOKED_WITHIN
    finally:
        for stream in streams:
            stream.close()


def test_a_bots_token_goes_to_its_owners_stream_only(live_service: LiveService) -> None:
    room = classroom(live_service, "Cleo", "Dan")
    cleo, dan, teacher = room["keys"]["Cleo"], room["keys"]["Dan"], room["teacher_key"]
    gus = bot(live_service, cleo, "Gus Cleo")
    with KeyStream(live_service, cleo) as cleos, KeyStream(live_service, dan) as dans, \
            KeyStream(live_service, teacher) as teachers:
        created = game(live_service, teacher, [{"name": "T"}, {"bot": gus}])
        assert "token" not in created["players"][1]
        seated = cleos.until("seated").body()
        assert seated["game"] == created["id"] and seated["token"]
        for other in (dans, teachers):
            message = other.next(timeout=1.5)
            assert message is None or message.event is None  # a hint or a comment only


# -- the starter kit ------------------------------------------------------------------------


def starter_kit(folder: Path) -> Path:
    """The bot of docs/bots.md, exactly as written there."""
    text = (ROOT / "docs" / "bots.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None, "docs/bots.md has no Python block"
    assert len(code.group(1).splitlines()) < 150
    path = folder / "starter_bot.py"
    path.write_text(code.group(1))
    return path


def test_the_starter_kit_plays_its_games_to_the_end(
    live_service: LiveService, tmp_path: Path
) -> None:
    room = classroom(live_service, "Eve")
    eve = room["keys"]["Eve"]
    env = {**os.environ, "DICE_API_URL": live_service.url, "DICE_API_KEY": eve,
           "DICE_BOT_NAME": "Starter"}
    process = subprocess.Popen(
        [sys.executable, str(starter_kit(tmp_path))], env=env, cwd=tmp_path,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or []],
                     daemon=True).start()
    try:
        first = lines.get(timeout=30)
        assert "is listening" in first, first
        _, mine = live_service.call("GET", "/api/v1/bots/", key=eve)
        starter = next(b["id"] for b in mine if b["name"] == "Starter")
        games = [
            game(live_service, eve, [{"bot": starter}], "yahtzee"),
            game(live_service, eve, [{"bot": starter}, {"name": "G", "computer": "greedy"}],
                 "yatzy"),
            game(live_service, eve, [{"bot": starter}], "ten-thousand"),
        ]
        deadline = time.monotonic() + 120
        for made in games:
            while True:
                _, now = live_service.call("GET", f"/api/v1/games/{made['id']}/")
                if now["status"] != "active":
                    break
                assert time.monotonic() < deadline, f"{made['ruleset']} not finished: {now}"
                assert process.poll() is None, "the bot stopped"
                time.sleep(0.5)
            assert now["status"] == "finished", now
            assert now["players"][0]["total"] > 0
        said = []
        while not lines.empty():
            said.append(lines.get())
        assert not any("refused" in line for line in said), said
    finally:
        process.terminate()
        process.wait(timeout=10)
