"""The whole service on one ASGI server: every request in a thread, the event streams async.

The JSON API is synchronous Django (DRF views, transactions, the rules engine). Under
Django's own ASGI handler every such request crosses between the event loop and threads
many times (each middleware, the view, the request signals: a new thread per request), which
made the API several times slower than the same code under WSGI, and made opening an event
stream cost about 4 ms of processor time. So here every request goes to Django's WSGI
application, run by a fixed pool of ``SERVER_THREADS`` long-lived threads per worker process
(``games.serving.threaded_wsgi``): one hand-over per request, and each request borrows a pooled
database connection. An event stream (``/api/v1/games/<id>/stream/``) is opened the same way;
its body is an async generator, which the event loop sends, waiting without a thread or a
connection. The quickest requests (a move, a game's creation or read: ``games.serving.quick``)
are not handed over at all: they run on the event loop's own thread, unless
``SERVER_QUICK_ON_LOOP`` is false. With ``SERVER_BRIDGE=plain`` Django's own ASGI handler
serves instead (the reference the threaded bridge is measured against: docs/architecture.md).

Served by uvicorn (``make run``) or gunicorn with uvicorn workers (``docker-compose.yml``),
from one address. The ASGI lifespan is optional: with it, a worker sets its cycle collector
once it has loaded (``games.serving.collector``) and closes its listener for game events when
it stops.
"""

import os
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from games.serving import handoff
from games.serving.collector import settle
from games.serving.quick import quick_now
from games.serving.threaded_wsgi import ThreadedWSGI

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def bridge() -> Any:
    """The ASGI application that runs Django's requests, as ``SERVER_BRIDGE`` says."""
    if settings.SERVER_BRIDGE == "plain":
        return get_asgi_application()
    handoff.configure(
        settings.SERVER_STREAM_SENDER_NICE if settings.SERVER_STREAM_SENDER else None
    )
    return ThreadedWSGI(
        get_wsgi_application(),
        threads=settings.SERVER_THREADS,
        max_body=settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**21,
        quick=quick_now if settings.SERVER_QUICK_ON_LOOP else None,
    )


api = bridge()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await api(scope, receive, send)
    elif scope["type"] == "lifespan":
        await lifespan(receive, send)


async def lifespan(receive: Any, send: Any) -> None:
    from games.db.notify import stop_listening

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            settle()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_listening()
            handoff.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
