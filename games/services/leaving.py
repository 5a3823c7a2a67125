"""Leaving a match: resigning, calling it off before anyone moved, and forfeiting a seat."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import movelog
from games.exceptions import AbortNotAllowed, MatchNotRunning, NotSeated
from games.models import Match, Move, Seat
from games.services import _recording
from games.services.locking import LockedMatch, match_lock
from games.services.moves import acting_seat


@transaction.atomic
def match_resign(*, user: User, match_id: UUID | str) -> Match:
    """Give up one's seat: the game ranks it last and decides whether play goes on."""
    locked = match_lock(match_id=match_id, user=user)
    seat = acting_seat(locked.match, locked.seat_of(user))
    if seat.forfeited_at is not None:
        raise MatchNotRunning(_("You have already left this match."))
    seat_forfeit(locked=locked, seat=seat, reason=movelog.RESIGNED)
    return locked.match


def seat_forfeit(*, locked: LockedMatch, seat: Seat, reason: str, unrated: bool = False) -> None:
    """Record that a seat of the locked match left (``reason``: ``movelog.RESIGNED``,
    ``TIMEOUT`` or ``BANNED``; ``unrated``: the forfeit made the match unrated, a timeout in a
    run, see ``games.services.timeouts``)."""
    transition = locked.engine.forfeit(locked.state, seat.index)
    seat.forfeited_at = timezone.now()
    seat.forfeit_reason = reason
    seat.save(update_fields=["forfeited_at", "forfeit_reason"])
    _recording.record(locked=locked, kind=Move.Kind.FORFEIT, seat=seat.index, user=seat.user,
                      payload=movelog.forfeit_payload(reason, unrated=unrated),
                      transition=transition)


@transaction.atomic
def match_abort(*, user: User, match_id: UUID | str) -> Match:
    """Call a match off before anyone has moved; it is never rated."""
    locked = match_lock(match_id=match_id, user=user)
    match = locked.match
    seat = locked.seat_of(user)
    if seat is None or seat.joined_at is None:
        raise NotSeated()
    if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
        raise MatchNotRunning()
    if match.moves.filter(kind=Move.Kind.MOVE).exists():
        raise AbortNotAllowed()
    _recording.abort(locked=locked, reason=movelog.ABORTED)
    return match
