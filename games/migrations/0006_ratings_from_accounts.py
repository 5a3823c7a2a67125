"""Rating and RatingChange move here from the accounts app, rows and all.

The tables already exist (the accounts app created them), so the models enter Django's state
without touching the database, then the tables take the games app's names. Content types
follow, so permissions granted on the models and admin history stay attached to them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ("rating", "ratingchange")


def _relabel_content_types(apps, schema_editor, *, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    content_types = ContentType.objects.using(schema_editor.connection.alias)
    for model in MOVED:
        if not content_types.filter(app_label=target, model=model).exists():
            content_types.filter(app_label=source, model=model).update(app_label=target)


def content_types_to_games(apps, schema_editor):
    _relabel_content_types(apps, schema_editor, source="accounts", target="games")


def content_types_to_accounts(apps, schema_editor):
    _relabel_content_types(apps, schema_editor, source="games", target="accounts")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_ratings_move_to_games'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0005_seat_to_act_derived_from_match'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Rating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=32)),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('display', models.IntegerField()),
                        ('games_played', models.PositiveIntegerField(default=0)),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_rating',
                        'indexes': [models.Index(fields=['game', '-display'], name='rating_game_display')],
                        'constraints': [models.UniqueConstraint(fields=('user', 'game'), name='rating_unique_user_game')],
                    },
                ),
                migrations.CreateModel(
                    name='RatingChange',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=32)),
                        ('rank', models.PositiveSmallIntegerField()),
                        ('mu_before', models.FloatField()),
                        ('sigma_before', models.FloatField()),
                        ('display_before', models.IntegerField()),
                        ('mu_after', models.FloatField()),
                        ('sigma_after', models.FloatField()),
                        ('display_after', models.IntegerField()),
                        ('at', models.DateTimeField()),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='games.match')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'accounts_ratingchange',
                        'indexes': [models.Index(fields=['user', 'game', '-at', '-id'], name='rating_change_hist')],
                        'constraints': [models.UniqueConstraint(fields=('user', 'match'), name='rating_change_unique')],
                    },
                ),
            ],
        ),
        migrations.AlterModelTable(name='rating', table=None),
        migrations.AlterModelTable(name='ratingchange', table=None),
        migrations.RunPython(content_types_to_games, content_types_to_accounts),
    ]
