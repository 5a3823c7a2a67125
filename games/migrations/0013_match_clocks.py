"""Matches get a time control of a kind and a clock per seat (games.clocks).

Every match with ``turn_seconds`` gets the per-move control of that many seconds; every active
one gets clocks on which each seat that must act (and has not left) began its turn a full turn
before the match's deadline, so the deadline stays what it was (to the second, rounded up: the
clocks count whole seconds). A real-time race keeps its idle deadline and clocks that do not
run. Then ``turn_seconds`` goes: answers derive it from the control.
"""

from django.db import migrations, models

from games.catalog import get_engine
from games.clocks import clock, control

BATCH = 500


def _is_race(match) -> bool:
    """Whether an active match is a real-time race (its deadline is the idle limit)."""
    engine = get_engine(match.game)
    return match.state is not None and engine.is_realtime(engine.load(match.state))


def _convert(match, left: set[int]):
    # Every turn the API ever took is within the bounds; a stray value is brought inside them
    # (the current deadline stays: it is carried over as it is).
    turn = min(max(match.turn_seconds, control.MIN_TURN), control.MAX_TURN)
    timing = control.per_move(turn)
    match.time_control = control.dump(timing)
    actors = [seat for seat in match.actors if seat not in left]
    if match.status != "active" or match.deadline is None or not actors or _is_race(match):
        clocks = clock.new_clocks(timing, match.num_players)
    else:
        clocks = clock.carried_over(timing, match.num_players, actors, match.deadline)
        calendars = [clock.seat_calendar(timing, None)] * match.num_players
        match.deadline = clock.soonest_deadline(clocks, calendars)
    match.clocks = clock.dump_clocks(clocks)


def forwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    timed = Match.objects.filter(turn_seconds__isnull=False).order_by("id")
    last = None
    while True:
        page = timed if last is None else timed.filter(id__gt=last)
        batch = list(page[:BATCH])
        if not batch:
            return
        left: dict = {}
        for match_id, index in Seat.objects.filter(
                match_id__in=[m.id for m in batch], forfeited_at__isnull=False,
        ).values_list("match_id", "index"):
            left.setdefault(match_id, set()).add(index)
        for match in batch:
            _convert(match, left.get(match.id, set()))
        Match.objects.bulk_update(batch, ["time_control", "clocks", "deadline"])
        last = batch[-1].id


def backwards(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    for match in Match.objects.filter(time_control__kind="per_move").iterator():
        match.turn_seconds = match.time_control["turn_seconds"]
        match.save(update_fields=["turn_seconds"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_list_orders'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='time_control',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='clocks',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='unrated_reason',
            field=models.CharField(blank=True, default='', max_length=16),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(
            model_name='match',
            name='turn_seconds',
        ),
    ]
