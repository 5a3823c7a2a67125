"""Reads of a player's event feed (invited, match started, your turn, deadline soon, match
finished, rating changed, ...): the entries after a cursor, oldest first.

Entries are written by ``games.services.notifications.notify`` with only what every seat of
the match may know (ids, seats, versions, deadlines, ranks, ratings), so a feed needs no per-viewer
redaction beyond being the caller's own: nobody reads another player's feed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.models import User
from games.models import UserEvent
from games.selectors import shapes

FEED_DEFAULT_LIMIT = 50
FEED_MAX_LIMIT = 100


def user_events_after(*, user: User, after: int = 0,
                      limit: int = FEED_DEFAULT_LIMIT) -> list[shapes.UserEvent]:
    """The caller's entries with ``id > after``, oldest first, at most ``limit``."""
    rows = (UserEvent.objects.filter(user=user, id__gt=after).order_by("id")
            .values("id", "type", "match_id", "match__game", "data", "created_at")[:limit])
    return [feed_entry(row) for row in rows]


def feed_entry(row: Mapping[str, Any]) -> shapes.UserEvent:
    """``{"id", "type", "match", "game", "data", "created_at"}``; the game moves out of the
    stored data to the top level (null for an entry about no match)."""
    data = dict(row["data"]) if isinstance(row["data"], dict) else {}
    game = data.pop("game", None)
    return {
        "id": row["id"],
        "type": row["type"],
        "match": str(row["match_id"]) if row["match_id"] is not None else None,
        "game": row["match__game"] or game,
        "data": data,
        "created_at": row["created_at"],
    }


def feed_next_after(events: list[shapes.UserEvent], after: int) -> int:
    """The cursor for the next request: the last entry's id, or ``after`` again."""
    return events[-1]["id"] if events else after


def user_event_feed(*, user: User, after: int = 0,
                    limit: int = FEED_DEFAULT_LIMIT) -> shapes.UserEventFeed:
    """The long-poll answer about the caller's feed: the entries after ``after`` and the cursor
    for the next request."""
    events = user_events_after(user=user, after=after, limit=limit)
    return {"events": events, "next_after": feed_next_after(events, after)}
