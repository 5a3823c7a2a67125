"""When a tournament takes entries: read by the services (to refuse) and the selectors (to
offer)."""

from __future__ import annotations

from games.tournaments.models import Tournament


def late_join_open(tournament: Tournament) -> bool:
    """A running Swiss takes late entries until half its rounds have started."""
    return (tournament.status == Tournament.Status.RUNNING
            and tournament.format == Tournament.Format.SWISS
            and 2 * tournament.current_round < (tournament.rounds or 0))


def entries_open(tournament: Tournament) -> bool:
    """Whether the tournament takes entries now: before its start, a ladder while it runs, a
    Swiss while late entries are open."""
    if tournament.status == Tournament.Status.ENTRY:
        return True
    if tournament.format == Tournament.Format.LADDER:
        return tournament.status == Tournament.Status.RUNNING
    return late_join_open(tournament)
