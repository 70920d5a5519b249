"""Bots through the real server: the key's stream (its promptness, its limit, revocation,
its replay on reconnection, whose tokens it carries) and the starter kit of docs/bots.md,
run as it is written against the live service.

On SQLite the key's stream reads every half second; on PostgreSQL it wakes on its worker's
``LISTEN``. Either way a turn reaches it within a second of the move that passed it.
"""

import json
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


class StarterBot:
    """The starter kit running as its own process on a key, its output kept line by line."""

    def __init__(self, service: LiveService, key: str, folder: Path) -> None:
        env = {**os.environ, "DICE_API_URL": service.url, "DICE_API_KEY": key,
               "DICE_BOT_NAME": "Starter"}
        self.process = subprocess.Popen(
            [sys.executable, str(starter_kit(folder))], env=env, cwd=folder,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(line) for line in self.process.stdout
                                         or []], daemon=True).start()
        first = self.lines.get(timeout=30)
        assert "is listening" in first, first
        _, mine = service.call("GET", "/api/v1/bots/", key=key)
        self.bot = next(b for b in mine if b["name"] == "Starter")

    def said(self) -> list[str]:
        said = []
        while not self.lines.empty():
            said.append(self.lines.get())
        return said

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def test_the_starter_kit_plays_its_games_to_the_end(
    live_service: LiveService, tmp_path: Path
) -> None:
    room = classroom(live_service, "Eve")
    eve = room["keys"]["Eve"]
    kit = StarterBot(live_service, eve, tmp_path)
    try:
        starter = kit.bot["id"]
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
                assert kit.process.poll() is None, "the bot stopped"
                time.sleep(0.5)
            assert now["status"] == "finished", now
            assert now["players"][0]["total"] > 0
        said = kit.said()
        assert not any("refused" in line for line in said), said
    finally:
        kit.stop()


def scrimmage_request(bot: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The scrimmage docs/bots.md tells a reader to set with curl: its path and its body,
    the placeholders filled in with the bot's id and its classroom's (``owner.classroom``,
    where the doc says to find it)."""
    text = (ROOT / "docs" / "bots.md").read_text()
    section = text.split("## Enter it in a scrimmage", 1)[1]
    command = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert command is not None, "the scrimmage section has no command"
    line = command.group(1).replace("\\\n", " ")
    path = re.search(r'-X POST "\$DICE_API_URL([^"]+)"', line)
    body = re.search(r"-d '(.*?)'", line, re.DOTALL)
    assert path is not None and body is not None, line
    fill = {"<classroom id>": bot["owner"]["classroom"], "<id>": bot["id"]}
    filled_path, filled_body = path.group(1), body.group(1)
    for placeholder, value in fill.items():
        filled_path = filled_path.replace(placeholder, value)
        filled_body = filled_body.replace(placeholder, value)
    return filled_path, json.loads(filled_body)


def test_the_starter_kit_enters_the_docs_scrimmage_and_its_play_is_analysed(
    live_service: LiveService, tmp_path: Path
) -> None:
    """As docs/bots.md, "Enter it in a scrimmage against optimal": the doc's own request,
    the tournament followed to its end, then the analysis of one of the bot's games."""
    room = classroom(live_service, "Fay")
    fay = room["keys"]["Fay"]
    kit = StarterBot(live_service, fay, tmp_path)
    try:
        path, body = scrimmage_request(kit.bot)
        assert {"computer": "optimal"} in body["entrants"]
        status, made = live_service.call("POST", path, body, key=fay)
        assert status == 201, made
        tournament = f"{path}{made['id']}/"
        deadline = time.monotonic() + 240
        while made["status"] != "finished":
            assert time.monotonic() < deadline, made["progress"]
            assert kit.process.poll() is None, "the bot stopped"
            time.sleep(1)
            _, made = live_service.call("GET", tournament, key=fay)
        number = next(e["entrant"] for e in made["entrants"] if e["bot"] == kit.bot["id"])
        mine = next(row for row in made["standings"] if row["entrant"] == number)
        assert mine["timeouts"] == 0  # the bot played every turn itself
        assert mine["mean_accuracy"] is not None and mine["points"] >= 0
        _, games = live_service.call("GET", f"{tournament}games/", key=fay)
        listed = games if isinstance(games, list) else games["results"]
        played = next(g for g in listed
                      if any(p.get("bot") == kit.bot["id"] for p in g["players"]))
        status, analysis = live_service.call(
            "GET", f"/api/v1/games/{played['id']}/analysis/?seats=all", key=fay)
        assert status == 200, analysis
        seat = next(p["seat"] for p in played["players"] if p.get("bot") == kit.bot["id"])
        ours = next(s for s in analysis["seats"] if s["seat"] == seat)
        assert 0 <= ours["accuracy"] <= 100 and ours["expected_loss"] >= 0
        labels = {d["label"] for d in analysis["decisions"] if d["seat"] == seat}
        assert labels and labels <= {"best", "inaccuracy", "mistake", "blunder"}
        assert not any("refused" in line for line in kit.said())
    finally:
        kit.stop()
