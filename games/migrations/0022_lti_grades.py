"""The scores sent to learning platforms: one per learner of a course for each resource link
to an assignment, kept until the platform took it. Reversible: going back drops the table."""

import django.db.models.deletion
import uuid
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_lti'),
    ]

    operations = [
        migrations.CreateModel(
            name='LtiScore',
            fields=[
                ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                ('status', models.CharField(choices=[('waiting', 'Waiting'), ('sent', 'Sent')], default='waiting', max_length=8)),
                ('attempts', models.PositiveIntegerField(default=0)),
                ('next_attempt_at', models.DateTimeField(blank=True, null=True)),
                ('lease', models.UUIDField(blank=True, editable=False, null=True)),
                ('last_error', models.CharField(blank=True, max_length=300)),
                ('sent', models.JSONField(blank=True, null=True)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('learner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='games.ltilearner')),
                ('link', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='games.ltilink')),
            ],
            options={
                'verbose_name': 'LTI score',
                'ordering': ['-created_at'],
                'indexes': [models.Index(condition=models.Q(('status', 'waiting')), fields=['next_attempt_at'], name='lti_score_due')],
                'constraints': [models.UniqueConstraint(fields=('link', 'learner'), name='one_score_per_learner')],
            },
        ),
    ]
