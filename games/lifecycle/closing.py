"""Closing one's account from the games' side: the account closes (``accounts.closing``) and, in
the same transaction, leaves every tournament not over and every running match as a
resignation (through the one write path), so nobody waits on a player who has gone. Off the
leaderboards at once: they list active accounts only."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.http import HttpRequest

from accounts import closing
from accounts.models import User
from games import movelog
from games.lifecycle.steps import tournaments_left
from games.services.leaving import matches_leave

# What a player asks for, and the closure it gives.
KINDS = {"disable": closing.DISABLED, "delete": closing.DELETING}


@dataclass
class Closed:
    user: User
    # Match id -> what happened there: "forfeited", "aborted" or "seat_reopened".
    matches: dict[str, str] = field(default_factory=dict)


def account_close(*, request: HttpRequest, user: User, kind: str, password: str) -> Closed:
    """Close the caller's account (``kind``: "disable" or "delete"), their password confirming
    it. The password check comes first and outside the transaction: a wrong one is counted."""
    closing.password_confirm(request=request, user=user, password=password)
    with transaction.atomic():
        account = closing.account_close(user=user, closure=KINDS[kind])
        tournaments_left(account)
        return Closed(user=account, matches=matches_leave(user=account,
                                                          reason=movelog.RESIGNED))
