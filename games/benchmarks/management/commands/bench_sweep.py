"""The deadline sweep and the due-work sweep over many matches: how long a sweep takes when
nothing is due, and the plans PostgreSQL uses for their queries. Creates the matches once (in
batches) and reuses them: matches with clocks of both kinds (per move, a bank, a bank pausing on
weekends), each deadline the soonest of its clocks'."""

import time
from datetime import datetime, timedelta

from django.core.management.base import BaseCommand
from django.db import connection
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games.clocks import clock, control
from games.management.progress import ProgressBar
from games.models import Match
from games.services.deadlines import deadlines_sweep
from games.services.due import due_work_sweep, overdue

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
    clocks') spread over the next two weeks, all beyond the reminder window."""
    timing = CONTROLS[number % len(CONTROLS)]
    started = now + timedelta(days=1, seconds=number % 1_000_000) - timedelta(
        seconds=timing.fresh)
    clocks = clock.start_turns(timing, clock.new_clocks(timing, 2), [0], started)
    calendars = [clock.seat_calendar(timing, "UTC")] * 2
    return Match(game="nibble", num_players=2, status=Match.Status.ACTIVE, created_by=owner,
                 seed="bench", state={}, actors=[0], time_control=control.dump(timing),
                 clocks=clock.dump_clocks(clocks),
                 deadline=clock.soonest_deadline(clocks, calendars), reminded_deadline=None)


class Command(BaseCommand):
    help = ("Time the deadline sweep over N matches with deadlines, and the due-work sweep over "
            "N matches waiting on due work, none of either due yet.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--matches", type=int, default=100_000)
        parser.add_argument("--runs", type=int, default=5)

    def handle(self, *args, **options) -> None:
        wanted = options["matches"]
        owner, _ = User.objects.get_or_create(username="bench-sweep")
        existing = Match.objects.filter(created_by=owner).count()
        now = timezone.now()
        with ProgressBar(max(wanted - existing, 0), "creating matches",
                         stream=self.stderr) as bar:
            while existing < wanted:
                size = min(BATCH, wanted - existing)
                Match.objects.bulk_create([_match(owner, existing + i, now)
                                           for i in range(size)])
                existing += size
                bar.advance(size)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_match")
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
        soon = active.filter(deadline__gt=now, deadline__lte=now + timedelta(hours=3)).exclude(
            reminded_deadline=F("deadline")).order_by("deadline").values_list("id", "deadline")
        self.stdout.write("\nplan of the reminder query:\n" + soon[:500].explain(analyze=True))

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
