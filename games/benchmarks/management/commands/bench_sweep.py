"""The deadline sweep (expiry and reminders) and the due-work sweep over many matches: how long a
sweep takes when nothing is due, and the plans PostgreSQL uses for their queries. Creates the
matches once (in batches) and reuses them: two-seat matches of two people with clocks of both
kinds (per move, a bank, a bank pausing on weekends), each deadline the soonest of its clocks'
and each next reminder (the default offsets, 24 h, 4 h and 1 h) counted as the recording path
counts it."""

import time
from datetime import datetime, timedelta

from django.core.management.base import BaseCommand
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.clocks import clock, control
from games.management.progress import ProgressBar
from games.models import Match, Seat
from games.services.deadlines import deadlines_sweep
from games.services.due import due_work_sweep, overdue
from games.services.reminder_offsets import DEFAULT_OFFSETS

BATCH = 5000


# The clocks the matches run, in turn: a day per move, a bank of three days and a day a move up
# to a week, and the same bank pausing on weekends.
CONTROLS = [
    control.per_move(86400),
    control.parse({"kind": "bank", "initial_seconds": 3 * 86400, "increment_seconds": 86400,
                   "maximum_seconds": 7 * 86400}),
    control.parse({"kind": "bank", "initial_seconds": 3 * 86400, "increment_seconds": 86400,
                   "maximum_seconds": 7 * 86400, "weekend_pause": True}),
]


def _match(owner: User, number: int, now: datetime) -> Match:
    """An active two-seat match whose seat 0 is on turn, its deadline (the soonest of its
    clocks') spread over the next two weeks and its next reminder with it, all a second or more
    beyond the reminders' window: nothing is due."""
    timing = CONTROLS[number % len(CONTROLS)]
    started = now + timedelta(days=1, seconds=1 + number % 1_000_000) - timedelta(
        seconds=timing.fresh)
    clocks = clock.start_turns(timing, clock.new_clocks(timing, 2), [0], started)
    calendars = [clock.seat_calendar(timing, "UTC")] * 2
    return Match(game="nibble", num_players=2, status=Match.Status.ACTIVE, created_by=owner,
                 seed="bench", state={}, actors=[0], time_control=control.dump(timing),
                 clocks=clock.dump_clocks(clocks),
                 deadline=clock.soonest_deadline(clocks, calendars), reminders_sent=[[], []],
                 next_reminder_at=clock.next_reminder(clocks, 0, calendars[0], DEFAULT_OFFSETS))


class Command(BaseCommand):
    help = ("Time the deadline sweep (expiry and reminders) over N matches with deadlines and "
            "reminders, and the due-work sweep over N matches waiting on due work, none of "
            "them due yet.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--matches", type=int, default=100_000)
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args, **options) -> None:
        wanted = options["matches"]
        owner, _ = User.objects.get_or_create(username="bench-sweep")
        other, _ = User.objects.get_or_create(username="bench-sweep-2")
        existing = Match.objects.filter(created_by=owner).count()
        now = timezone.now()
        with ProgressBar(max(wanted - existing, 0), "creating matches",
                         stream=self.stderr) as bar:
            while existing < wanted:
                size = min(BATCH, wanted - existing)
                matches = Match.objects.bulk_create([_match(owner, existing + i, now)
                                                     for i in range(size)])
                Seat.objects.bulk_create([Seat(match=match, index=index, user=user,
                                               joined_at=now)
                                          for match in matches
                                          for index, user in enumerate((owner, other))])
                existing += size
                bar.advance(size)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match")
            cursor.execute("ANALYZE games_seat")
        total = Match.objects.filter(status=Match.Status.ACTIVE,
                                     deadline__isnull=False).count()
        timings = []
        for _ in range(options["runs"]):
            started = time.perf_counter()
            result = deadlines_sweep(now=now)
            timings.append(time.perf_counter() - started)
        self.stdout.write(f"active matches with deadlines: {total}\n"
                          f"sweep result: {result}\n"
                          f"sweep time: best {1000 * min(timings):.1f} ms, "
                          f"worst {1000 * max(timings):.1f} ms over {len(timings)} runs")
        active = Match.objects.filter(status=Match.Status.ACTIVE, deadline__isnull=False)
        due = active.filter(deadline__lte=now).order_by("deadline").values_list("id", flat=True)
        self.stdout.write("\nplan of the expiry query:\n" + due[:500].explain(analyze=True))
        reminders = Match.objects.filter(next_reminder_at__lte=now).order_by(
            "next_reminder_at", "id").values_list("next_reminder_at", "id")
        self.stdout.write("\nplan of the reminder query:\n"
                          + reminders[:500].explain(analyze=True))

        # Due work: every match marked as waiting (a bot's turn, say), all within the grace
        # period, so the sweep has nothing to queue again.
        Match.objects.filter(created_by=owner).update(work_due_at=now)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match")
        marked = Match.objects.filter(work_due_at__isnull=False).count()
        timings = []
        for _ in range(options["runs"]):
            started = time.perf_counter()
            result = due_work_sweep(now=now)
            timings.append(time.perf_counter() - started)
        self.stdout.write(f"\nmatches waiting on due work: {marked}\n"
                          f"due-work sweep result: {result}\n"
                          f"due-work sweep time: best {1000 * min(timings):.1f} ms, "
                          f"worst {1000 * max(timings):.1f} ms over {len(timings)} runs")
        waited = overdue(now).values_list("id", flat=True)[:1000]
        self.stdout.write("\nplan of the due-work query:\n" + waited.explain(analyze=True))
