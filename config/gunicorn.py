"""gunicorn's settings file (``gunicorn -c python:config.gunicorn``).

- The workers' open connections are counted where every worker reads them
  (``games.serving.shares``): the master maps the memory before it forks them, gives each
  new worker a slot, and clears a slot when its worker exits; so a new connection goes to
  the worker holding fewest.
- When a worker process exits, its live figures (open streams) stop counting in GET
  /metrics.
"""

from typing import Any

from games.observe.processes import process_ended
from games.serving.shares import Shares

SHARES = Shares()


def pre_fork(server: Any, worker: Any) -> None:
    taken = (getattr(other, "share_slot", -1) for other in server.WORKERS.values())
    worker.shares = SHARES
    worker.share_slot = SHARES.slot_for(taken)


def child_exit(server: Any, worker: Any) -> None:
    process_ended(worker.pid)
    slot = getattr(worker, "share_slot", None)
    if slot is not None:
        SHARES.clear(slot)
