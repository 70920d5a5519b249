"""The database's clock, the one clock of a deployment.

Deadlines (turn clocks, assignments, webhook retries) are set and compared by the database's
time, by servers and workers alike, so that a host whose own clock runs ahead or behind
neither refuses a move early nor fires a clock early or late. A change reads the time in the
same statement as its lock (``gamestore.game_lock``); the worker's sweeps compare with
``Now()`` inside their queries.
"""

import datetime as dt

from django.db import connection

from games.db import rows

# The database's time as an SQL expression. SQLite's ``'now'`` is UTC, with milliseconds.
# PostgreSQL's ``clock_timestamp()`` is the time it is evaluated: in the statement that locks
# a game, when the row is read, and read again once a lock it waited for is granted.
_NOW = {
    "postgresql": "clock_timestamp()",
    "sqlite": "strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now')",
}


def now_sql() -> str:
    """The database's time now, as an SQL expression (:func:`moment` reads its value)."""
    return _NOW[connection.vendor]


def moment(value: object) -> dt.datetime:
    """The time read from :func:`now_sql`, as an aware datetime in UTC."""
    if isinstance(value, str):  # SQLite answers text
        return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC)
    assert isinstance(value, dt.datetime)
    return value.astimezone(dt.UTC)


def db_now() -> dt.datetime:
    """The database's time now (one round trip)."""
    found = rows.run([rows.Statement(f"SELECT {now_sql()}", [], reads=True)])
    return moment(found[0][0][0])
