"""Staff moderation: abort or adjudicate a stuck match, ban or unban a user.

Each action goes through the same write path as play: the match is changed under
``match_lock`` through the recording path (``_recording.abort``, ``_recording.decide``,
``leaving.seat_forfeit``), and every action leaves an ``AuditEntry`` naming who did what, to
what, and why. The admin (games.admin) is the only caller; its forms check the input first,
and these functions check it again (``ValueError`` for input no form would send, the coded
match errors for a match that is not in a state the action allows).

An adjudicated result is rated like any finished match when the match is rated (the rating
service ranks the seats as declared, those who left below the rest); staff who judge that a
result should not count turn the match unrated with it (``rated=False``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from django.db import transaction

from accounts.models import User
from accounts.services import token_revoke_all, user_sessions_end
from games import movelog
from games.exceptions import MatchNotRunning, MatchNotStarted
from games.kit.protocol import Outcome, forfeit_ranks
from games.models import AuditEntry, Match, Seat
from games.services import _recording
from games.services.leaving import matches_leave
from games.services.locking import match_lock, version_check

logger = logging.getLogger(__name__)


def reason_checked(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("A moderation action needs a reason.")
    return reason


def audit_record(*, actor: User, action: str, reason: str, match: Match | None = None,
                 user: User | None = None, target: str | None = None,
                 **data: Any) -> AuditEntry:
    """Append an audit entry of ``action`` (``target``: what it was about, as shown in lists;
    by default the match, else the user)."""
    reason = reason_checked(reason)
    if target is None:
        target = f"{match.game} match {match.id}" if match is not None else (
            user.username if user is not None else "")
    entry = AuditEntry.objects.create(actor=actor, action=action, match=match, target_user=user,
                                      target=target[:200], reason=reason, data=data)
    # Ids only: never the reason (staff may quote a player) nor anything of the game state.
    logger.info("moderation %s by user %s on %s", action, actor.pk,
                match.id if match is not None else f"user {user.pk if user else None}")
    return entry


@transaction.atomic
def match_abort_by_staff(*, actor: User, match_id: UUID | str, reason: str,
                         expected_version: int | None = None) -> AuditEntry:
    """Call off a running (open or active) match, whatever has been played: it ends as
    aborted, is never rated, and its players are told as for any abort."""
    reason = reason_checked(reason)
    locked = match_lock(match_id=match_id)
    match = locked.match
    if not match.is_running:
        raise MatchNotRunning()
    version_check(match, expected_version)
    status_before = match.status
    _recording.abort(locked=locked, reason=movelog.ABORTED)
    return audit_record(actor=actor, action=AuditEntry.Action.ABORT, reason=reason,
                        match=match, version=match.version, status_before=status_before)


@dataclass(frozen=True)
class Decision:
    """A declared result: the winning seats, or a draw between every seat still in play."""

    winners: frozenset[int] = field(default_factory=frozenset)
    draw: bool = False


def declared_outcome(match: Match, seats: Sequence[Seat], decision: Decision,
                     reason: str = movelog.ADJUDICATED) -> Outcome:
    """The outcome ``decision`` gives ``match`` (``seats``: its seats): winners share first
    place, the other seats in play the next one, and seats that already left rank below them
    all, the first to leave last (as the games rank forfeits). No game scores are invented:
    every score is 0. ``reason``: who declares it (staff; a tournament, ``SETTLED``)."""
    left = sorted((seat for seat in seats if seat.forfeited_at is not None),
                  key=lambda seat: (seat.forfeited_at, seat.index))
    in_play = [seat.index for seat in seats if seat.forfeited_at is None]
    if decision.draw == bool(decision.winners):
        raise ValueError("Declare either winners or a draw.")
    unknown = decision.winners - set(in_play)
    if unknown:
        raise ValueError(f"Seats {sorted(unknown)} are not in play and cannot win.")
    if not in_play:
        raise ValueError("No seat is in play.")
    keys = {index: 0 if decision.draw or index in decision.winners else 1 for index in in_play}
    ranks = forfeit_ranks(match.num_players, keys, [seat.index for seat in left])
    return Outcome(ranks=ranks, scores=tuple(0.0 for _ in ranks), reason=reason)


def match_settle(*, match_id: UUID | str, decision: Decision) -> bool:
    """Decide a running match for an event it belongs to (a tournament whose players all
    withdrew from it, an unanswered ladder challenge): the result ``decision`` declares, with
    the reason ``movelog.SETTLED``, recorded like an adjudication and never rated. Returns
    False when the match was not running (nothing is written). The caller holds the
    transaction."""
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None or locked.match.status != Match.Status.ACTIVE:
        return False
    match = locked.match
    if match.rated:
        match.rated = False
        match.save(update_fields=["rated"])
    _recording.decide(locked=locked, outcome=declared_outcome(match, locked.seats, decision,
                                                              reason=movelog.SETTLED))
    return True


@transaction.atomic
def match_adjudicate(*, actor: User, match_id: UUID | str, decision: Decision, reason: str,
                     rated: bool = True, expected_version: int | None = None) -> AuditEntry:
    """End an active match with a declared result, recorded in its log as a system entry
    (``_recording.decide``). ``rated=False`` makes a rated match unrated first, so the result
    does not count towards ratings; a match that was never rated stays so."""
    reason = reason_checked(reason)
    locked = match_lock(match_id=match_id)
    match = locked.match
    if match.status == Match.Status.OPEN:
        raise MatchNotStarted("The match has not started: abort it instead.")
    if match.status != Match.Status.ACTIVE:
        raise MatchNotRunning()
    version_check(match, expected_version)
    outcome = declared_outcome(match, locked.seats, decision)
    was_rated = match.rated
    if match.rated and not rated:
        match.rated = False
        match.save(update_fields=["rated"])
    move = _recording.decide(locked=locked, outcome=outcome)
    return audit_record(actor=actor, action=AuditEntry.Action.ADJUDICATE, reason=reason,
                        match=match, seq=move.seq, ranks=list(outcome.ranks),
                        winners=sorted(outcome.winners), draw=decision.draw, rated=match.rated,
                        was_rated=was_rated)


@dataclass
class BanResult:
    entry: AuditEntry | None
    tokens_revoked: int = 0
    sessions_ended: int = 0
    # Match id -> what happened there: "forfeited", "aborted" or "seat_reopened".
    matches: dict[str, str] = field(default_factory=dict)


@transaction.atomic
def user_ban(*, actor: User, user_id: int, reason: str) -> BanResult:
    """Ban a player: the account is deactivated, every API token and session ends, and each
    of their running matches is left as the rules allow a player to leave it: an open match
    they joined is aborted and an invitation they had not accepted is withdrawn (the seat
    opens again); an active match nobody has moved in yet is aborted, and in any other their
    seat forfeits (reason ``movelog.BANNED``), which ranks it last; the game decides whether
    play goes on.

    One transaction: the account row first, then each match under ``match_lock`` in id order
    (every writer locks one match, or several in this order, so none waits on another in a
    circle). Idempotent: banning a banned player records nothing new but still leaves any
    match left running."""
    reason = reason_checked(reason)
    user = User.objects.select_for_update().get(pk=user_id)
    if user.is_bot:
        raise ValueError("Bot accounts are not banned; they have no tokens or sessions.")
    if user.pk == actor.pk:
        raise ValueError("Staff cannot ban themselves.")
    newly = user.is_active
    if newly:
        user.is_active = False
        user.save(update_fields=["is_active"])
    tokens = user.api_tokens.count()
    token_revoke_all(user=user)
    result = BanResult(entry=None, tokens_revoked=tokens, sessions_ended=user_sessions_end(user))
    result.matches = matches_leave(user=user, reason=movelog.BANNED)
    if newly:
        result.entry = audit_record(actor=actor, action=AuditEntry.Action.BAN, reason=reason,
                                    user=user, tokens_revoked=result.tokens_revoked,
                                    sessions_ended=result.sessions_ended,
                                    matches=result.matches)
    return result


@transaction.atomic
def user_unban(*, actor: User, user_id: int, reason: str) -> AuditEntry | None:
    """Let a banned player back in: the account is active again (they sign in with their
    password for a new token). Matches a ban left stay as they ended. Returns the audit entry,
    or None when the account was active already."""
    reason = reason_checked(reason)
    user = User.objects.select_for_update().get(pk=user_id)
    if user.is_active:
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return audit_record(actor=actor, action=AuditEntry.Action.UNBAN, reason=reason, user=user)
