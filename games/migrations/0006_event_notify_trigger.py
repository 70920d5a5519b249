"""On PostgreSQL the event log announces itself: every insert into it sends ``NOTIFY``.

One trigger per statement sends ``'<game id>:<last seq>'`` on ``game_events`` for each game
the statement wrote events of (see ``games.notify``). A ``NOTIFY`` sent inside a transaction
is delivered when it commits and dropped if it rolls back, so listeners hear of committed
changes only, and a move costs no statement of its own to tell them. Other databases have
no such channel (their streams poll): nothing is made there.
"""

from django.db import migrations

from games.db.schema_sql import on_postgresql

CREATE = """
CREATE FUNCTION games_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('game_events', game_id::text || ':' || max(seq))
    FROM inserted_events GROUP BY game_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER games_event_notify AFTER INSERT ON games_event
    REFERENCING NEW TABLE AS inserted_events
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_notify();
"""

DROP = """
DROP TRIGGER IF EXISTS games_event_notify ON games_event;
DROP FUNCTION IF EXISTS games_event_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0005_classroom")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP), elidable=False)]
