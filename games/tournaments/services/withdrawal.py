"""Taking a player out of a running tournament, and closing the ladder's gap they leave."""

from __future__ import annotations

from django.utils import timezone

from games.tournaments.models import Entry, Tournament
from games.tournaments.services.telling import tell_withdrawn


def entry_withdraw(tournament: Tournament, entry: Entry, why: str) -> None:
    """Withdraw ``entry`` of the locked ``tournament`` for reason ``why`` and tell them."""
    entry.withdrawn_at = timezone.now()
    entry.withdrawal = why
    entry.position = None
    entry.save(update_fields=["withdrawn_at", "withdrawal", "position"])
    if tournament.format == Tournament.Format.LADDER:
        ladder_compact(tournament)
    tell_withdrawn(tournament, entry)


def ladder_compact(tournament: Tournament) -> None:
    """Number the ladder's places 1, 2, 3... again, in their order, after someone left."""
    entries = list(Entry.objects.filter(tournament=tournament, position__isnull=False)
                   .order_by("position", "id"))
    changed = []
    for place, entry in enumerate(entries, start=1):
        if entry.position != place:
            entry.position = place
            changed.append(entry)
    Entry.objects.bulk_update(changed, ["position"])
