"""gunicorn, as compose runs it, stops cleanly when told to: each worker process closes its
listening, lets its connections finish, runs the application's shutdown (which closes its
listener for game events) and exits without an error, connections open or not."""

import http.client
import signal
import subprocess
import time
from pathlib import Path

import pytest

from .service import gunicorn_on_a_new_database

pytestmark = pytest.mark.live


def test_a_term_signal_stops_every_worker_cleanly(tmp_path: Path) -> None:
    with gunicorn_on_a_new_database(tmp_path) as (port, server, log):
        kept = _healthy(port, server, log)  # a keep-alive connection left open
        _started(log, workers=2)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        kept.close()
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert text.count("Application shutdown complete") == 2, text[-3000:]


def _healthy(port: int, server: subprocess.Popen[bytes], log: Path) -> http.client.HTTPConnection:
    """A connection that got a healthy answer, once the server gives one."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            break
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/api/v1/health/")
            if connection.getresponse().read():
                return connection
        except OSError:  # not listening yet
            connection.close()
        time.sleep(0.1)
    pytest.fail(f"no healthy answer:\n{log.read_text(errors='replace')[-3000:]}")


def _started(log: Path, *, workers: int) -> None:
    """Waits until every worker process has started its application (one may answer while
    the other still boots)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if log.read_text(errors="replace").count("Application startup complete") >= workers:
            return
        time.sleep(0.1)
    pytest.fail(f"the workers did not all start:\n{log.read_text(errors='replace')[-3000:]}")
