"""The live event stream through the real ASGI server, read the way EventSource reads it.

Each test opens ``/api/v1/games/{id}/stream/`` on a connection of its own and reads it line
by line with a timeout, while moves go over other connections. On SQLite the stream polls;
on PostgreSQL it wakes on its worker's ``LISTEN``, which the tests marked ``postgres_only``
pin: prompt wake-ups, and no connection of its own (see also test_stream_scale.py).
"""

import json
import time
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest

from tests.conftest import postgres_only

from .conftest import LiveService

pytestmark = pytest.mark.live

WITHIN = 2.0  # seconds: every event reaches the stream this soon after its move is sent
PROMPT = 0.5  # seconds, on PostgreSQL: a wake-up by notification, well under any poll
PROBLEM = "application/problem+json"
LISTENER = "dice-game-stream"  # the application_name of the stream's listening connections


@dataclass
class Message:
    """One SSE message: the fields of the lines up to a blank line."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    def body(self) -> dict[str, Any]:
        assert self.data is not None, self
        return json.loads(self.data)


class EventStream:
    """An SSE client on a connection of its own."""

    def __init__(
        self,
        service: LiveService,
        game_id: str,
        *,
        query: str = "",
        last_event_id: str | None = None,
    ) -> None:
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection = service.connection(timeout=WITHIN * 5)
        self.connection.request("GET", f"/api/v1/games/{game_id}/stream/{query}", headers=headers)
        self.response = self.connection.getresponse()

    def __enter__(self) -> "EventStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.response.close()
        self.connection.close()

    def next(self, timeout: float = WITHIN) -> Message | None:
        """The next message, or None once the server has closed the stream."""
        assert self.connection.sock is not None
        self.connection.sock.settimeout(timeout)
        message, seen = Message(), False
        while True:
            raw = self.response.readline()
            if not raw:
                return message if seen else None
            line = raw.decode().rstrip("\r\n")
            if not line:
                if seen:
                    return message
                continue
            seen = True
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "":
                message.comments.append(value)
            elif name == "retry":
                message.retry = int(value)
            elif name in ("id", "event", "data"):
                setattr(message, name, value)

    def next_event(self, timeout: float = WITHIN) -> Message:
        """The next message that carries an event, skipping comments and hints."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next(max(deadline - time.monotonic(), 0.001))
            assert message is not None, "the stream ended"
            if message.event is not None:
                return message

    def rest(self, timeout: float = WITHIN) -> list[Message]:
        """Every event message until the server closes the stream."""
        messages = []
        while (message := self.next(timeout)) is not None:
            if message.event is not None:
                messages.append(message)
        return messages


def new_game(service: LiveService) -> tuple[dict[str, Any], str]:
    status, game = service.call(
        "POST", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    )
    assert status == 201, game
    return game, game["players"][0]["token"]


def move(
    service: LiveService, game: dict[str, Any], token: str, action: str, body: Any = None
) -> dict[str, Any]:
    status, answer = service.call(
        "POST", f"/api/v1/games/{game['id']}/{action}/", body or {}, token=token
    )
    assert status == 200, answer
    return answer


def logged(service: LiveService, game: dict[str, Any], after: int = 0) -> list[dict[str, Any]]:
    status, events = service.call("GET", f"/api/v1/games/{game['id']}/events/?after={after}")
    assert status == 200, events
    return events


def play_turn(service: LiveService, game: dict[str, Any], token: str) -> dict[str, Any]:
    rolled = move(service, game, token, "roll")
    return move(service, game, token, "score", {"category": next(iter(rolled["choices"]))})


def play_to_the_end(service: LiveService, game: dict[str, Any], token: str) -> None:
    while play_turn(service, game, token)["status"] != "finished":
        pass


def as_logged(messages: list[Message]) -> list[dict[str, Any]]:
    """The events the messages carry, each checked against its id and type."""
    for message in messages:
        body = message.body()
        assert (message.id, message.event) == (str(body["seq"]), body["type"]), message
    return [message.body() for message in messages]


def listeners(service: LiveService) -> list[str]:
    """The last statement of each listening connection open on the service's database."""
    with psycopg.connect(service.database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT query FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            [LISTENER],
        ).fetchall()
    return [query for (query,) in rows]


def eventually(condition: Any, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_the_stream_answers_as_an_event_source_expects(live_service: LiveService) -> None:
    game, _ = new_game(live_service)
    with EventStream(live_service, game["id"]) as stream:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type") == "text/event-stream"
        assert stream.response.getheader("Cache-Control") == "no-cache"
        assert stream.response.getheader("X-Accel-Buffering") == "no"
        hint = stream.next()
        assert hint is not None and hint.retry == 2000
        created = stream.next_event()
        assert (created.id, created.event) == ("1", "created")
        assert created.body() == logged(live_service, game)[0]


def test_each_move_reaches_every_open_stream_in_order_as_soon_as_it_commits(
    live_service: LiveService,
) -> None:
    game, token = new_game(live_service)
    moves = [
        ("roll", {}),
        ("hold", {"hold": [0, 1]}),
        ("roll", {"hold": [0, 1, 2]}),
        ("roll", {}),
    ]
    with EventStream(live_service, game["id"]) as first, EventStream(
        live_service, game["id"]
    ) as second:
        received = {first: [first.next_event()], second: [second.next_event()]}
        slowest = 0.0
        for action, body in moves:
            sent = time.monotonic()
            move(live_service, game, token, action, body)
            for stream, messages in received.items():
                messages.append(stream.next_event())
                slowest = max(slowest, time.monotonic() - sent)
        answer = move(live_service, game, token, "score", {"category": "chance"})
        for stream, messages in received.items():
            messages.append(stream.next_event())
    print(f"slowest event after its move was sent: {slowest * 1000:.0f} ms")
    assert slowest < WITHIN
    log = logged(live_service, game)
    assert [e["type"] for e in log] == ["created", "rolled", "held", "rolled", "rolled", "scored"]
    assert log[-1]["seq"] == answer["version"]  # the log and the game tell the same story
    for messages in received.values():
        assert as_logged(messages) == log


def test_a_finished_game_streams_its_whole_log_then_ends(live_service: LiveService) -> None:
    game, token = new_game(live_service)
    with EventStream(live_service, game["id"]) as live:
        play_to_the_end(live_service, game, token)
        followed = live.rest()
    log = logged(live_service, game)
    assert log[-1]["type"] == "finished"
    assert as_logged(followed) == log  # everything, then the server closed the stream

    with EventStream(live_service, game["id"]) as later:
        assert later.response.status == 200
        assert as_logged(later.rest()) == log


def test_resuming_with_last_event_id_skips_what_was_seen(live_service: LiveService) -> None:
    game, token = new_game(live_service)
    move(live_service, game, token, "roll")
    move(live_service, game, token, "hold", {"hold": [0]})
    move(live_service, game, token, "roll")
    log = logged(live_service, game)

    with EventStream(live_service, game["id"], last_event_id="2") as resumed:
        assert [m.body() for m in (resumed.next_event(), resumed.next_event())] == log[2:4]
    with EventStream(live_service, game["id"], query="?after=3") as resumed:
        assert resumed.next_event().body() == log[3]
    # A reconnecting browser resends the URL it was opened with: the header is newer.
    with EventStream(live_service, game["id"], query="?after=0", last_event_id="3") as resumed:
        assert resumed.next_event().body() == log[3]
        move(live_service, game, token, "score", {"category": "chance"})
        assert resumed.next_event().body() == logged(live_service, game, after=4)[0]


def test_a_client_that_has_everything_of_a_finished_game_is_told_to_stop(
    live_service: LiveService,
) -> None:
    game, token = new_game(live_service)
    play_to_the_end(live_service, game, token)
    last = logged(live_service, game)[-1]["seq"]
    with EventStream(live_service, game["id"], last_event_id=str(last)) as done:
        assert done.response.status == 204  # EventSource does not reconnect after a 204
        assert done.response.read() == b""
    with EventStream(live_service, game["id"], last_event_id=str(last - 1)) as nearly:
        assert [m.event for m in nearly.rest()] == ["finished"]


def test_an_unknown_game_is_not_found(live_service: LiveService) -> None:
    with EventStream(live_service, "9b2f0c4e-1d2a-4b6e-8f00-123456789abc") as stream:
        assert stream.response.status == 404
        assert stream.response.getheader("Content-Type") == PROBLEM
        assert json.loads(stream.response.read())["code"] == "not_found"


@pytest.mark.parametrize(
    ("query", "last_event_id", "field_name"),
    [
        ("", "abc", "Last-Event-ID"),
        ("", "-1", "Last-Event-ID"),
        ("?after=x", None, "after"),
        ("?after=2147483648", None, "after"),
        ("?after=-1", "3", "after"),
    ],
)
def test_a_position_that_is_not_an_event_seq_is_refused(
    live_service: LiveService, query: str, last_event_id: str | None, field_name: str
) -> None:
    game, _ = new_game(live_service)
    with EventStream(live_service, game["id"], query=query, last_event_id=last_event_id) as s:
        assert s.response.status == 400
        assert s.response.getheader("Content-Type") == PROBLEM
        problem = json.loads(s.response.read())
    assert problem["code"] == "invalid"
    assert [e["field"] for e in problem["errors"]] == [field_name]


def test_the_stream_takes_only_get(live_service: LiveService) -> None:
    game, _ = new_game(live_service)
    status, problem = live_service.call("POST", f"/api/v1/games/{game['id']}/stream/", {})
    assert (status, problem["code"]) == (405, "method_not_allowed")


@postgres_only
def test_on_postgres_a_notification_wakes_the_stream_at_once(live_service: LiveService) -> None:
    game, token = new_game(live_service)
    with EventStream(live_service, game["id"]) as stream:
        stream.next_event()
        assert eventually(lambda: any("LISTEN" in q for q in listeners(live_service)))
        delays = []
        for action, body in [("roll", {}), ("hold", {"hold": [1]}), ("roll", {})]:
            time.sleep(1.0)  # the stream is waiting; a poll would take up to 5 s
            sent = time.monotonic()
            move(live_service, game, token, action, body)
            assert stream.next_event(timeout=PROMPT * 4).event in ("rolled", "held")
            delays.append(time.monotonic() - sent)
    print("each event after its move was sent: " + ", ".join(f"{d * 1000:.0f} ms" for d in delays))
    assert max(delays) < PROMPT, delays


@postgres_only
def test_on_postgres_a_stream_holds_no_connection_of_its_own(live_service: LiveService) -> None:
    game, _ = new_game(live_service)
    with EventStream(live_service, game["id"]) as stream:
        stream.next_event()
        assert eventually(lambda: len(listeners(live_service)) >= 1)
        listening = len(listeners(live_service))
        with EventStream(live_service, game["id"]) as second:
            second.next_event()
            assert len(listeners(live_service)) == listening  # the worker's one listener
    assert len(listeners(live_service)) == listening  # it stays for the next streams


def test_the_server_stays_healthy_after_clients_drop_their_streams(
    live_service: LiveService,
) -> None:
    log_size = live_service.log.stat().st_size
    game, token = new_game(live_service)
    for _ in range(5):
        stream = EventStream(live_service, game["id"])
        stream.next_event()
        stream.close()
    move(live_service, game, token, "roll")
    with EventStream(live_service, game["id"], last_event_id="1") as stream:
        assert stream.next_event().event == "rolled"
    conn = live_service.connection()
    try:
        conn.request("GET", "/api/v1/health/")
        assert conn.getresponse().status == 200
    finally:
        conn.close()
    with live_service.log.open("rb") as log:
        log.seek(log_size)
        assert b"Traceback" not in log.read()
