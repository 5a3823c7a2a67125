"""A player mutes a match's chat for themselves: they get only their own lines of it, and no
chat entries in their feed."""

from __future__ import annotations

from accounts.models import User
from games.models import Match
from games.people.models import ChatMute


def chat_mute(*, user: User, match: Match) -> None:
    ChatMute.objects.get_or_create(user=user, match=match)


def chat_unmute(*, user: User, match: Match) -> None:
    ChatMute.objects.filter(user=user, match=match).delete()
