"""On PostgreSQL, ``games_stale()``: the error a move raises when its game changed under it.

A move of a game the process kept (``games.db.kept``) is written by one statement that
updates the game only if its row is still the version the process wrote, and calls this
function when no row was updated, so that the move's transaction fails as a whole, with a
code of its own (``GS001``) that the service knows to answer by reading the game again.
Other databases have no such move: nothing is made there.
"""

from django.db import migrations

from games.db.schema_sql import on_postgresql

CREATE = """
CREATE FUNCTION games_stale() RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'the game was changed since this process wrote it'
        USING ERRCODE = 'GS001';
END
$$;
"""

DROP = "DROP FUNCTION IF EXISTS games_stale();"


class Migration(migrations.Migration):
    dependencies = [("games", "0014_event_game_index")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP), elidable=False)]
