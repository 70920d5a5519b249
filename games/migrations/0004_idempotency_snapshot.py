"""Idempotency records keep the game right after the move instead of a rendered body, and
the engine's state holds what decides a game's status (open seats, abandoned)."""

from django.db import migrations, models


def forget_answers(apps, schema_editor):
    # A record of the old kind holds only a rendered body, which cannot be replayed any
    # more (nor can one of the new kind by a release before this one); a retry with its key
    # moves again, as one with a new key would.
    apps.get_model("games", "IdempotencyRecord").objects.all().delete()


def status_into_state(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(status__in=["waiting", "abandoned"]).iterator():
        if game.status == "waiting":
            game.state["open_seats"] = game.open_seats
        else:
            game.state["abandoned"] = True
        game.save(update_fields=["state"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_game_open_seats"),
    ]

    operations = [
        migrations.RunPython(forget_answers, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencyrecord", name="body"),
        migrations.RemoveField(model_name="idempotencyrecord", name="status_code"),
        # Going back, the records of the new kind are forgotten before the old columns come
        # back, which have no default to fill them with.
        migrations.RunPython(migrations.RunPython.noop, forget_answers),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="snapshot",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(status_into_state, migrations.RunPython.noop),
    ]
