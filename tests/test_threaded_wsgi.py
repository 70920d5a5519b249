"""The JSON API's path from the ASGI server to Django's WSGI handler
(games.serving.threaded_wsgi)."""

import asyncio
import json
import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from django.http import StreamingHttpResponse

from games.serving.outlet import Outlet
from games.serving.threaded_wsgi import AsyncBody, ThreadedWSGI


def call(app: Any, *, method: str = "GET", path: str = "/", headers: list | None = None,
         messages: list[dict] | None = None) -> list[dict]:
    """Runs one ASGI request through ``app``; the messages it sent. The messages it
    received are taken off ``messages``: what is left there was never read."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers or [], "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    incoming = messages if messages is not None else [
        {"type": "http.request", "body": b"", "more_body": False}
    ]
    sent: list[dict] = []

    async def receive() -> dict:
        if incoming:
            return incoming.pop(0)
        await asyncio.sleep(3600)  # a client that sends nothing more
        raise AssertionError("unreachable")

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def echo(environ: dict, start_response: Any) -> list[bytes]:
    """Answers with what it saw: method, body, content length, and the thread it ran in."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    seen = {
        "method": environ["REQUEST_METHOD"], "body": body.decode(),
        "length": environ.get("CONTENT_LENGTH"), "thread": threading.current_thread().name,
        "custom": environ.get("HTTP_X_CUSTOM"),
    }
    write = start_response("201 Created", [("Content-Type", "application/json"), ("X-A", "b")])
    write(b'{"seen": ')
    return [json.dumps(seen).encode(), b"}"]


def answer(sent: list[dict]) -> tuple[int, dict[bytes, bytes], bytes]:
    start, body = sent
    assert body["type"] == "http.response.body" and not body.get("more_body", False)
    return start["status"], dict(start["headers"]), body["body"]


def test_the_body_goes_in_whole_and_the_answer_comes_back_whole() -> None:
    app = ThreadedWSGI(echo, threads=2, max_body=100)
    sent = call(app, method="POST", headers=[(b"content-length", b"11"), (b"x-custom", b"yes")],
                messages=[{"type": "http.request", "body": b"hello ", "more_body": True},
                          {"type": "http.request", "body": b"world", "more_body": False}])
    status, headers, body = answer(sent)
    assert status == 201
    assert headers[b"content-type"] == b"application/json" and headers[b"x-a"] == b"b"
    seen = json.loads(body)["seen"]
    assert seen["body"] == "hello world" and seen["method"] == "POST"
    assert seen["custom"] == "yes"
    assert seen["thread"].startswith("api")  # a pooled thread, not the event loop's


def test_a_body_over_the_limit_is_not_read() -> None:
    app = ThreadedWSGI(echo, threads=1, max_body=4)
    sent = call(app, method="POST", headers=[(b"content-length", b"11")],
                messages=[{"type": "http.request", "body": b"hello world", "more_body": False}])
    seen = json.loads(answer(sent)[2])["seen"]
    # The application sees the declared length (and refuses it, as Django does) but no body.
    assert seen["length"] == "11" and seen["body"] == ""


def chunks(*parts: bytes) -> list[dict]:
    """A chunked body as the server hands it over: part by part, the last one saying so."""
    return [
        {"type": "http.request", "body": part, "more_body": n < len(parts) - 1}
        for n, part in enumerate(parts)
    ]


def test_a_chunked_body_is_read_whole_and_its_length_told() -> None:
    app = ThreadedWSGI(echo, threads=1, max_body=100)
    sent = call(app, method="POST", headers=[(b"transfer-encoding", b"chunked")],
                messages=chunks(b'{"hold": ', b"[0, 1, 2, 3, 4]", b"}"))
    _, headers, body = answer(sent)
    seen = json.loads(body)["seen"]
    assert seen["body"] == '{"hold": [0, 1, 2, 3, 4]}' and seen["length"] == "25"
    assert b"connection" not in headers  # the connection stays open for the next request


def test_a_chunked_body_over_the_limit_is_read_no_further_and_closes_the_connection() -> None:
    app = ThreadedWSGI(echo, threads=1, max_body=10)
    messages = chunks(b"x" * 8, b"x" * 8, b"x" * 8, b"x" * 8)
    sent = call(app, method="POST", headers=[(b"transfer-encoding", b"chunked")],
                messages=messages)
    _, headers, body = answer(sent)
    seen = json.loads(body)["seen"]
    # Told a length over the limit (Django refuses it unread: 413), given no body.
    assert int(seen["length"]) > 10 and seen["body"] == ""
    assert len(messages) == 2  # the last two parts were never read
    assert headers[b"connection"] == b"close"


def test_a_request_without_a_body_awaits_none() -> None:
    app = ThreadedWSGI(echo, threads=1, max_body=100)
    messages = [{"type": "http.disconnect"}]  # what reading would have met
    status, _, body = answer(call(app, method="POST", messages=messages))
    assert status == 201 and json.loads(body)["seen"]["body"] == ""
    assert messages == [{"type": "http.disconnect"}]


def test_a_client_gone_before_its_body_gets_no_answer() -> None:
    called = []

    def app(environ: dict, start_response: Any) -> list[bytes]:
        called.append(environ)
        start_response("200 OK", [])
        return [b""]

    sent = call(ThreadedWSGI(app, threads=1, max_body=100), method="POST",
                headers=[(b"content-length", b"5")], messages=[{"type": "http.disconnect"}])
    assert sent == [] and called == []


@pytest.mark.django_db
def test_the_service_refuses_a_body_too_large_as_a_problem() -> None:
    from django.conf import settings

    from config.asgi import application

    size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1
    sent = call(application, method="POST", path="/api/v1/games/",
                headers=[(b"content-length", str(size).encode()),
                         (b"content-type", b"application/json"), (b"host", b"127.0.0.1")],
                messages=[{"type": "http.request", "body": b" " * size, "more_body": False}])
    status, headers, body = answer(sent)
    assert status == 413
    assert headers[b"content-type"] == b"application/problem+json"
    assert json.loads(body)["code"] == "request_too_large"


@pytest.mark.django_db
def test_the_service_refuses_a_chunked_body_too_large_as_a_problem() -> None:
    from django.conf import settings

    from config.asgi import application

    part = b" " * 65536
    parts = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // len(part) + 3  # the limit is 40 of them
    messages = chunks(*[part] * parts)
    sent = call(application, method="POST", path="/api/v1/games/",
                headers=[(b"transfer-encoding", b"chunked"),
                         (b"content-type", b"application/json"), (b"host", b"127.0.0.1")],
                messages=messages)
    status, headers, body = answer(sent)
    assert (status, json.loads(body)["code"]) == (413, "request_too_large")
    assert headers[b"connection"] == b"close" and len(messages) == 2


class AsyncAnswer:
    """What Django's WSGI handler returns for a ``StreamingHttpResponse`` over an async
    generator: an iterable with ``is_async``, ``__aiter__`` and ``close``."""

    is_async = True

    def __init__(self, parts: Any) -> None:
        self.parts = parts
        self.closed_in: list[str] = []

    def __aiter__(self) -> Any:
        return self.parts

    def close(self) -> None:
        self.closed_in.append(threading.current_thread().name)


def streaming(answer_: AsyncAnswer) -> Any:
    def app(environ: dict, start_response: Any) -> AsyncAnswer:
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return answer_
    return app


def test_an_async_body_is_sent_part_by_part_then_closed_in_a_thread() -> None:
    async def parts() -> Any:
        for part in (b"retry: 2000\n\n", b"id: 1\n\n"):
            await asyncio.sleep(0)
            yield part

    body = AsyncAnswer(parts())
    sent = call(ThreadedWSGI(streaming(body), threads=1, max_body=100))
    assert sent[0]["status"] == 200
    assert dict(sent[0]["headers"])[b"content-type"] == b"text/event-stream"
    assert [(m["body"], m.get("more_body", False)) for m in sent[1:]] == [
        (b"retry: 2000\n\n", True), (b"id: 1\n\n", True), (b"", False)
    ]
    assert body.closed_in == ["api_0"]  # Django's end of the request, off the event loop


def test_a_client_gone_ends_an_async_body_that_is_waiting() -> None:
    ended: list[str] = []

    async def parts() -> Any:
        try:
            yield b"retry: 2000\n\n"
            await asyncio.sleep(3600)  # a stream with nothing new to send
            yield b"never"
        finally:
            ended.append("ended")

    body = AsyncAnswer(parts())
    sent = call(ThreadedWSGI(streaming(body), threads=1, max_body=100),
                messages=[{"type": "http.request", "body": b""}, {"type": "http.disconnect"}])
    assert [m.get("body") for m in sent[1:]] == [b"retry: 2000\n\n"]
    assert ended == ["ended"] and body.closed_in == ["api_0"]


def test_a_body_that_fails_is_ended_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    async def parts() -> Any:
        yield b"retry: 2000\n\n"
        raise RuntimeError("broken")

    body = AsyncAnswer(parts())
    sent = call(ThreadedWSGI(streaming(body), threads=1, max_body=100))
    assert [m.get("body") for m in sent[1:]] == [b"retry: 2000\n\n"]
    assert body.closed_in == ["api_0"]
    assert "a streamed answer failed" in caplog.text and "broken" in caplog.text


def test_a_quick_request_runs_on_the_loops_thread_and_others_in_the_pool() -> None:
    app = ThreadedWSGI(echo, threads=1, max_body=100, quick=lambda scope: scope["path"] == "/q")
    quick = json.loads(answer(call(app, path="/q"))[2])["seen"]["thread"]
    pooled = json.loads(answer(call(app, path="/other"))[2])["seen"]["thread"]
    assert quick == threading.current_thread().name  # asyncio.run's loop runs here
    assert pooled.startswith("api")


def test_a_quick_request_may_use_the_database_and_the_loop_runs_again_after() -> None:
    seen: list[Any] = []

    def app(environ: dict, start_response: Any) -> list[bytes]:
        # What Django's async_unsafe guard asks before any database work.
        seen.append(asyncio.events._get_running_loop())
        start_response("200 OK", [])
        return [b"done"]

    async def twice() -> tuple[Any, ...]:
        quick = ThreadedWSGI(app, threads=1, max_body=100, quick=lambda scope: True)
        first = await asyncio.to_thread(lambda: None)  # the loop works before...
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"",
                 "headers": [], "root_path": "", "scheme": "http", "http_version": "1.1",
                 "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5000)}
        await quick(scope, receive, send)
        await asyncio.sleep(0)  # ...and after: it is still this thread's running loop
        return first, asyncio.get_running_loop(), sent[-1]["body"]

    first, loop, body = asyncio.run(twice())
    assert seen == [None] and body == b"done" and loop is not None and first is None


@pytest.mark.parametrize(
    ("method", "path", "quick"),
    [
        ("POST", "/api/v1/games/", True),
        ("POST", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/roll/", True),
        ("POST", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/pass/", True),
        ("GET", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/", True),
        ("GET", "/api/v1/games/", False),  # a list: pages of any size
        ("GET", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/stream/", False),
        ("GET", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/analysis/", False),
        ("GET", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/hint/", False),
        ("DELETE", "/api/v1/games/0b5b2d7e-3c1a-4f7e-9a55-7d2f5b8e0c11/", False),
        ("GET", "/api/v1/health/", False),
        ("POST", "/admin/login/", False),
    ],
)
def test_only_moves_creations_and_reads_of_a_game_are_quick(
    method: str, path: str, quick: bool
) -> None:
    from games.serving.quick import quick_request

    assert quick_request({"type": "http", "method": method, "path": path}) is quick


@pytest.mark.django_db(transaction=True)
def test_a_whole_move_runs_on_the_loops_thread_through_the_service() -> None:
    from config.asgi import application

    def post(path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
        data = json.dumps(body).encode()
        headers = [(b"content-length", str(len(data)).encode()),
                   (b"content-type", b"application/json"), (b"host", b"127.0.0.1")]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        status, _, answered = answer(call(application, method="POST", path=path,
                                          headers=headers, messages=[
            {"type": "http.request", "body": data, "more_body": False}]))
        return status, json.loads(answered)

    status, game = post("/api/v1/games/", {"ruleset": "yahtzee", "players": [{"name": "A"}]})
    assert status == 201
    token = game["players"][0]["token"]
    status, rolled = post(f"/api/v1/games/{game['id']}/roll/", {}, token)
    assert status == 200 and rolled["version"] == game["version"] + 1
    assert len(rolled["choices"]) == 13  # a box game after its first roll: every box open


def test_after_a_slow_quick_request_the_quick_ones_go_to_the_threads_for_a_while() -> None:
    def slow_then_echo(environ: dict, start_response: Any) -> list[bytes]:
        if environ["PATH_INFO"] == "/slow":
            time.sleep(0.2)  # a database gone: the pool waits for a connection
        return echo(environ, start_response)

    app = ThreadedWSGI(slow_then_echo, threads=1, max_body=100, quick=lambda scope: True,
                       quick_limit=0.1, quick_pause=0.5)
    assert json.loads(answer(call(app, path="/slow"))[2])["seen"]["thread"] == "MainThread"
    paused = json.loads(answer(call(app, path="/fast"))[2])["seen"]["thread"]
    assert paused.startswith("api")  # the loop is not held up again meanwhile
    time.sleep(0.5)
    assert json.loads(answer(call(app, path="/fast"))[2])["seen"]["thread"] == "MainThread"


class Pool:
    def __init__(self, idle: int, closed: bool = False) -> None:
        self.idle, self.closed = idle, closed

    def get_stats(self) -> dict[str, int]:
        return {"pool_available": self.idle, "pool_size": 4}


def test_a_quick_request_runs_on_the_loop_only_while_a_pooled_connection_is_idle() -> None:
    from games.serving.quick import pool_idle

    assert pool_idle(Pool(idle=1)) is True
    assert pool_idle(Pool(idle=0)) is False  # the threads may wait for one; the loop must not
    assert pool_idle(Pool(idle=3, closed=True)) is False
    assert pool_idle(None) is True  # SQLite: no pool, nothing to wait for


def test_streams_that_end_together_are_closed_in_one_hand_over_to_the_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from games.serving.threaded_wsgi import Closer

    handed: list[int] = []
    closed: list[int] = []

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            handed.append(len(args[0]))
            return super().submit(fn, *args, **kwargs)

    async def scenario() -> None:
        closer = Closer(Counting(max_workers=2))
        await asyncio.gather(*(closer.close(lambda n=n: closed.append(n)) for n in range(50)))
        await closer.close(lambda: closed.append(50))  # later: a hand-over of its own

    asyncio.run(scenario())
    assert sorted(closed) == list(range(51))  # every close ran before its stream went on
    assert handed == [50, 1]


class Cycle:
    """What uvicorn's request cycle holds for an outlet (``games.serving.outlet``): a transport
    that keeps what is written; ``send`` keeps the ASGI messages."""

    disconnected = response_complete = False
    response_started = chunked_encoding = True

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.messages: list[dict[str, Any]] = []
        self.flow = SimpleNamespace(write_paused=False)
        self.transport = SimpleNamespace(write=self.written.append, is_closing=lambda: False)

    async def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


@pytest.mark.parametrize("encoding", [None, "gzip"])
def test_a_streamed_answer_may_write_through_its_outlet_only_while_its_body_runs(
    encoding: str | None,
) -> None:
    outlet = Outlet()
    seen: list[bool] = []

    async def parts() -> Any:
        yield b"retry: 2000\n\n"
        seen.append(outlet.write(b"id: 2\n\n"))  # as a subscription would, while it waits
        yield b"id: 3\n\n"

    response = StreamingHttpResponse(parts(), content_type="text/event-stream")
    response.outlet = outlet  # type: ignore[attr-defined]
    if encoding:
        response["Content-Encoding"] = encoding  # parts encoded on the way: no direct write
    cycle = Cycle()
    asyncio.run(AsyncBody(response).send(cycle.send))
    assert [m["body"] for m in cycle.messages] == [b"retry: 2000\n\n", b"id: 3\n\n", b""]
    assert seen == [encoding is None]
    assert cycle.written == ([b"7\r\nid: 2\n\n\r\n"] if encoding is None else [])
    assert not outlet.open  # shut once the body ended
