"""Which process a figure belongs to, when every process of an instance keeps its figures
in the folder ``PROMETHEUS_MULTIPROC_DIR`` names.

prometheus_client names a process's files by its PID, and in containers every worker is
PID 1: scaled worker containers sharing one folder would write the same files. Here a
process is its host's name and its PID, unique across containers (a container's host name is
its own) and across hosts.
"""

import os
import socket
from pathlib import Path


def process_name(pid: int | None = None) -> str:
    return f"{socket.gethostname()}-{pid if pid is not None else os.getpid()}"


def process_ended(pid: int) -> None:
    """A process of this host ended: its live figures (gauges that count what is open now)
    stop counting; its counters stay, as the total of work done."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        return
    for path in Path(folder).glob(f"gauge_live*_{process_name(pid)}.db"):
        path.unlink(missing_ok=True)
