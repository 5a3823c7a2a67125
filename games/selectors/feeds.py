"""Reads of a player's event feed (invited, match started, your turn, deadline soon, match
finished, rating changed, ...): the entries after a cursor, oldest first.

Entries are written by ``games.services.notifications.notify`` with only what every seat of
the match may know (ids, seats, versions, deadlines, ranks, ratings), so a feed needs no per-viewer
redaction beyond being the caller's own: nobody reads another player's feed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from django.db import connection

from accounts.models import User
from games.models import Match, UserEvent
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


FeedAsk = tuple[int, int, int]  # a user's id, the cursor, the limit


def user_event_feeds(asked: Sequence[FeedAsk]) -> list[shapes.UserEventFeed]:
    """``user_event_feed`` for each of ``asked`` (user id, after, limit), in ONE query for all
    of them on PostgreSQL: the feeds of the players woken together are read in one trip (an
    ask's entries are exactly those ``user_event_feed`` would read, whatever the other asks,
    the same user's with another cursor included). Elsewhere one query per ask."""
    if connection.vendor != "postgresql":
        return [user_event_feed(user=User(id=user_id), after=after, limit=limit)
                for user_id, after, limit in asked]
    found: list[list[shapes.UserEvent]] = [[] for _ in asked]
    if asked:
        data = UserEvent._meta.get_field("data")
        column = data.cached_col
        with connection.cursor() as cursor:
            cursor.execute(_feeds_sql(), [[ask[0] for ask in asked], [ask[1] for ask in asked],
                                          [ask[2] for ask in asked]])
            for number, event_id, kind, match_id, game, payload, created_at in cursor:
                found[number - 1].append(feed_entry({
                    "id": event_id, "type": kind, "match_id": match_id, "match__game": game,
                    "data": data.from_db_value(payload, column, connection),
                    "created_at": created_at}))
    return [{"events": events, "next_after": feed_next_after(events, after)}
            for events, (_, after, _) in zip(found, asked, strict=True)]


@cache
def _feeds_sql() -> str:
    """The asks unnested, in order (their number from 1), each with its first ``limit`` entries
    after its cursor through the ``user_event_feed`` index; one text, so one prepared
    statement whatever the number of asks."""
    events, matches = UserEvent._meta.db_table, Match._meta.db_table
    return f"""
        SELECT ask.n, e.id, e.type, e.match_id, m.game, e.data, e.created_at
        FROM unnest(%s::bigint[], %s::bigint[], %s::integer[])
             WITH ORDINALITY AS ask(user_id, after, lim, n)
        CROSS JOIN LATERAL (
            SELECT id, type, match_id, data, created_at FROM "{events}"
            WHERE user_id = ask.user_id AND id > ask.after ORDER BY id LIMIT ask.lim
        ) AS e
        LEFT JOIN "{matches}" AS m ON m.id = e.match_id
        ORDER BY ask.n, e.id"""
