"""On PostgreSQL the event log's notification carries the new events themselves.

Migration 0006's trigger sent ``'<game id>:<last seq>'``, and every process with a stream of
that game then read the log to find what was new: a read per move and process. Now the
payload is ``'<game id>:<last seq>:<the game's status>:<the events as JSON>'``, so that the
streams of a process are given the move's events with no read
(``games.api.games.stream``). The game's row is written before its events in every change
(``games.db.gamestore``), so the status read here is the change's own. A notification's
payload must stay under 8000 bytes: events too long for it (a whole game of computer
turns, say) are announced the old way, and read.
"""

from django.db import migrations

from games.db.schema_sql import on_postgresql

NEWS = """
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
        PERFORM pg_notify('game_events', news);
    END LOOP;
    RETURN NULL;
END
$$;
"""

SEQ_ONLY = """
CREATE OR REPLACE FUNCTION games_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('game_events', game_id::text || ':' || max(seq))
    FROM inserted_events GROUP BY game_id;
    RETURN NULL;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0015_games_stale")]

    operations = [migrations.RunPython(on_postgresql(NEWS), on_postgresql(SEQ_ONLY), elidable=False)]
