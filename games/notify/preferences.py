"""A person's notification settings: what they want by which channel, their digest hour and
time zone, their verified address and language, and unsubscribing from a mail's link."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import CharField, JSONField
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext

from accounts.models import User
from config.i18n import supported
from games.notify import kinds, mail
from games.notify.exceptions import InvalidReminderOffsets, InvalidToken, NoEmailAddress
from games.notify.models import (
    REMINDER_OFFSET_MAX,
    REMINDER_OFFSET_MIN,
    REMINDER_OFFSETS_MAX,
    Channel,
    NotificationSettings,
    default_reminder_offsets,
)
from games.services import player_reminders_recount, player_time_zone_change


def settings_of(user_ids: Iterable[int]) -> dict[int, NotificationSettings]:
    """The stored settings of these people (those who never changed theirs have none)."""
    return {s.user_id: s for s in NotificationSettings.objects.filter(user_id__in=user_ids)}


def settings_for(user: User) -> NotificationSettings:
    found = NotificationSettings.objects.filter(user=user).first()
    return found or NotificationSettings(user=user)


def recipient_language(user: User) -> str:
    """The language a player's notifications and mails are written in: their own choice, else
    the server's default (a notification has no request whose Accept-Language could say)."""
    return supported(user.language) or settings.LANGUAGE_CODE


def email_address(user: User, prefs: NotificationSettings | None) -> str | None:
    """Where mails go: the account's address, once verified."""
    email = (user.email or "").strip()
    if email and prefs is not None and prefs.verified_email.lower() == email.lower():
        return email
    return None


@lru_cache(maxsize=16)
def user_time_zone(user_column: str) -> RawSQL:
    """The time zone of the user whose id is in ``user_column`` (quoted SQL, e.g.
    ``"games_seat"."user_id"``), NULL for one without settings: a subquery on the settings'
    primary key, for the clocks' weekends (registered with ``games.selectors.clocks`` when the
    app starts). Written as SQL and built once per column, as it is read with every lock."""
    table = connection.ops.quote_name(NotificationSettings._meta.db_table)
    return RawSQL(f"(SELECT z.time_zone FROM {table} z WHERE z.user_id = {user_column})", (),
                  output_field=CharField())


@lru_cache(maxsize=16)
def user_reminder_offsets(user_column: str) -> RawSQL:
    """The reminder offsets of the user whose id is in ``user_column`` (quoted SQL), a JSON
    list, NULL for one without settings (the defaults): a subquery on the settings' primary
    key, read with every lock of a match (registered with
    ``games.services.reminder_offsets`` when the app starts)."""
    table = connection.ops.quote_name(NotificationSettings._meta.db_table)
    return RawSQL(f"(SELECT r.reminder_offsets FROM {table} r WHERE r.user_id = {user_column})",
                  (), output_field=JSONField())


def time_zone_valid(name: str) -> bool:
    return name in _time_zones()


@lru_cache(maxsize=1)
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones() | {"UTC"})


def reminder_offsets_checked(offsets: Iterable[object]) -> list[int]:
    """The offsets before a deadline at which to remind a player, longest first: at most
    ``REMINDER_OFFSETS_MAX``, distinct, each a whole number of seconds from
    ``REMINDER_OFFSET_MIN`` (15 minutes) to ``REMINDER_OFFSET_MAX`` (7 days); an empty list
    asks for no reminder. Anything else is ``InvalidReminderOffsets``."""
    bounds: dict[str, Any] = {"limit": REMINDER_OFFSETS_MAX, "minimum": REMINDER_OFFSET_MIN,
              "maximum": REMINDER_OFFSET_MAX}
    values = list(offsets)
    if len(values) > REMINDER_OFFSETS_MAX:
        raise InvalidReminderOffsets(**bounds)
    checked: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) \
                or not REMINDER_OFFSET_MIN <= value <= REMINDER_OFFSET_MAX:
            raise InvalidReminderOffsets(offset=value, **bounds)
        if value in checked:
            raise InvalidReminderOffsets(offset=value, **bounds)
        checked.append(value)
    return sorted(checked, reverse=True)


def reminder_offsets_of(user_ids: Iterable[int]) -> dict[int, list[int]]:
    """Each player's reminder offsets (longest first; the defaults for a player who never
    chose)."""
    ids = set(user_ids)
    chosen = dict(NotificationSettings.objects.filter(user_id__in=ids)
                  .values_list("user_id", "reminder_offsets"))
    return {user_id: sorted(chosen[user_id], reverse=True)
            if isinstance(chosen.get(user_id), list) else default_reminder_offsets()
            for user_id in ids}


def preferences_update(*, user: User, preferences: Mapping[str, Mapping[str, bool]] | None = None,
                       email_digest: bool | None = None, digest_hour: int | None = None,
                       time_zone: str | None = None,
                       reminder_offsets: Iterable[object] | None = None) -> NotificationSettings:
    """Change what is given (``time_zone``: an IANA name, checked by the caller with
    ``time_zone_valid``; ``reminder_offsets``: checked here, ``InvalidReminderOffsets``
    changing nothing; new offsets take effect in the player's running matches at once)."""
    offsets = None if reminder_offsets is None else reminder_offsets_checked(reminder_offsets)
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        merged = kinds.preferences_with_defaults(prefs.preferences)
        for kind, channels in (preferences or {}).items():
            merged[kind].update({ch: bool(v) for ch, v in channels.items()})
        prefs.preferences = merged
        if email_digest is not None:
            prefs.email_digest = email_digest
        if digest_hour is not None:
            prefs.digest_hour = digest_hour
        if time_zone is not None and time_zone != prefs.time_zone:
            # The clocks pausing on weekends charge the time used so far in the old zone.
            player_time_zone_change(user=user, zone=time_zone)
            prefs.time_zone = time_zone
        recount = offsets is not None and offsets != prefs.reminder_offsets
        if offsets is not None:
            prefs.reminder_offsets = offsets
        prefs.save()
        if recount:
            # The running matches' next reminders are counted with the new offsets (read
            # with each match's lock, so after they are saved).
            player_reminders_recount(user=user)
        return prefs


def email_set(*, user: User, email: str) -> NotificationSettings:
    """Change the account's address (``""`` removes it); a new one must be verified again."""
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        if email.lower() != (user.email or "").lower():
            user.email = email
            user.save(update_fields=["email"])
        if prefs.verified_email.lower() != email.lower():
            prefs.verified_email = ""
            prefs.save(update_fields=["verified_email", "updated_at"])
    if email and not prefs.verified_email:
        email_verification_send(user=user)
    return prefs


def email_verification_send(*, user: User) -> None:
    """Mail a link that verifies the account's current address."""
    if not user.email:
        raise NoEmailAddress()
    mail.send(mail.verification_mail(user_id=user.id, to=user.email))


def email_verify(*, token: str) -> User:
    """Verify the address of a link's token (it must still be the account's)."""
    found = mail.read_verify_token(token)
    if found is None:
        raise InvalidToken()
    user_id, email = found
    user = User.objects.filter(id=user_id).first()
    if user is None or (user.email or "").lower() != email.lower():
        raise InvalidToken(gettext("This address is no longer the account's."))
    with transaction.atomic():
        prefs, _ = NotificationSettings.objects.select_for_update().get_or_create(user=user)
        prefs.verified_email = email
        prefs.save(update_fields=["verified_email", "updated_at"])
    return user


def unsubscribe_preview(*, token: str) -> tuple[User, list[str]]:
    """Who a signed unsubscribe link is for and the kinds of mail it would stop; changes
    nothing (what a GET of the link answers: a mail scanner following links stops nothing)."""
    found = mail.read_unsubscribe_token(token)
    if found is None:
        raise InvalidToken()
    user_id, kind = found
    user = User.objects.filter(id=user_id).first()
    if user is None or (kind != mail.ALL and kind not in kinds.DEFAULTS):
        raise InvalidToken()
    return user, [str(k) for k in (list(kinds.DEFAULTS) if kind == mail.ALL else [kind])]


def unsubscribe(*, token: str) -> tuple[User, list[str]]:
    """Turn off the mails a signed unsubscribe link names, at once; no sign-in needed (the
    one-click POST of RFC 8058, and the button of the link's page)."""
    user, turned_off = unsubscribe_preview(token=token)
    kind = mail.ALL if len(turned_off) > 1 else turned_off[0]
    preferences_update(user=user, preferences={k: {Channel.EMAIL: False} for k in turned_off},
                       email_digest=False if kind == mail.ALL else None)
    return user, [str(k) for k in turned_off]
