"""Locking a tournament row for writing."""

from __future__ import annotations

from uuid import UUID

from django.core.exceptions import ValidationError

from games.tournaments.exceptions import TournamentNotFound
from games.tournaments.models import Tournament


def tournament_lock(tournament_id: UUID | str) -> Tournament:
    """The tournament, its row locked until the running transaction ends
    (``TournamentNotFound`` when there is none)."""
    try:
        return Tournament.objects.select_for_update(of=("self",)).get(id=tournament_id)
    except (Tournament.DoesNotExist, ValidationError, ValueError):
        raise TournamentNotFound() from None
