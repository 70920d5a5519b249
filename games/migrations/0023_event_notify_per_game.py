"""On PostgreSQL each game's changes are announced on a channel of its own: the game's id.

Migrations 0006 and 0016 sent every game's notification on one channel, ``game_events``, so
each worker process's listener was woken by every move of every game, followed or not, and
dropped most of them. Now the listener LISTENs only on the games its process's streams follow
(``games.db.notify.Listener``), and PostgreSQL hands it those games' notifications alone. The
trigger's function is migration 0016's with the one change of channel; the payload is the
same (``'<game id>:<last seq>[:<status>:<events>]'``). Reversible: going back restores 0016's.
"""

from importlib import import_module

from django.db import migrations

from games.db.schema_sql import on_postgresql

ONE_CHANNEL = import_module("games.migrations.0016_event_notify_news").NEWS
SENT = "PERFORM pg_notify('game_events', news);"
if SENT not in ONE_CHANNEL:
    raise RuntimeError("migration 0016's trigger no longer sends what this one changes")
PER_GAME = ONE_CHANNEL.replace(SENT, "PERFORM pg_notify(found.game_id::text, news);")


class Migration(migrations.Migration):
    dependencies = [("games", "0022_lti_grades")]

    operations = [
        migrations.RunPython(on_postgresql(PER_GAME), on_postgresql(ONE_CHANNEL), elidable=False)
    ]
