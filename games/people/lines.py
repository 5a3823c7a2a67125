"""Which chat lines a reader gets (``rules.shown``, as one query), and how a line looks in
an answer."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from accounts.blocks import chat_hidden_authors
from accounts.models import User
from games.models import Match
from games.people import rules
from games.people.models import ChatLine, ChatMute
from games.selectors import match_access, seat_of

RUNNING = (Match.Status.OPEN, Match.Status.ACTIVE)
LIMIT_DEFAULT = 100
LIMIT_MAX = 500


def reader_of(match: Match, user: User | AnonymousUser) -> rules.Reader:
    """``user`` as a reader of ``match``'s chat (a seat is a seat held by the user)."""
    running = match.status in RUNNING
    if not user.is_authenticated:
        return rules.Reader(user=None, seated=False, running=running)
    return rules.Reader(
        user=user.pk, seated=seat_of(match, user) is not None, running=running,
        hidden=frozenset(chat_hidden_authors(user.pk)),
        muted=ChatMute.objects.filter(user_id=user.pk, match=match).exists())


def shown_filter(reader: rules.Reader) -> Q:
    """``rules.shown`` as a query condition on chat lines."""
    own = Q(author_id=reader.user) if reader.user is not None else Q(pk__in=[])
    if reader.muted:
        return own
    rooms = rules.rooms_seen(seated=reader.seated, running=reader.running)
    others = Q(shadowed=False, room__in=sorted(rooms)) & ~Q(author_id__in=sorted(reader.hidden))
    return own | others


def lines_shown(match: Match, reader: rules.Reader, *, after: int = 0,
                limit: int = LIMIT_DEFAULT) -> QuerySet[ChatLine]:
    return (ChatLine.objects.filter(match=match, id__gt=after).filter(shown_filter(reader))
            .select_related("author").order_by("id")[:limit])


def line_entry(line: ChatLine) -> dict[str, Any]:
    return {"id": line.id, "room": line.room, "author": line.author.username,
            "body": line.body, "created_at": line.created_at}


def chat_read(*, user: User | AnonymousUser, match_id: Any, after: int = 0,
              limit: int = LIMIT_DEFAULT) -> dict[str, Any]:
    """The lines of the match's chat after ``after`` that ``user`` gets, oldest first
    (MatchNotFound when the match is not visible to them). ``rooms`` are the rooms the reader
    gets now: when it grows (the match ended), older lines may have become visible, and a
    client reads again from 0."""
    match = match_access(user=user, match_id=match_id)  # type: ignore[arg-type]
    reader = reader_of(match, user)
    entries = [line_entry(line) for line in lines_shown(match, reader, after=after,
                                                         limit=limit)]
    return {
        "lines": entries,
        "next_after": entries[-1]["id"] if entries else after,
        "rooms": sorted(rules.rooms_seen(seated=reader.seated, running=reader.running)),
        "room": rules.room_of(reader.seated) if user.is_authenticated else None,
        "muted": reader.muted,
    }
