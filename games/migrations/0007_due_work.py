"""What a match waits for is kept on its row: ``Match.work_due_at`` (with a partial index for
the due-work sweep) and, for real-time bots, ``Seat.bot_tick_at``.

Matches that may already be waiting when this runs are marked as due now: every active match,
and every finished rated match not rated yet. The sweep works out what each one waits for,
queues it, and clears the mark of those that wait only for people."""

from django.db import migrations, models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone


def _mark_possibly_waiting(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    RatingChange = apps.get_model("games", "RatingChange")
    matches = Match.objects.using(schema_editor.connection.alias)
    unrated = ~Exists(RatingChange.objects.filter(match=OuterRef("pk")))
    matches.filter(Q(status="active") | Q(status="finished", rated=True) & unrated).update(
        work_due_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0006_ratings_from_accounts"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="work_due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="bot_tick_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(condition=models.Q(("work_due_at__isnull", False)),
                               fields=["work_due_at"], name="match_work_due"),
        ),
        migrations.RunPython(_mark_possibly_waiting, migrations.RunPython.noop),
    ]
