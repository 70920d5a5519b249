"""Telling live listeners that a game's log has grown.

On PostgreSQL a committed change sends ``NOTIFY game_events, '<game id>:<last seq>'``, so
event streams wake at once instead of polling. Other databases have no such channel: their
streams poll (see ``games.api.stream``).
"""

from django.db import connection, transaction

CHANNEL = "game_events"


def announce(game_id: object, last_seq: int) -> None:
    """After the current transaction commits, tell listeners the log reached ``last_seq``."""
    if connection.vendor != "postgresql":
        return

    def send() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{game_id}:{last_seq}"])

    # robust: the change is committed by then; a database lost at this instant must not
    # answer the committed move as failed (listeners still read the log every few seconds).
    transaction.on_commit(send, robust=True)
