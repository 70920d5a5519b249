"""On PostgreSQL each game's changes are announced on a channel of its own: the game's id.

Migrations 0006 and 0016 sent every game's notification on one channel, ``game_events``, so
each worker process's listener was woken by every move of every game, followed or not, and
dropped most of them. Now the listener LISTENs only on the games its process's streams follow
(``games.db.notify.Listener``), and PostgreSQL hands it those games' notifications alone. The
payload is unchanged (``'<game id>:<last seq>[:<status>:<events>]'``, migration 0016).
Reversible: going back sends on ``game_events`` again.
"""

from django.db import migrations

from games.db.schema_sql import on_postgresql

TEMPLATE = """
CREATE OR REPLACE FUNCTION games_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    found record;
    news text;
BEGIN
    FOR found IN
        SELECT game_id, max(seq) AS last_seq, json_agg(json_build_object(
            'seq', seq, 'type', type, 'seat', seat, 'data', data, 'created_at', created_at
        ) ORDER BY seq)::text AS events
        FROM inserted_events GROUP BY game_id
    LOOP
        news := found.game_id::text || ':' || found.last_seq;
        IF octet_length(found.events) <= 7800 THEN
            news := news || ':'
                || coalesce((SELECT status FROM games_game WHERE id = found.game_id), '')
                || ':' || found.events;
        END IF;
        PERFORM pg_notify(%(channel)s, news);
    END LOOP;
    RETURN NULL;
END
$$;
"""

PER_GAME = TEMPLATE % {"channel": "found.game_id::text"}
ONE_CHANNEL = TEMPLATE % {"channel": "'game_events'"}


class Migration(migrations.Migration):
    dependencies = [("games", "0022_lti_grades")]

    operations = [
        migrations.RunPython(on_postgresql(PER_GAME), on_postgresql(ONE_CHANNEL), elidable=False)
    ]
