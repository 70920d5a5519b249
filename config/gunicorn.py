"""gunicorn's settings file (``gunicorn -c python:config.gunicorn``): when a worker process
exits, its live figures (open streams) stop counting in GET /metrics."""

from typing import Any

from games.observe.processes import process_ended


def child_exit(server: Any, worker: Any) -> None:
    process_ended(worker.pid)
