"""Matches a tournament decides itself: those whose players have all withdrawn (so a round
never waits on them), and ladder challenges the challenged player left unanswered.

Each is decided by ``match_settle``, through the recording path under the match's lock, as a
system entry with the reason ``settled``; such a match is never rated."""

from __future__ import annotations

from uuid import UUID

from games.models import Move
from games.services.moderation import Decision, match_settle
from games.tournaments.models import Entry, Pairing, Tournament


def settle(match_id: UUID | None, decision: Decision) -> bool:
    """Decide the running match (unrated) as ``decision`` says; False if it was over (or
    there is none)."""
    return match_id is not None and match_settle(match_id=match_id, decision=decision)


def withdrawn_matches_settle(tournament: Tournament) -> int:
    """Settle as a draw every running match of the locked tournament whose people have all
    withdrawn; returns how many."""
    gone = set(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=False)
               .values_list("user_id", flat=True))
    if not gone:
        return 0
    running = Pairing.objects.filter(tournament=tournament, ended_at__isnull=True,
                                     match__isnull=False).order_by("match_id")
    settled = 0
    for pairing in running:
        if set(pairing.players) <= gone:
            settled += settle(pairing.match_id, Decision(draw=True))
    return settled


def challenge_answered(pairing: Pairing) -> bool:
    """Whether the challenged player (the second seat) has moved in the challenge's match."""
    if pairing.match_id is None:
        return False
    return Move.objects.filter(match_id=pairing.match_id, kind=Move.Kind.MOVE,
                               user_id=pairing.players[1]).exists()
