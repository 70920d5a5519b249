"""The real service's edges of HTTP, spoken to over raw sockets as a client that does not
behave would: bodies read as HTTP frames them (chunked too) and within their bound, and
requests' heads bounded in fields, bytes and time. In both shapes the service is served:
gunicorn with the service's worker class (production: docker-compose.yml) and uvicorn as
``make run`` starts it; on PostgreSQL when DATABASE_URL names it, else SQLite."""

import json
import socket
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from .service import (
    LiveService,
    gunicorn_command,
    manage,
    service_env,
    serving,
    throwaway_database,
    uvicorn_command,
)

pytestmark = pytest.mark.live

SHAPES: dict[str, Callable[[int], list[str]]] = {
    "gunicorn": gunicorn_command,
    "uvicorn": uvicorn_command,
}
HEAD_SECONDS = 3  # the served SERVER_HEAD_TIMEOUT: short, so that the tests are
BODY_LIMIT = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, which the service keeps


@pytest.fixture(scope="module", params=list(SHAPES))
def served(request: pytest.FixtureRequest, tmp_path_factory) -> Iterator[LiveService]:
    folder = tmp_path_factory.mktemp(f"edges-{request.param}")
    with throwaway_database(folder) as database_url:
        env = service_env(
            folder, database_url, THROTTLE_CREATE="", THROTTLE_MOVES="", THROTTLE_FAILURES="",
            SERVER_HEAD_TIMEOUT=str(HEAD_SECONDS),
        )
        manage(env, "migrate", "--noinput")
        with serving(folder, env, command=SHAPES[request.param], name=request.param) as service:
            yield service


class Raw:
    """One connection to the service, written and read byte for byte."""

    def __init__(self, service: LiveService, timeout: float = 10) -> None:
        parts = urlsplit(service.url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        self.buffer = b""

    def __enter__(self) -> "Raw":
        return self

    def __exit__(self, *_: object) -> None:
        self.sock.close()

    def send(self, data: bytes) -> bool:
        """Sends ``data``; False if the server had closed the connection meanwhile."""
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True

    def answer(self) -> tuple[int, dict[str, str], bytes]:
        """The next answer: its status, its headers (lower-cased names) and its body."""
        head = self._until(b"\r\n\r\n").decode("latin1").split("\r\n")
        status = int(head[0].split()[1])
        headers = {
            name.strip().lower(): value.strip()
            for name, value in (line.split(":", 1) for line in head[1:])
        }
        if headers.get("transfer-encoding") == "chunked":
            body = b""
            while size := int(self._until(b"\r\n"), 16):
                body += self._take(size + 2)[:-2]
            self._until(b"\r\n")
        else:
            body = self._take(int(headers.get("content-length", "0")))
        return status, headers, body

    def closed(self) -> bool:
        """Whether the server closes the connection (within the socket's timeout)."""
        try:
            while self.sock.recv(65536):
                pass
        except ConnectionResetError:
            pass
        except TimeoutError:
            return False
        return True

    def _until(self, end: bytes) -> bytes:
        while end not in self.buffer:
            self._more()
        found, self.buffer = self.buffer.split(end, 1)
        return found

    def _take(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._more()
        found, self.buffer = self.buffer[:size], self.buffer[size:]
        return found

    def _more(self) -> None:
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection before its answer")
        self.buffer += data


def head(method: str, path: str, *fields: tuple[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{n}: {v}" for n, v in fields)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin1")


def chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


LAST_CHUNK = b"0\r\n\r\n"
JSON = ("Content-Type", "application/json")
CHUNKED = ("Transfer-Encoding", "chunked")


def new_game(service: LiveService) -> tuple[str, str]:
    status, game = service.call(
        "POST", "/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "Ann"}]}
    )
    assert status == 201, game
    return game["id"], game["players"][0]["token"]


def test_a_chunked_roll_holding_every_die_keeps_them(served: LiveService):
    game, token = new_game(served)
    status, rolled = served.call("POST", f"/api/v1/games/{game}/roll/", {}, token=token)
    assert status == 200
    with Raw(served) as raw:
        raw.send(
            head("POST", f"/api/v1/games/{game}/roll/", JSON, CHUNKED,
                 ("Authorization", f"Bearer {token}"))
            + chunk(b'{"hold": [0, 1, ') + chunk(b"2, 3, 4]}") + LAST_CHUNK
        )
        status, headers, body = raw.answer()
        assert status == 200, body
        assert json.loads(body)["turn"]["dice"] == rolled["turn"]["dice"]
        assert headers.get("connection") != "close"
        # The connection serves the next request as usual.
        raw.send(head("GET", f"/api/v1/games/{game}/events/"))
        status, _, events = raw.answer()
    rolls = [e["data"] for e in json.loads(events) if e["type"] == "rolled"]
    assert rolls[-1]["thrown"] == [] and len(rolls) == 2


def test_a_chunked_body_past_the_limit_is_refused_and_not_read_on(served: LiveService):
    part = b" " * 65536
    with Raw(served) as raw:
        raw.send(head("POST", "/api/v1/games/", JSON, CHUNKED))
        sent = 0
        # As a client sending 50 MB would, part after part, until the server stops it.
        while sent < 50_000_000 and raw.send(chunk(part)):
            sent += len(part)
            if sent > BODY_LIMIT + 4 * len(part):
                break  # the server has had more than its bound: its answer is on its way
        status, headers, body = raw.answer()
        assert (status, json.loads(body)["code"]) == (413, "request_too_large")
        assert headers["content-type"] == "application/problem+json"
        assert headers["connection"] == "close" and raw.closed()


def test_a_head_of_too_many_fields_is_refused(served: LiveService):
    fields = [(f"X-Field-{n}", "x") for n in range(101)]
    with Raw(served) as raw:
        raw.send(head("GET", "/api/v1/health/", *fields))
        status, headers, body = raw.answer()
        assert (status, json.loads(body)["code"]) == (431, "headers_too_large")
        assert headers["connection"] == "close" and raw.closed()


def test_a_head_of_too_many_bytes_is_refused(served: LiveService):
    with Raw(served) as raw:
        raw.send(head("GET", "/api/v1/health/", ("X-Big", "x" * 1_000_000)))
        status, headers, body = raw.answer()
        assert (status, json.loads(body)["code"]) == (431, "headers_too_large")
        assert headers["content-type"] == "application/problem+json" and raw.closed()


def test_a_head_sent_too_slowly_is_cut_off_and_delays_no_one(served: LiveService):
    slow = [Raw(served, timeout=HEAD_SECONDS * 4) for _ in range(12)]
    started = time.monotonic()
    try:
        for raw in slow:
            raw.send(b"GET /api/v1/health/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # Meanwhile a player's game goes on as ever, while every slow head is still open.
        game, token = new_game(served)
        assert served.call("POST", f"/api/v1/games/{game}/roll/", {}, token=token)[0] == 200
        # Two bytes a second keep none of them alive past the bound (sent until a second
        # past it: the server, having answered, reads on a little longer, then closes).
        while time.monotonic() - started < HEAD_SECONDS + 1:
            for raw in slow:
                raw.send(b"X")
            time.sleep(0.5)
        for raw in slow:
            status, headers, body = raw.answer()
            assert (status, json.loads(body)["code"]) == (408, "request_timeout")
            assert headers["connection"] == "close" and raw.closed()
    finally:
        for raw in slow:
            raw.sock.close()


def test_requests_within_the_bounds_are_served_as_ever(served: LiveService):
    fields = [(f"X-Field-{n}", "y" * 100) for n in range(90)]  # 90 fields, about 10 KiB
    game, token = new_game(served)
    body = json.dumps({"hold": []}).encode()
    with Raw(served) as raw:
        for _ in range(2):  # one connection, one request after the other
            raw.send(
                head("POST", f"/api/v1/games/{game}/roll/", JSON, *fields,
                     ("Authorization", f"Bearer {token}"), ("Content-Length", str(len(body))))
                + body
            )
            status, headers, answer = raw.answer()
            assert status == 200, answer
            assert headers.get("connection") != "close"


def test_a_request_naming_another_host_is_logged_in_one_line(served: LiveService):
    with Raw(served) as raw:
        raw.send(head("GET", "/api/v1/games/").replace(b"127.0.0.1", b"evil.example"))
        status, _, body = raw.answer()
    assert (status, json.loads(body)["code"]) == (400, "invalid")
    time.sleep(0.5)  # the log is written by another process
    log = served.log.read_text(errors="replace")
    assert len([line for line in log.splitlines() if "evil.example" in line]) == 1, log
    assert "Traceback" not in log, served.log_tail()
