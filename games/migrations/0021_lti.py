"""The LTI 1.3 tool's tables beside django-lti's own: a course's classroom, a platform user's
student, a resource link's assignment, the nonces and states spent; and an assignment's grade
mode. Reversible: going back drops them."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_tournaments'),
        ('lti_tool', '0008_ltideployment_pns_url_and_more'),
    ]

    operations = [
        migrations.CreateModel(
            name='LtiSpent',
            fields=[
                ('digest', models.CharField(max_length=64, primary_key=True, serialize=False)),
                ('spent_at', models.DateTimeField(db_index=True)),
            ],
            options={
                'verbose_name': 'LTI spent nonce',
            },
        ),
        migrations.AddField(
            model_name='assignment',
            name='grade',
            field=models.CharField(default='accuracy', max_length=12),
        ),
        migrations.CreateModel(
            name='LtiCourse',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('classroom', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='lti_course', to='games.classroom')),
                ('context', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='course', to='lti_tool.lticontext')),
                ('teacher_key', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.apikey')),
            ],
            options={
                'verbose_name': 'LTI course',
            },
        ),
        migrations.CreateModel(
            name='LtiLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('line_item_url', models.URLField(blank=True, max_length=2000)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('assignment', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lti_links', to='games.assignment')),
                ('resource_link', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='assignment_link', to='lti_tool.ltiresourcelink')),
            ],
            options={
                'verbose_name': 'LTI link',
            },
        ),
        migrations.CreateModel(
            name='LtiLearner',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('active', models.BooleanField(default=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('course', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='learners', to='games.lticourse')),
                ('key', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.apikey')),
                ('student', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='lti_learner', to='games.student')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='lti_tool.ltiuser')),
            ],
            options={
                'verbose_name': 'LTI learner',
                'constraints': [models.UniqueConstraint(fields=('course', 'user'), name='unique_learner_per_course')],
            },
        ),
    ]
