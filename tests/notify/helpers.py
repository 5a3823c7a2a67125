"""Matches and accounts for the notification tests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.catalog import get_engine
from games.models import Match, UserEvent
from games.notify.devices import push_subscription_register
from games.notify.models import NotificationSettings
from games.services import SeatSpec, match_create, match_join, match_move_submit

DAY = 86400
# The notification sweep's grace in the sweep tests: entries older than this are its business.
SWEEP_GRACE = 60.0


def after_the_grace(seconds: float = SWEEP_GRACE + 1):
    """A moment the sweep no longer leaves an entry written now to its task."""
    return timezone.now() + timedelta(seconds=seconds)


def verified(user: Any, address: str | None = None) -> Any:
    """Give the account a verified address."""
    user.email = address or f"{user.username}@example.org"
    user.save(update_fields=["email"])
    NotificationSettings.objects.update_or_create(user=user,
                                                  defaults={"verified_email": user.email})
    return user


def registered_device(push_service: Any, user: Any) -> Any:
    """A device of the test push service, registered for ``user``'s push notifications."""
    device = push_service.device()
    push_subscription_register(user=user, endpoint=device.endpoint,
                               p256dh=device.p256dh, auth=device.as_json()["keys"]["auth"])
    return device


def start(game: str, users: list[Any], *, rated: bool = False, config: dict | None = None,
          turn_seconds: int | None = DAY) -> Match:
    """A match of ``users`` (the first creates it and invites the others, who join)."""
    match = match_create(user=users[0], game=game, config=config or {}, rated=rated,
                         turn_seconds=turn_seconds,
                         seats=[SeatSpec("me")] + [SeatSpec("user", username=u.username)
                                                   for u in users[1:]])
    for user in users[1:]:
        match_join(user=user, match_id=match.id)
    match.refresh_from_db()
    return match


def play(match: Match, users: list[Any], seat: int | None = None) -> int:
    """One legal move of a seat that must act; the seat that moved."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    state = engine.load(match.state)
    seat = match.actors[0] if seat is None else seat
    move = engine.dump_move(engine.legal_moves(state, seat)[0])
    match_move_submit(user=users[seat], match_id=match.id, move=move)
    match.refresh_from_db()
    return seat


def until_turn_of(match: Match, users: list[Any], user: Any) -> Match:
    """Play legal moves of the others until ``user`` must act (who starts is the seed's)."""
    seat = users.index(user)
    match.refresh_from_db()
    while seat not in match.actors:
        play(match, users)
    return match


def entries(user: Any, type_: str | None = None) -> list[UserEvent]:
    queryset = UserEvent.objects.filter(user=user)
    if type_:
        queryset = queryset.filter(type=type_)
    return list(queryset.order_by("id"))
