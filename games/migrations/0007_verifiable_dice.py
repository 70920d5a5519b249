"""Games get their dice's algorithm, secret and client seed. The games already stored keep
the dice they were playing with: their algorithm is "legacy" (drawn, not derived)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0006_event_notify_trigger")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="dice_algorithm",
            field=models.CharField(default="legacy", editable=False, max_length=16),
        ),
        migrations.AlterField(
            model_name="game",
            name="dice_algorithm",
            field=models.CharField(default="hmac-sha256-v1", editable=False, max_length=16),
        ),
        migrations.AddField(
            model_name="game",
            name="dice_secret",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="game",
            name="client_seed",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
    ]
