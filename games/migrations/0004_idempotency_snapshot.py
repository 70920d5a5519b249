"""Idempotency records keep the game right after the move instead of a rendered body, and
the engine's state holds what decides a game's status (open seats, abandoned)."""

from django.db import migrations, models


def forget_rendered_answers(apps, schema_editor):
    # A record of the old kind holds only a rendered body, which cannot be replayed any
    # more; a retry with its key moves again, as one with a new key would.
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
        migrations.RunPython(forget_rendered_answers, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencyrecord", name="body"),
        migrations.RemoveField(model_name="idempotencyrecord", name="status_code"),
        migrations.AddField(
            model_name="idempotencyrecord",
            name="snapshot",
            field=models.JSONField(default=list),
        ),
        migrations.RunPython(status_into_state, migrations.RunPython.noop),
    ]
