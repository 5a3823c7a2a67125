"""Timeouts in a row: a player who left costs their rating once, not once per match.

A person who times out of a match while already in a run of timeouts leaves that match
unrated: only the first timeout of a run is rated. The run is every timeout since the player's
last move in any match: a timeout is in a run when the player timed out of some match before
and has made no move anywhere since that timeout. Any move of theirs ends the run (a move a bot
made for a seat they had left does not count: it is not theirs), and their next timeout starts
a new one. Every timeout counts towards a run, whether its match was rated or not.

The match made unrated says so (``Match.unrated_reason``, ``movelog.TIMEOUT_RUN``) and so does
its log: the forfeit's payload carries ``"unrated": true`` (``movelog.forfeit_payload``).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Exists, OuterRef, Q

from accounts.models import User
from games import movelog
from games.models import Move, Seat
from games.services.locking import LockedMatch


def _last_timeout(user: User) -> datetime | None:
    return (Move.objects.filter(user=user, kind=Move.Kind.FORFEIT,
                                payload__reason=movelog.TIMEOUT)
            .order_by("-created_at").values_list("created_at", flat=True).first())


def _moved_since(user: User, since: datetime) -> bool:
    """Whether the player made a move of their own (not one a bot made for a seat they had
    left) after ``since``."""
    still_seated = Seat.objects.filter(match_id=OuterRef("match_id"), index=OuterRef("seat"),
                                       user=user).filter(
        Q(forfeited_at__isnull=True) | Q(forfeited_at__gt=OuterRef("created_at")))
    return Move.objects.filter(user=user, kind=Move.Kind.MOVE, created_at__gt=since).filter(
        Exists(still_seated)).exists()


def in_timeout_run(user: User) -> bool:
    """Whether a timeout of the player's now would be in a run: they timed out before and have
    not moved anywhere since."""
    previous = _last_timeout(user)
    return previous is not None and not _moved_since(user, previous)


def timeout_unrates(*, locked: LockedMatch, seat: Seat) -> bool:
    """Whether the seat's timeout, about to be recorded, leaves the locked match unrated; if so
    the match is marked unrated now (before the forfeit, so a match it ends is not rated)."""
    match = locked.match
    player = seat.user
    if not match.rated or player is None or player.is_bot or not in_timeout_run(player):
        return False
    match.rated = False
    match.unrated_reason = movelog.TIMEOUT_RUN
    match.save(update_fields=["rated", "unrated_reason", "updated_at"])
    return True
