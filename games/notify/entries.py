"""The feed entries a notification tells, read as the feed answers them.

A match's "match finished" and "rating changed" entries make ONE notification, keyed by the
"match finished" entry: for a rated match it goes out once the rating is in (the rating update
is due work of the match, so it comes), for an unrated one at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.models import Match, RatingChange, UserEvent

FEED_FIELDS = ("id", "type", "match_id", "match__game", "data", "created_at", "user_id")


def anchor(row: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None] | None:
    """The entry a notification is keyed by and told from, with its match's rating change
    when it has one; None while a rated match's rating is not in yet."""
    if row["type"] == UserEvent.Type.RATING_CHANGED:
        finished = _entry_of(row, UserEvent.Type.MATCH_FINISHED)
        return dict(finished or row), dict(row)
    if row["type"] != UserEvent.Type.MATCH_FINISHED:
        return dict(row), None
    rating = rating_entry(row)
    if rating is None and row["match_id"] is not None and _rating_pending(row):
        return None
    return dict(row), dict(rating) if rating else None


def rating_entry(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The "rating changed" entry of a "match finished" entry's player and match, if any."""
    return _entry_of(row, UserEvent.Type.RATING_CHANGED)


def _entry_of(row: Mapping[str, Any], type: str) -> dict[str, Any] | None:
    return (UserEvent.objects.filter(user_id=row["user_id"], match_id=row["match_id"], type=type)
            .values(*FEED_FIELDS).first())


def _rating_pending(row: Mapping[str, Any]) -> bool:
    rated = Match.objects.filter(id=row["match_id"], rated=True).exists()
    return rated and not RatingChange.objects.filter(match_id=row["match_id"],
                                                     user_id=row["user_id"]).exists()
