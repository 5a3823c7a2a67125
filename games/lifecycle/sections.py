"""The sections of a player's data export, one per kind of data (``games.lifecycle.export``
lists them): each a function of the account that returns what the server holds of that kind,
JSON-ready, as the player may see it. Matches are exported exactly as the API answers the player
(``games.selectors.matches``): while a match runs, other seats' hidden information is not in
them."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Block, Follow, User
from accounts.selectors import token_list
from games.models import Match, Rating, RatingChange, UserEvent
from games.notify.models import NotificationSettings, PushSubscription
from games.notify.preferences import settings_for
from games.people.models import ChatLine, Report
from games.selectors.feeds import feed_entry
from games.selectors.matches import match_detail, match_moves_for_user, seats_prefetch
from games.selectors.players import rating_summary
from games.selectors.vacations import vacation_status
from games.tournaments.models import Entry


def profile(user: User) -> dict[str, Any]:
    return {"username": user.username, "email": user.email, "date_joined": user.date_joined,
            "last_login": user.last_login, "is_guest": user.is_guest,
            "language": user.language or None, "matches_private": user.matches_private,
            "invitations": user.invitations}


def notification_settings(user: User) -> dict[str, Any]:
    prefs: NotificationSettings = settings_for(user)
    return {"preferences": prefs.preferences, "email_digest": prefs.email_digest,
            "verified_email": prefs.verified_email, "digest_hour": prefs.digest_hour,
            "time_zone": prefs.time_zone, "reminder_offsets": prefs.reminder_offsets}


def tokens(user: User) -> list[dict[str, Any]]:
    """Names and prefixes only: the keys are not kept, and their digests say nothing."""
    return [{key: value for key, value in token.items() if key != "current"}
            for token in token_list(user=user, current=None)]


def devices(user: User) -> list[dict[str, Any]]:
    return [dict(row) for row in PushSubscription.objects.filter(user=user).order_by("id")
            .values("name", "user_agent", "created_at", "last_used_at")]


def vacation(user: User) -> dict[str, Any]:
    return dict(vacation_status(user=user, now=timezone.now()))


def matches(user: User) -> list[dict[str, Any]]:
    """Every match the player sits in or created, each with its whole move log, as the API
    shows them to that player."""
    found = (Match.objects.filter(Q(seats__user=user) | Q(created_by=user)).distinct()
             .order_by("created_at", "id").prefetch_related(seats_prefetch()))
    return [{**match_detail(match, user),
             "moves": match_moves_for_user(match=match, user=user, limit=max(match.version, 1))}
            for match in found]


def ratings(user: User) -> dict[str, Any]:
    history = RatingChange.objects.filter(user=user).order_by("game", "at", "id").values(
        "game", "at", "rank", "display_before", "display_after", "mu_before",
        "sigma_before", "mu_after", "sigma_after", match_uuid=F("match_id"))
    return {"current": [rating_summary(rating)
                        for rating in Rating.objects.filter(user=user).order_by("game")],
            "history": [{**{k: v for k, v in row.items() if k != "match_uuid"},
                         "match": str(row["match_uuid"])} for row in history]}


def notifications(user: User) -> list[dict[str, Any]]:
    rows = (UserEvent.objects.filter(user=user).order_by("id")
            .values("id", "type", "match_id", "match__game", "data", "created_at"))
    return [dict(feed_entry(row)) for row in rows]



def follows(user: User) -> dict[str, Any]:
    """Whom the player follows and who follows them, by name, with when."""
    return {"following": [{"username": row.followed.username, "since": row.created}
                          for row in Follow.objects.filter(follower=user)
                          .select_related("followed").order_by("created", "id")],
            "followers": [{"username": row.follower.username, "since": row.created}
                          for row in Follow.objects.filter(followed=user)
                          .select_related("follower").order_by("created", "id")]}


def blocks(user: User) -> list[dict[str, Any]]:
    """Whom the player blocked, and for what (never who blocked them: they are not told)."""
    return [{"username": row.blocked.username, "games": row.games, "chat": row.chat,
             "since": row.created}
            for row in Block.objects.filter(blocker=user).select_related("blocked")
            .order_by("created", "id")]


def chat_lines(user: User) -> list[dict[str, Any]]:
    """Every line the player said, with its match and room."""
    return [{"match": str(line.match_id), "room": line.room, "body": line.body,
             "created_at": line.created_at}
            for line in ChatLine.objects.filter(author=user).order_by("created_at", "id")]


def reports_filed(user: User) -> list[dict[str, Any]]:
    """The reports the player filed, with what became of them (not who handled them)."""
    return [{"reason": report.reason, "note": report.note, "status": report.status,
             "player": report.player.username if report.player is not None else None,
             "match": str(report.match_id) if report.match_id else None,
             "line_text": report.line_text or None, "created_at": report.created_at,
             "handled_at": report.handled_at}
            for report in Report.objects.filter(reporter=user).select_related("player")
            .order_by("created_at", "id")]


def tournaments(user: User) -> list[dict[str, Any]]:
    """The player's tournament entries, with how each went."""
    return [{"tournament": str(entry.tournament_id), "name": entry.tournament.name,
             "game": entry.tournament.game, "format": entry.tournament.format,
             "joined_at": entry.joined_at, "withdrawn_at": entry.withdrawn_at,
             "withdrawal": entry.withdrawal or None, "final_rank": entry.final_rank}
            for entry in Entry.objects.filter(user=user).select_related("tournament")
            .order_by("joined_at", "id")]
