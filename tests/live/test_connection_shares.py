"""gunicorn, as compose runs it: a new connection goes to the worker process holding fewest
(``games.serving.shares``), so that a few long-held connections do not pile onto one
worker's event loop while the other's idles."""

import http.client
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest

from .service import gunicorn_on_a_new_database

pytestmark = pytest.mark.live
STARTED = "Application startup complete"  # uvicorn's line, once a worker's lifespan started
# How far apart the workers' counts may end: on a loaded machine the worker holding fewest
# may not get a core within the time the other leaves a connection to it (50 ms), and the
# other then takes that one itself.
APART = 2


@contextmanager
def two_workers(tmp_path: Path) -> Iterator[tuple[int, list[psutil.Process]]]:
    """The service under gunicorn on a new database: its port and its two workers."""
    with gunicorn_on_a_new_database(tmp_path) as (port, server, log):
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            if server.poll() is not None:
                pytest.fail(log.read_text(errors="replace")[-3000:])
            time.sleep(0.2)
            workers = psutil.Process(server.pid).children()
        # Both workers serve once each has finished its lifespan's startup (the application
        # loaded, the collector set): until then one worker takes every connection.
        while log.read_text(errors="replace").count(STARTED) < 2:
            if time.monotonic() > deadline:
                pytest.fail(log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)
        connect(port).close()
        time.sleep(0.5)  # the workers listening, and their counts written
        yield port, workers
        server.terminate()
        server.wait(timeout=30)


def connect(port: int) -> http.client.HTTPConnection:
    """A keep-alive connection that has had one answer, so some worker holds it."""
    deadline = time.monotonic() + 60
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/api/v1/health/")
            connection.getresponse().read()
            return connection
        except OSError:
            connection.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def held(worker: psutil.Process, port: int) -> set[int]:
    """The client ports of the connections ``worker`` holds on the service's port."""
    return {
        found.raddr.port
        for found in worker.net_connections(kind="tcp")
        if found.status == psutil.CONN_ESTABLISHED and found.laddr.port == port and found.raddr
    }


def test_connections_opened_one_after_another_are_shared_evenly(tmp_path: Path) -> None:
    with two_workers(tmp_path) as (port, workers):
        opened = [connect(port) for _ in range(20)]
        time.sleep(0.3)  # each worker's count is written at least every 0.1 s
        counts = sorted(len(held(worker, port)) for worker in workers)
        assert counts[1] - counts[0] <= APART, counts
        # One worker's clients leave: the next ones all go to it, the one holding fewest.
        ports = {connection.sock.getsockname()[1]: connection for connection in opened}
        first = held(workers[0], port)
        for client_port in first:
            ports[client_port].close()
        time.sleep(0.3)
        more = [connect(port) for _ in range(len(first))]
        time.sleep(0.3)
        counts = sorted(len(held(worker, port)) for worker in workers)
        assert counts[1] - counts[0] <= APART, counts
        for connection in [*ports.values(), *more]:
            connection.close()
