"""Work outside requests under the benchmark's load: how late turn clocks fire and how soon
webhooks arrive while the closed-loop clients play (``tests/bench/run.py``, its last phase).

For the length of a phase it keeps ``CLOCKS`` two-seat games with a 10-second clock that
nobody moves (each times out every 10 seconds, one seat after the other), and a student's
game whose every turn started is sent to a receiver on this machine: one scored box a
second. Hostile receivers are registered beside it, as many as the keys hold: 19 more on
the same student's key (so every event of that game goes to them too) and 20 on each of two
more students' keys, whose clocked games send them an event at every timeout; a third of
them never answer, a third trickle their answer a byte a second, a third answer after 8 s.
Afterwards: each ``timed_out`` event's delay after its deadline, and each healthy webhook's
delay after the move that caused it was sent.
"""

import datetime as dt
import json
import socket
import statistics
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.webhook_receiver import Bare

CLOCKS = 10
TURN_SECONDS = 10
HOSTILE_KEYS = 2


def call(url: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(
        url + path, data=data, method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        raw = answer.read()
    return json.loads(raw) if raw else None


class Receiver:
    """Keeps the time each webhook arrived, by the game version it reports."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                receiver.arrived.setdefault(body["data"]["version"], time.monotonic())
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Hostile(Bare):
    """Receivers that hold their callers: each request is kept unanswered, answered a byte a
    second, or answered after 8 seconds, in turn."""

    def answer(self, conn: socket.socket, number: int) -> None:
        if number % 3 == 0:
            time.sleep(60)  # never answers (within any attempt's time)
        elif number % 3 == 1:
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n")
            for _ in range(30):
                time.sleep(1)
                conn.sendall(b"x")
        else:
            time.sleep(8)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")


def _hostile_webhooks(url: str, room: dict, hostile: Hostile, own_key: str) -> int:
    """Registers hostile receivers up to each key's cap; answers how many."""
    registered = 0
    hook = {"url": hostile.url, "events": ["turn.started"]}
    for _ in range(19):
        call(url, "POST", "/api/v1/webhooks/", hook, **{"X-API-Key": own_key})
        registered += 1
    for index in range(HOSTILE_KEYS):
        key = call(url, "POST", "/api/v1/classrooms/join/",
                   {"join_code": room["join_code"], "name": f"Hostile {index}"})["api_key"]
        for _ in range(20):
            call(url, "POST", "/api/v1/webhooks/", hook, **{"X-API-Key": key})
            registered += 1
        call(url, "POST", "/api/v1/games/", {
            "ruleset": "yatzy", "players": [{"name": "H1"}, {"name": "H2"}],
            "clock": {"turn_seconds": TURN_SECONDS},
        }, **{"X-API-Key": key})
    return registered


def measure(url: str, seconds: float) -> dict[str, Any]:
    """Runs for ``seconds`` beside the load; answers the delays, in milliseconds."""
    receiver = Receiver()
    hostile = Hostile()
    clocked = [
        call(url, "POST", "/api/v1/games/", {
            "ruleset": "yatzy", "players": [{"name": "A"}, {"name": "B"}],
            "clock": {"turn_seconds": TURN_SECONDS},
        })["id"]
        for _ in range(CLOCKS)
    ]
    room = call(url, "POST", "/api/v1/classrooms/", {"name": "bench"})
    key = call(url, "POST", "/api/v1/classrooms/join/",
               {"join_code": room["join_code"], "name": "Ann"})["api_key"]
    call(url, "POST", "/api/v1/webhooks/", {"url": receiver.url, "events": ["turn.started"]},
         **{"X-API-Key": key})
    hostile_hooks = _hostile_webhooks(url, room, hostile, key)
    game = call(url, "POST", "/api/v1/games/", {"ruleset": "yatzy", "players": [{"name": "Ann"}]},
                **{"X-API-Key": key})
    token = {"Authorization": f"Bearer {game['players'][0]['token']}"}
    sent: dict[int, float] = {}
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        path = f"/api/v1/games/{game['id']}"
        shown = call(url, "POST", f"{path}/roll/", {}, **token)
        started = time.monotonic()
        shown = call(url, "POST", f"{path}/score/", {"category": next(iter(shown["choices"]))},
                     **token)
        if shown["status"] != "active":
            break
        sent[shown["version"]] = started
        time.sleep(1)
    time.sleep(3)  # the last webhooks and clocks
    receiver.server.shutdown()
    hostile.close()
    clock_delays = []
    for game_id in clocked:
        for event in call(url, "GET", f"/api/v1/games/{game_id}/events/"):
            if event["type"] == "timed_out":
                fired = dt.datetime.fromisoformat(event["created_at"])
                due = dt.datetime.fromisoformat(event["data"]["deadline"])
                clock_delays.append((fired - due).total_seconds() * 1000)
    hook_delays = [
        (receiver.arrived[version] - moved) * 1000
        for version, moved in sent.items() if version in receiver.arrived
    ]
    return {
        "clock delays ms": _spread(clock_delays),
        "webhook delays ms": _spread(hook_delays),
        "webhooks missing": len(sent) - len(hook_delays),
        "hostile receivers": hostile_hooks,
        "hostile requests held": hostile.count,
    }


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    return {"count": len(values), "median": round(statistics.median(values)),
            "worst": round(max(values))}
