"""Moving a tournament on: the work it waits for that nobody does, caught up by a sweep.

A tournament has work due when its "starts soon" notice or its start is due, when a round's
days are up, when a ladder challenge expires (all kept in ``Tournament.due_at``), and when a
match of it has ended and the tournament has not acted on the result yet (the pairing's
``counted``). A match's end asks for ``tournament_advance`` after commit; the tournament
sweep (Celery beat) runs it for every tournament with work due, so a lost message costs a
delay, never a stalled round. ``tournament_advance`` does everything that is due, under the
tournament's lock, and is safe to run any number of times."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.tournaments.models import Entry, Pairing, Round, Tournament
from games.tournaments.services.ladder import challenge_count, challenges_expire
from games.tournaments.services.locking import tournament_lock
from games.tournaments.services.marking import due_mark
from games.tournaments.services.rounds import (
    all_played,
    entries_of,
    round_over,
    round_start,
    tournament_finish,
    tournament_start,
)
from games.tournaments.services.settling import withdrawn_matches_settle
from games.tournaments.services.telling import tell_starts_soon
from games.tournaments.services.withdrawal import entry_withdraw

logger = logging.getLogger(__name__)


@transaction.atomic
def tournament_advance(*, tournament_id: UUID | str, now: datetime | None = None) -> str:
    """Do whatever the tournament has due now; returns its status afterwards."""
    tournament = tournament_lock(tournament_id)
    advance_locked(tournament, now or timezone.now())
    return tournament.status


def advance_locked(tournament: Tournament, now: datetime) -> None:
    """``tournament_advance`` on a tournament already locked in the running transaction."""
    if tournament.status == Tournament.Status.ENTRY:
        _before_start(tournament, now)
    if tournament.status == Tournament.Status.RUNNING:
        ladder = tournament.format == Tournament.Format.LADDER
        if ladder:
            challenges_expire(tournament, now)
        # Settling a match ends it, and counting its result may withdraw a no-show, whose
        # other matches may then settle: go on until nothing changes.
        while withdrawn_matches_settle(tournament) + results_count(tournament):
            pass
        if not ladder:
            _rounds_advance(tournament, now)
    due_mark(tournament)
    tournament.save()


def _before_start(tournament: Tournament, now: datetime) -> None:
    soon = tournament.starts_at - timedelta(seconds=settings.TOURNAMENT_STARTS_SOON_SECONDS)
    if not tournament.starts_soon_sent and soon <= now < tournament.starts_at:
        tell_starts_soon(tournament, entries_of(tournament))
        tournament.starts_soon_sent = True
    if tournament.starts_at <= now:
        tournament_start(tournament, now)


def results_count(tournament: Tournament) -> int:
    """Act on the results of the tournament's ended matches not yet counted: withdraw those
    who timed out without having moved, move the ladder. Returns how many were counted."""
    pending = list(Pairing.objects.filter(tournament=tournament, counted=False,
                                          ended_at__isnull=False).order_by("ended_at", "id"))
    for pairing in pending:
        for entry in Entry.objects.filter(tournament=tournament, user_id__in=pairing.no_shows,
                                          withdrawn_at__isnull=True).select_related("user"):
            entry_withdraw(tournament, entry, Entry.Withdrawal.NO_SHOW)
        if tournament.format == Tournament.Format.LADDER and pairing.round_id is None:
            challenge_count(tournament, pairing)
        pairing.counted = True
        pairing.save(update_fields=["counted"])
    return len(pending)


def _rounds_advance(tournament: Tournament, now: datetime) -> None:
    """Start the next round whenever the current one is over, and finish the tournament
    after its last round once every match is over."""
    for _ in range((tournament.rounds or 0) + 1):
        if not round_over(tournament, now):
            return
        Round.objects.filter(tournament=tournament, number=tournament.current_round,
                             finished_at__isnull=True).update(finished_at=now)
        if tournament.current_round < (tournament.rounds or 0):
            round_start(tournament, entries_of(tournament), now)
            continue
        if all_played(tournament):
            tournament_finish(tournament, now)
        return


def due_tournaments(now: datetime, limit: int) -> list[UUID]:
    """The tournaments with work due at ``now``: by their mark, or by an uncounted result."""
    marked = Tournament.objects.filter(due_at__lte=now).order_by("due_at") \
        .values_list("id", flat=True)[:limit]
    ended = Pairing.objects.filter(counted=False, ended_at__isnull=False) \
        .order_by("ended_at").values_list("tournament_id", flat=True)[:limit]
    return list(dict.fromkeys([*marked, *ended]))


def tournaments_sweep(*, now: datetime | None = None, limit: int = 200) -> dict[str, int]:
    """Run ``tournament_advance`` for up to ``limit`` tournaments with work due (the rest wait
    for the next run). One that fails is logged and left for the next run; the others go on."""
    now = now or timezone.now()
    done = {"advanced": 0, "failed": 0}
    for tournament_id in due_tournaments(now, limit):
        try:
            tournament_advance(tournament_id=tournament_id, now=now)
        except Exception:
            logger.exception("tournament %s could not move on; the next sweep tries again",
                             tournament_id)
            done["failed"] += 1
        else:
            done["advanced"] += 1
    return done
