"""When a tournament next has work due that nobody does: ``Tournament.due_at``."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from games.tournaments.models import Pairing, Round, Tournament


def due_mark(tournament: Tournament) -> None:
    """Set ``tournament.due_at`` (not saved): before the start, the "starts soon" notice and
    the start; while it runs, the current round's end by days and the soonest challenge
    expiry; nothing after the end. A match's end needs no mark: its uncounted pairing is due
    work of its own."""
    due: list[datetime] = []
    if tournament.status == Tournament.Status.ENTRY:
        due.append(tournament.starts_at)
        if not tournament.starts_soon_sent:
            due.append(tournament.starts_at - timedelta(
                seconds=settings.TOURNAMENT_STARTS_SOON_SECONDS))
    elif tournament.status == Tournament.Status.RUNNING:
        ends = Round.objects.filter(tournament=tournament, number=tournament.current_round,
                                    ends_at__isnull=False, finished_at__isnull=True) \
            .values_list("ends_at", flat=True).first()
        if ends is not None:
            due.append(ends)
        expiry = Pairing.objects.filter(tournament=tournament, ended_at__isnull=True,
                                        expires_at__isnull=False) \
            .order_by("expires_at").values_list("expires_at", flat=True).first()
        if expiry is not None:
            due.append(expiry)
    tournament.due_at = min(due) if due else None
