"""Bots: computer players that a classroom's students or teacher register and that take
seats over the API; a seat names the bot that holds it (null for a person or a computer), a bot holding at
most one seat of a game.
Also the notices a key's stream is sent that no game holds (a tournament's new status).
Reversible: going back drops the bots, the notices and the seats' links to the bots."""

import django.db.models.deletion
import uuid
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_name_keys'),
    ]

    operations = [
        migrations.CreateModel(
            name='KeyNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('event', models.CharField(max_length=16)),
                ('data', models.JSONField(default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
            ],
            options={
                'ordering': ['id'],
            },
        ),
        migrations.CreateModel(
            name='Bot',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('name', models.CharField(max_length=50)),
                ('name_key', models.CharField(editable=False, max_length=200)),
                ('rulesets', models.JSONField(default=list)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('deleted_at', models.DateTimeField(blank=True, null=True)),
                ('classroom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bots', to='games.classroom')),
                ('student', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='bots', to='games.student')),
            ],
            options={
                'ordering': ['classroom_id', 'name_key'],
            },
        ),
        migrations.AddField(
            model_name='player',
            name='bot',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to='games.bot'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('bot__isnull', False)), fields=('game', 'bot'), name='one_seat_per_bot'),
        ),
        migrations.AddField(
            model_name='keynotice',
            name='classroom',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.classroom'),
        ),
        migrations.AddField(
            model_name='keynotice',
            name='student',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.student'),
        ),
        migrations.AddIndex(
            model_name='bot',
            index=models.Index(fields=['classroom', 'student'], name='bot_owner'),
        ),
        migrations.AddConstraint(
            model_name='bot',
            constraint=models.UniqueConstraint(condition=models.Q(('deleted_at__isnull', True)), fields=('classroom', 'name_key'), name='unique_bot_name'),
        ),
        migrations.AddIndex(
            model_name='keynotice',
            index=models.Index(fields=['classroom', 'student', 'id'], name='notice_owner'),
        ),
    ]
