"""The database's clock, the one clock of a deployment.

Deadlines (turn clocks, assignments, webhook retries) are set and compared by the database's
time, by servers and workers alike, so that a host whose own clock runs ahead or behind
neither refuses a move early nor fires a clock early or late. A change reads the time in the
same statement as its lock (``gamestore.game_lock``); the worker's sweeps compare with
``Now()`` inside their queries.
"""

import datetime as dt
import time

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


# -- the database's time without asking it ------------------------------------------------

# How long a reading of the database's time is trusted to work out its time now: long
# enough to serve a game's moves between reads, short enough that a step of the database
# host's clock is soon learnt.
TRUSTED_SECONDS = 60.0

_reading: tuple[float, dt.datetime] | None = None  # (this process's monotonic time, the db's)


def learn(moment: dt.datetime) -> None:
    """Remembers the database's time just read (:func:`moment`), to work out its time later
    without a round trip (:func:`estimated`)."""
    global _reading
    _reading = (time.monotonic(), moment)


def estimated() -> dt.datetime | None:
    """The database's time now, worked out from its last reading and the time elapsed here
    since (a monotonic clock: this host's own wall clock plays no part); None without a
    reading in the last ``TRUSTED_SECONDS``.

    It lags the database's own clock by the time the reading took to arrive (a round trip
    at most), so a deadline set from it comes that much early, and a deadline it finds not
    yet passed must be checked again by the database (``gamestore.game_update`` does)."""
    reading = _reading
    if reading is None:
        return None
    elapsed = time.monotonic() - reading[0]
    if not 0 <= elapsed <= TRUSTED_SECONDS:
        return None
    return reading[1] + dt.timedelta(seconds=elapsed)
