"""gunicorn's worker for the service: uvicorn's, taking its share of new connections only.

Every worker process waits on the one listening socket gunicorn opened. uvicorn's event loop
(uvloop) accepts, on each wake-up, every connection waiting: clients that connect together
(a class starting its games, a load test's clients) then all land on one worker, which serves
them one request after the other on its single core while the other workers idle. Seen
with ``ss`` under 8 clients opening together: 8 and 0, 7 and 1, in most runs.

Here a worker with few connections open accepts one, then stops listening for
``ACCEPT_PAUSE`` seconds: a worker idle in its own poll takes the next, and a busy one (its
loop serving a move) takes none meanwhile. A worker holding ``SPREAD_BELOW`` connections or
more (a crowd of event streams, say) accepts without pausing. Under gunicorn every worker
also knows how many connections the others hold (``games.serving.shares``): one that holds
more than another leaves a new connection to it, a pause at a time, for up to
``LONGEST_LEFT`` seconds. Pauses alone left the splits to chance (6 and 2 clients, 652 and
348 streams, docs/benchmark.md), and a connection is held as long as its client keeps it.
The accepted socket goes to uvicorn's own protocol, as uvicorn's server would hand it over
(``loop.connect_accepted_socket``). With ``SERVER_ACCEPT_PACING`` off, uvicorn's own server
accepts instead (the reference: docs/architecture.md).
"""

import asyncio
import functools
import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import Any

from gunicorn.arbiter import Arbiter  # type: ignore[import-untyped]
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from games.serving.protocol import HeadBoundedProtocol
from games.serving.shares import REFRESH, Shares

logger = logging.getLogger(__name__)

ACCEPT_PAUSE = 0.001  # seconds a worker leaves new connections to the others after one
SPREAD_BELOW = 32  # open connections under which a worker pauses after each it accepts
# Seconds a worker holding more connections than another leaves a new one to the others
# (``Shares``), a pause at a time, before it takes it anyway: the worker holding fewest may
# be busy, or stuck, and a client waits no longer than about this for its connection.
LONGEST_LEFT = 0.05
# Wake-ups further apart than this are for different connections: the leaving starts anew.
LEFT_APART = 0.01


class Acceptor:
    """Accepts connections on a listening socket one at a time, pausing after each."""

    def __init__(
        self,
        sock: socket.socket,
        protocol: Any,
        ssl: Any = None,
        pause: float = ACCEPT_PAUSE,
        open_connections: Callable[[], int] = lambda: 0,
        fewest_elsewhere: Callable[[int], int | None] = lambda held: None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._sock, self._protocol, self._ssl, self._pause = sock, protocol, ssl, pause
        self._open = open_connections
        self._fewest_elsewhere = fewest_elsewhere
        self._leaving_since = self._left_at = 0.0  # time.monotonic() of leaving a connection
        self._closed = False
        self._resume: asyncio.TimerHandle | None = None
        self._setting_up: set[asyncio.Task[None]] = set()  # the loop keeps only weak ones
        sock.setblocking(False)
        self._listen()

    def _listen(self) -> None:
        self._resume = None
        if not self._closed:
            self._loop.add_reader(self._sock.fileno(), self._accept)

    def held(self) -> int:
        """The connections this worker holds, those being set up included."""
        return self._open() + len(self._setting_up)

    def _accept(self) -> None:
        if self._leave():
            self._wait(ACCEPT_PAUSE)
            return
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

    def _leave(self) -> bool:
        """True when another worker holds fewer connections (it takes this one), unless this
        one has waited ``LONGEST_LEFT`` for it already."""
        held = self.held()
        fewest = self._fewest_elsewhere(held)
        if fewest is None or held <= fewest:
            return False
        now = time.monotonic()
        if now - self._left_at > LEFT_APART:
            self._leaving_since = now
        if now - self._leaving_since >= LONGEST_LEFT:
            self._left_at = 0.0  # taken: the next connection is left anew
            return False
        self._left_at = now
        return True

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
    """uvicorn's server, with gunicorn's sockets accepted by :class:`Acceptor`s; with
    ``shares`` (the master's, and this worker's slot in it), a new connection goes to the
    worker holding fewest."""

    def __init__(self, config: Any, shares: tuple[Shares, int] | None = None) -> None:
        super().__init__(config)
        self.shares = shares
        self._pid = os.getpid()

    def _fewest_elsewhere(self, held: int) -> int | None:
        """Writes this worker's count (``held``), answers the fewest another holds."""
        if self.shares is None:
            return None
        shares, slot = self.shares
        shares.write(slot, self._pid, held)
        return shares.fewest_elsewhere(slot)

    def _tell_count(self) -> None:
        """Writes this worker's count every ``REFRESH`` seconds, so that the others see it
        fall as connections close; once it stops, its slot is cleared (it takes no more)."""
        if self.shares is None:
            return
        if self.should_exit:
            self.shares[0].clear(self.shares[1])
            return
        self._fewest_elsewhere(len(self.server_state.connections))
        asyncio.get_running_loop().call_later(REFRESH, self._tell_count)

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
                fewest_elsewhere=self._fewest_elsewhere,
            )
            for sock in sockets
        )
        self._tell_count()


class Worker(UvicornWorker):
    """``--worker-class games.serving.worker.Worker``: uvicorn's worker, sharing connections,
    serving them with the service's protocol (the request's head bounded:
    ``games.serving.protocol``)."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "http": HeadBoundedProtocol}

    async def _serve(self) -> None:
        from django.conf import settings  # the application, loaded by now, configured it

        self.config.app = self.wsgi
        paced = settings.SERVER_ACCEPT_PACING
        # The master's shared counts and this worker's slot (config.gunicorn's ``pre_fork``).
        shares = getattr(self, "shares", None)
        slot = getattr(self, "share_slot", None)
        server = (
            SharingServer(self.config, (shares, slot) if shares and slot is not None else None)
            if paced
            else Server(config=self.config)
        )
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
