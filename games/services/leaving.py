"""Leaving a match: resigning, calling it off before anyone moved, forfeiting a seat, and a
player leaving every running match at once (banned, or closing their account)."""

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
from games.services.notifications import match_changed


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


def matches_leave(*, user: User, reason: str) -> dict[str, str]:
    """Leave each of ``user``'s running matches as the rules allow a player to leave it
    (``player_leave``), in match id order (every writer locks one match, or several in this
    order, so none waits on another in a circle); call it inside the transaction that holds the
    account's row. Returns what happened, by match id."""
    running = (Match.objects.filter(seats__user=user, status__in=[Match.Status.OPEN,
                                                                  Match.Status.ACTIVE])
               .order_by("id").values_list("id", flat=True).distinct())
    left = {}
    for match_id in list(running):
        done = player_leave(user=user, match_id=match_id, reason=reason)
        if done:
            left[str(match_id)] = done
    return left


def player_leave(*, user: User, match_id: UUID | str, reason: str) -> str | None:
    """``user`` leaves a running match: an invitation they had not accepted is withdrawn (the
    seat opens again: "seat_reopened"); an open match they joined, or an active one nobody has
    moved in yet, is called off ("aborted"); in any other their seat forfeits for ``reason``
    ("forfeited"), which ranks it last, and the game decides whether play goes on. None when
    there was nothing to leave."""
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None or not locked.match.is_running:
        return None
    match = locked.match
    seat = next((s for s in locked.seats if s.user_id == user.pk), None)
    if seat is None or seat.forfeited_at is not None:
        return None
    if match.status == Match.Status.OPEN:
        if seat.joined_at is None:
            seat.user = None
            seat.save(update_fields=["user"])
            match.save(update_fields=["updated_at"])
            match_changed(match)
            return "seat_reopened"
        _recording.abort(locked=locked, reason=movelog.ABORTED)
        return "aborted"
    if not match.moves.filter(kind=Move.Kind.MOVE).exists():
        _recording.abort(locked=locked, reason=movelog.ABORTED)
        return "aborted"
    seat_forfeit(locked=locked, seat=seat, reason=reason)
    return "forfeited"
