"""The seats' reminders before a deadline, kept on the match row: for each seat the offsets
already reminded for its clock's current stretch (``reminders_sent``) and the soonest instant a
reminder is due (``next_reminder_at``, behind a partial index the reminder sweep reads). The one
reminder per match deadline (``reminded_deadline``) goes.

Every active match with clocks gets its reminders counted now, with each player's offsets as
their notification settings hold them (24 h, 4 h and 1 h for one who never chose): an offset
whose moment has already passed counts as reminded, so nobody gets a burst of reminders when
this runs; the next one goes out as usual. A seat whose clock does not run (not its turn, on
vacation), a bot's, an open seat or one that left gets none. A row this cannot read (clocks
of an unknown form) is left with none rather than failing the migration.
"""

from django.db import migrations, models
from django.db.models import Q
from django.utils import timezone

from games.clocks import clock, control
from games.clocks.errors import ClockError

BATCH = 500
# The notification settings' default offsets when this migration was written.
DEFAULT_OFFSETS = (24 * 3600, 4 * 3600, 3600)


def _offsets(chosen) -> tuple[int, ...]:
    if not isinstance(chosen, list):
        return DEFAULT_OFFSETS
    return tuple(value for value in chosen
                 if isinstance(value, int) and not isinstance(value, bool) and value > 0)


def _counted(match, seats, settings, now):
    """The match's ``reminders_sent`` and ``next_reminder_at``."""
    timing = control.parse(match.time_control)
    clocks = clock.load_clocks(match.clocks)
    now = max([now, *(moment for seat in clocks for moment in (seat.turn_started, seat.since)
                      if moment is not None)])
    sent = [[] for _ in clocks]
    due = []
    for seat in seats:
        if seat.index >= len(clocks) or seat.user_id is None or seat.is_bot \
                or seat.user.is_bot or seat.forfeited_at is not None:
            continue
        prefs = settings.get(seat.user_id)
        offsets = _offsets(prefs[1] if prefs else None)
        zone = prefs[0] if prefs else None
        try:
            cal = clock.seat_calendar(timing, zone or "UTC")
        except ClockError:
            cal = clock.seat_calendar(timing, "UTC")
        if clocks[seat.index].since is None:
            continue
        left = clock.time_left(clocks, seat.index, now, cal)
        sent[seat.index] = sorted((offset for offset in offsets
                                   if left <= offset < clocks[seat.index].left), reverse=True)
        due.append(clock.next_reminder(clocks, seat.index, cal, offsets, sent[seat.index]))
    return sent, min((moment for moment in due if moment is not None), default=None)


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    NotificationSettings = apps.get_model("notify", "NotificationSettings")
    now = timezone.now()
    running = Match.objects.filter(status="active", time_control__isnull=False,
                                   clocks__isnull=False).order_by("id")
    last = None
    while True:
        page = running if last is None else running.filter(id__gt=last)
        batch = list(page[:BATCH])
        if not batch:
            return
        seats: dict = {}
        for seat in Seat.objects.filter(match_id__in=[m.id for m in batch]).select_related(
                "user").order_by("index"):
            seats.setdefault(seat.match_id, []).append(seat)
        users = {seat.user_id for rows in seats.values() for seat in rows if seat.user_id}
        settings = {row[0]: row[1:] for row in NotificationSettings.objects.filter(
            user_id__in=users).values_list("user_id", "time_zone", "reminder_offsets")}
        for match in batch:
            try:
                match.reminders_sent, match.next_reminder_at = _counted(
                    match, seats.get(match.id, []), settings, now)
            except ClockError:
                match.reminders_sent, match.next_reminder_at = None, None
        Match.objects.bulk_update(batch, ["reminders_sent", "next_reminder_at"])
        last = batch[-1].id


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_match_clocks'),
        ('notify', '0003_reminder_offsets_vacation_kinds'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='match',
            name='reminded_deadline',
        ),
        migrations.AddField(
            model_name='match',
            name='reminders_sent',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='next_reminder_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name='match',
            index=models.Index(condition=Q(next_reminder_at__isnull=False),
                               fields=['next_reminder_at'], name='match_reminder_due'),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
