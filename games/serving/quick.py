"""The requests a worker runs on its event loop's own thread (``ThreadedWSGI``'s ``quick``).

Only short, bounded work: a move in a game (which plays the computer seats that follow
within it), a game's creation and a game's read. Each is one transaction of a few statements
on one game, with no call out of the process but to the database; whatever may take longer
(an analysis, a hint, a list, the docs, a stream, an admin page) runs on the pooled threads,
so that it never holds up the loop. So does a quick request while no pooled connection to
PostgreSQL is idle: the threads may wait for one (seconds, while the database is away), the
loop must not.
"""

import re
from functools import cache
from typing import Any

# Loose on purpose: a path that only looks like a game's is still quick to refuse (404).
GAME_ID = "[0-9a-fA-F-]{36}"
MOVES = "roll|hold|score|scratch|bank|pass|leave|start|join"
POSTED = re.compile(rf"^/api/v1/games/(?:{GAME_ID}/(?:{MOVES})/)?$")
READ = re.compile(rf"^/api/v1/games/{GAME_ID}/$")


def quick_now(scope: dict[str, Any]) -> bool:
    """Whether the request is quick and a connection waits for it (``ThreadedWSGI``'s
    ``quick``)."""
    return quick_request(scope) and connection_idle()


def quick_request(scope: dict[str, Any]) -> bool:
    """Whether the request is a move, a creation or a read of one game."""
    method, path = scope.get("method"), scope.get("path", "")
    if method == "POST":
        return POSTED.match(path) is not None
    return method == "GET" and READ.match(path) is not None


def connection_idle() -> bool:
    """Whether the database pool has a connection idle now (always, without a pool)."""
    return pool_idle(_pool())


@cache
def _pool() -> Any:
    """The process's pool of connections (None on SQLite), looked up once."""
    from django.db import connections

    return getattr(connections["default"], "pool", None)


def pool_idle(pool: Any) -> bool:
    if pool is None or pool.closed:
        return pool is None
    available: int = pool.get_stats().get("pool_available", 0)
    return available > 0
