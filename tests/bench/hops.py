"""Where a request's time goes under ASGI: thread hand-overs and their cost, in-process.

``DATABASE_URL=... python -m tests.bench.hops [N]`` calls ``GET /api/v1/health/`` and
``GET /api/v1/rulesets/`` N times (default 2000) one after the other, with no network and no
server, three ways:

- through Django's own ASGI handler (every request gets a thread of its own, and each
  synchronous middleware and the view are handed to it and back: the count is printed);
- through ``config.asgi.application``, which hands the request once to a pooled thread
  running Django's WSGI handler;
- through Django's WSGI handler called directly (no event loop at all): the floor.

It prints microseconds per request and the hand-overs (``sync_to_async`` calls) per request.
"""

import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import django

PATHS = ("/api/v1/health/", "/api/v1/rulesets/")


def scope(path: str) -> dict[str, Any]:
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80),
    }


async def asgi_calls(app: Any, path: str, count: int) -> float:
    def receiver() -> Any:
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:  # the client stays: nothing more until the answer is sent
                await asyncio.Event().wait()
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}

        return receive

    status: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    started = time.perf_counter()
    for _ in range(count):
        await app(scope(path), receiver(), send)
    elapsed = time.perf_counter() - started
    assert set(status) == {200}, set(status)
    return elapsed / count


def wsgi_calls(app: Any, path: str, count: int) -> float:
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.url_scheme": "http",
        "wsgi.input": __import__("io").BytesIO(b""), "wsgi.errors": sys.stderr,
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1",
    }
    started = time.perf_counter()
    for _ in range(count):
        body = app(dict(environ), lambda status, headers, exc=None: None)
        b"".join(body)
        body.close()
    return (time.perf_counter() - started) / count


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    django.setup()
    from asgiref import sync
    from django.core.asgi import get_asgi_application
    from django.core.wsgi import get_wsgi_application

    from config.asgi import application

    hops = 0
    original = sync.SyncToAsync.__call__

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal hops
        hops += 1
        return await original(self, *args, **kwargs)

    sync.SyncToAsync.__call__ = counted  # type: ignore[method-assign]
    django_asgi, django_wsgi = get_asgi_application(), get_wsgi_application()
    print(f"{count} sequential requests each, in-process, {os.cpu_count()} cores")
    for path in PATHS:
        asyncio.run(asgi_calls(django_asgi, path, 50))  # warm up
        hops = 0
        per_asgi = asyncio.run(asgi_calls(django_asgi, path, count))
        asgi_hops = hops / count
        asyncio.run(asgi_calls(application, path, 50))
        hops = 0
        per_pool = asyncio.run(asgi_calls(application, path, count))
        pool_hops = hops / count
        wsgi_calls(django_wsgi, path, 50)
        per_wsgi = wsgi_calls(django_wsgi, path, count)
        print(f"{path}")
        print(f"  Django's ASGI handler:           {per_asgi * 1e6:7.0f} us/request,"
              f" {asgi_hops:.0f} thread hand-overs each")
        print(f"  config.asgi (WSGI in a pool):    {per_pool * 1e6:7.0f} us/request,"
              f" {pool_hops:.0f} sync_to_async + 1 hand-over to a pooled thread each")
        print(f"  Django's WSGI handler, directly: {per_wsgi * 1e6:7.0f} us/request")
    print(f"rerun: DATABASE_URL=... {Path(sys.executable).name} -m tests.bench.hops {count}")


if __name__ == "__main__":
    main()
