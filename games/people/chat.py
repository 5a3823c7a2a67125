"""Saying a line in a match's chat.

The seats talk in the players' room, everyone else who may see the match in the spectators'
room (``rules.room_of``). A line is refused when the account may not chat (a bot, a muted
player), when it holds a link and the account is younger than CHAT_LINK_MIN_ACCOUNT_DAYS, and
the API's throttle (scope ``chat``) limits how fast anyone writes. A line the same as the
author's previous one in the match, said within CHAT_DUPLICATE_SECONDS, is dropped: the
earlier line is answered instead. A shadow-banned player's line is kept as ``shadowed``: it is
shown to its author alone (``rules.shown``), and nobody is told of it.

Chat is not match state: it does not go through the recording path, and no line changes a
match. Readers waiting on the chat are woken after commit (``live.chat_channel``); seats are
told in their feed (``notices``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.people import rules
from games.people.exceptions import ChatLinksNotAllowed, ChatMuted, ChatNotAllowed
from games.people.live import chat_channel
from games.people.models import ChatLine, Standing
from games.people.notices import chat_notify
from games.selectors import match_access, seat_of
from games.services.notifications import wake_after_commit


def _check_author(user: User, body: str, now: Any) -> Standing | None:
    if user.is_bot:
        raise ChatNotAllowed()
    standing = Standing.objects.filter(user=user).first()
    if standing is not None and standing.chat_muted_until and standing.chat_muted_until > now:
        raise ChatMuted(until=standing.chat_muted_until.isoformat())
    days = settings.CHAT_LINK_MIN_ACCOUNT_DAYS
    if rules.has_link(body) and user.date_joined > now - timedelta(days=days):
        raise ChatLinksNotAllowed(days=days)
    return standing


def _duplicate(user: User, match_id: Any, body: str, now: Any) -> ChatLine | None:
    """The author's previous line in the match when it says the same, recently enough."""
    previous = (ChatLine.objects.filter(match_id=match_id, author=user)
                .order_by("-id").select_related("author").first())
    if previous is None or previous.created_at < now - timedelta(
            seconds=settings.CHAT_DUPLICATE_SECONDS):
        return None
    return previous if rules.same_line(previous.body, body) else None


@transaction.atomic
def chat_say(*, user: User, match_id: Any, body: str) -> tuple[ChatLine, bool]:
    """Say ``body`` in the match's chat; returns the line and whether it is new (False: a
    duplicate, dropped, and the earlier line). ``body`` comes checked for length by the API;
    it is kept cleaned (``rules.cleaned``)."""
    now = timezone.now()
    match = match_access(user=user, match_id=match_id)
    text = rules.cleaned(body)
    standing = _check_author(user, text, now)
    earlier = _duplicate(user, match.id, text, now)
    if earlier is not None:
        return earlier, False
    line = ChatLine.objects.create(
        match=match, author=user, room=rules.room_of(seat_of(match, user) is not None),
        body=text, shadowed=bool(standing and standing.shadow_banned))
    wake_after_commit({chat_channel(match.id)})
    chat_notify(line=line, match=match)
    return line, True
