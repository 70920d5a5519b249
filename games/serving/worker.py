"""gunicorn's worker for the service: uvicorn's, taking its share of new connections only.

Every worker process waits on the one listening socket gunicorn opened. uvicorn's event loop
(uvloop) accepts, on each wake-up, every connection waiting: clients that connect together
(a class starting its games, a load test's clients) then all land on one worker, which serves
them one request after the other on its single core while the other workers idle. Seen
with ``ss`` under 8 clients opening together: 8 and 0, 7 and 1, in most runs.

Here a worker with few connections open accepts one, then stops listening for
``ACCEPT_PAUSE`` seconds: a worker idle in its own poll takes the next, and a busy one (its
loop serving a move) takes none meanwhile. A worker holding ``SPREAD_BELOW`` connections or
more (a crowd of event streams, say) accepts without pausing: among that many, chance
spreads the load, and a crowd needs no millisecond per member. The accepted socket goes to
uvicorn's own protocol, as uvicorn's server would hand it over
(``loop.connect_accepted_socket``).
"""

import asyncio
import functools
import logging
import socket
import sys
from collections.abc import Callable
from typing import Any

from gunicorn.arbiter import Arbiter  # type: ignore[import-untyped]
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from games.serving.protocol import HeadBoundedProtocol

logger = logging.getLogger(__name__)

ACCEPT_PAUSE = 0.001  # seconds a worker leaves new connections to the others after one
SPREAD_BELOW = 32  # open connections under which a worker pauses after each it accepts


class Acceptor:
    """Accepts connections on a listening socket one at a time, pausing after each."""

    def __init__(
        self,
        sock: socket.socket,
        protocol: Any,
        ssl: Any = None,
        pause: float = ACCEPT_PAUSE,
        open_connections: Callable[[], int] = lambda: 0,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._sock, self._protocol, self._ssl, self._pause = sock, protocol, ssl, pause
        self._open = open_connections
        self._closed = False
        self._resume: asyncio.TimerHandle | None = None
        self._setting_up: set[asyncio.Task[None]] = set()  # the loop keeps only weak ones
        sock.setblocking(False)
        self._listen()

    def _listen(self) -> None:
        self._resume = None
        if not self._closed:
            self._loop.add_reader(self._sock.fileno(), self._accept)

    def _accept(self) -> None:
        try:
            conn, _ = self._sock.accept()
        except (BlockingIOError, InterruptedError):
            return  # another worker took it
        except OSError as error:  # out of descriptors, say: try again a little later
            logger.warning("cannot accept a connection (%s)", error)
            self._wait(0.1)
            return
        conn.setblocking(False)
        if conn.family in (socket.AF_INET, socket.AF_INET6):
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        task = self._loop.create_task(self._serve(conn))
        self._setting_up.add(task)
        task.add_done_callback(self._setting_up.discard)
        if self._open() < SPREAD_BELOW:
            self._wait(self._pause)

    def _wait(self, seconds: float) -> None:
        self._loop.remove_reader(self._sock.fileno())
        self._resume = self._loop.call_later(seconds, self._listen)

    async def _serve(self, conn: socket.socket) -> None:
        try:
            await self._loop.connect_accepted_socket(self._protocol, conn, ssl=self._ssl)
        except Exception:  # a client gone before its connection was set up
            logger.debug("a connection closed while it was being set up", exc_info=True)
            conn.close()

    def close(self) -> None:
        """Stops accepting (the server is shutting down); the socket is gunicorn's."""
        self._closed = True
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        self._loop.remove_reader(self._sock.fileno())

    async def wait_closed(self) -> None:
        """Returns once the connections accepted before :meth:`close` are set up (uvicorn's
        shutdown waits on each of its servers so, as on an ``asyncio.Server``; the
        connections themselves are uvicorn's, which it has waited for already)."""
        if self._setting_up:
            await asyncio.gather(*self._setting_up, return_exceptions=True)


class SharingServer(Server):
    """uvicorn's server, with gunicorn's sockets accepted by :class:`Acceptor`s."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[] if sockets is not None else None)
        if sockets is None or self.should_exit:
            return
        protocol = functools.partial(
            self.config.http_protocol_class,
            config=self.config,  # type: ignore[call-arg]
            server_state=self.server_state,
            app_state=self.lifespan.state,
        )
        self.servers.extend(  # uvicorn closes them first when it shuts down
            Acceptor(  # type: ignore[misc]
                sock, protocol, self.config.ssl,
                open_connections=lambda: len(self.server_state.connections),
            )
            for sock in sockets
        )


class Worker(UvicornWorker):
    """``--worker-class games.serving.worker.Worker``: uvicorn's worker, sharing connections,
    serving them with the service's protocol (the request's head bounded:
    ``games.serving.protocol``)."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": HeadBoundedProtocol}

    async def _serve(self) -> None:
        self.config.app = self.wsgi
        server = SharingServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
