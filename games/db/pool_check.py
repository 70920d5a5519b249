"""The check a pooled PostgreSQL connection passes before it is lent to a request.

psycopg's own check (``ConnectionPool.check_connection``, what Django's
``CONN_HEALTH_CHECKS`` turns on) sends an empty query and waits for the answer: one more
round trip to the database on every request. This one costs none. An idle connection has
nothing to read, so if its socket is readable the server has sent something unasked, which
on an idle connection means it is going away (a restart's "terminating connection" notice,
or the end of the stream when the server or the network dropped it). Such a connection is
closed, and it or one psycopg already knows to be closed is refused: the pool discards it
and lends another (or opens a new one), so the request never meets it. A connection whose
server has vanished without a word cannot be told from a healthy one without a round trip;
its request fails as the database being unavailable (503), as it would have with the empty
query.
"""

import select

import psycopg


def idle_connection_check(conn: psycopg.Connection) -> None:
    """Raises ``psycopg.OperationalError`` if ``conn`` must not be lent."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    poller = select.poll()  # not select.select: a worker with many streams has fds > 1024
    poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
    if poller.poll(0):
        conn.close()  # so that the pool discards it rather than lending it again later
        raise psycopg.OperationalError("the server has closed the connection")
