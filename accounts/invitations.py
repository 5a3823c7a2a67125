"""Who may invite whom: the invited player's setting (everyone, friends, nobody) and their
blocks. A refusal says only that the player is not accepting invitations, whatever the
reason."""

from __future__ import annotations

from typing import Any

from accounts.blocks import blocks_in_games
from accounts.exceptions import NotAcceptingInvitations, PlayerBlocked
from accounts.follows import are_friends
from accounts.models import User

Invitations = User.Invitations


def invitation_accepted(*, inviter: User, invitee: User) -> bool:
    """Whether ``invitee`` takes invitations (and rematch offers) from ``inviter``."""
    if blocks_in_games(invitee.pk, inviter.pk):
        return False
    if invitee.invitations == Invitations.NOBODY:
        return False
    if invitee.invitations == Invitations.FRIENDS:
        return are_friends(inviter.pk, invitee.pk)
    return True


def invitation_check(*, inviter: User, invitee: User, **extra: Any) -> None:
    """Refuse the invitation of ``invitee`` by ``inviter``: ``PlayerBlocked`` when the inviter
    blocked them, ``NotAcceptingInvitations`` when the invitee does not take it (``extra``
    goes into the error's extra)."""
    if blocks_in_games(inviter.pk, invitee.pk):
        raise PlayerBlocked(**extra)
    if not invitation_accepted(inviter=inviter, invitee=invitee):
        raise NotAcceptingInvitations(**extra)
