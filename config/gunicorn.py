"""gunicorn's settings file (``gunicorn -c python:config.gunicorn``): when a worker process
exits, its live figures (open streams) stop counting in GET /metrics."""

import os
from typing import Any

from prometheus_client import multiprocess


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)
