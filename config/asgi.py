"""The whole service on one ASGI server: the JSON API in threads, the event streams async.

The JSON API is synchronous Django (DRF views, transactions, the rules engine). Under
Django's own ASGI handler every such request crosses between the event loop and threads
many times (each middleware, the view, the request signals: a new thread per request), which
made the API several times slower than the same code under WSGI. So here every path but the
event streams goes to Django's WSGI application, run by a fixed pool of ``SERVER_THREADS``
long-lived threads per worker process (``config.threaded_wsgi``): one hand-over per request,
and each request borrows a pooled database connection. The event streams
(``/api/v1/games/<id>/stream/``) go to Django's ASGI handler, where their async view waits
without a thread or a connection.

Served by uvicorn (``make run``) or gunicorn with uvicorn workers (``docker-compose.yml``),
from one address. The ASGI lifespan is optional: with it, a worker closes its listener for
game events when it stops.
"""

import os
import re
from typing import Any

from django.conf import settings
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from config.threaded_wsgi import ThreadedWSGI

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

streams = get_asgi_application()
api = ThreadedWSGI(
    get_wsgi_application(),
    threads=settings.SERVER_THREADS,
    max_body=settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**21,
)

STREAM_PATH = re.compile(r"^/api/v1/games/[0-9a-fA-F-]{36}/stream/$")


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        if STREAM_PATH.match(scope["path"]):
            await streams(scope, receive, send)
        else:
            await api(scope, receive, send)
    elif scope["type"] == "lifespan":
        await lifespan(receive, send)


async def lifespan(receive: Any, send: Any) -> None:
    from games.notify import stop_listening

    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await stop_listening()
            await send({"type": "lifespan.shutdown.complete"})
            return
