"""The seats' feed entry for chat: someone wrote in the players' room of a match they sit in.

At most one entry per player and match per quiet period (CHAT_NOTICE_QUIET_SECONDS): a lively
chat tells a player once, not once a line. Nobody is told of a spectators' line (the seats do
not see those during the match), of a shadow-banned player's line, in a chat they muted, or of
a line by someone they blocked in chat."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from accounts.blocks import chat_hidden_by
from games.models import Match, Seat, UserEvent
from games.people import rules
from games.people.models import ChatLine, ChatMute
from games.services.notifications import notify


def chat_notify(*, line: ChatLine, match: Match) -> None:
    if line.room != rules.PLAYERS or line.shadowed:
        return
    seated = set(Seat.objects.filter(match=match, user__isnull=False, user__is_bot=False)
                 .exclude(user_id=line.author_id).values_list("user_id", flat=True))
    seated -= set(ChatMute.objects.filter(match=match, user_id__in=seated)
                  .values_list("user_id", flat=True))
    seated -= chat_hidden_by(line.author_id, seated)
    since = timezone.now() - timedelta(seconds=settings.CHAT_NOTICE_QUIET_SECONDS)
    seated -= set(UserEvent.objects.filter(user_id__in=seated, match=match,
                                           type=UserEvent.Type.CHAT, created_at__gt=since)
                  .values_list("user_id", flat=True))
    notify(user_ids=seated, type=UserEvent.Type.CHAT, match=match, game=match.game,
           by=line.author.username)
