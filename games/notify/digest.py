"""The daily mail digest: the notifications a person keeps for it, in one mail a day at the
hour they chose in their time zone, and the turns they must play within a day."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Min
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import UserEvent
from games.notify import kinds, mail
from games.notify.entries import FEED_FIELDS, rating_entry
from games.notify.models import (
    DEFAULT_DIGEST_HOUR,
    DEFAULT_TIME_ZONE,
    Channel,
    Delivery,
    Kind,
    NotificationSettings,
)
from games.notify.preferences import email_address, recipient_language, settings_of
from games.notify.records import Status
from games.rules_text import game_name
from games.selectors.deadlines import TurnEnding, players_near_deadlines, turns_ending
from games.selectors.feeds import feed_entry

# The digest lists the turns whose own deadline is at most this far away.
TURN_ENDING = timedelta(days=1)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def digest_time(prefs: NotificationSettings | None, now: datetime) -> datetime:
    """The person's latest digest time at or before ``now``: today's ``digest_hour`` in their
    time zone, or yesterday's while it is earlier than that (an hour a clock change skips
    counts as the hour after it)."""
    hour = prefs.digest_hour if prefs is not None else DEFAULT_DIGEST_HOUR
    zone = _zone(prefs.time_zone if prefs is not None else DEFAULT_TIME_ZONE)
    local = now.astimezone(zone)
    for days in (0, 1):
        day = local.date() - timedelta(days=days)
        at = datetime.combine(day, time(hour=hour), tzinfo=zone).astimezone(UTC)
        if at <= now:
            return at
    raise AssertionError("unreachable")  # pragma: no cover - yesterday's hour is in the past


def digest_send(*, now: datetime | None = None) -> dict[str, int]:
    """One mail a day per person with the notifications kept for their digest, at the hour
    they chose in their time zone (default 08:00 UTC), or at the first run after it. A person
    is due when their digest time has come since their last digest and something waits from
    before it, or, for one who chose the digest, when one of their turns ends in less than a
    day (the digest then lists those turns, even with nothing else to tell). A run the same
    day sends them nothing more (what arrives later waits for the next day). Safe to run
    again and concurrently (each row is taken once, under a row lock). ``items``: how many
    notifications went out in the mails."""
    now = now or timezone.now()
    counts = {"mails": 0, "items": 0}
    waiting = (Delivery.objects.filter(status=Status.DIGEST).values("user_id")
               .annotate(oldest=Min("created_at")))
    oldest = {row["user_id"]: row["oldest"] for row in waiting}
    # Those who chose the digest, have a verified address and may have a turn ending soon.
    pressed = set(NotificationSettings.objects.filter(
        email_digest=True, user_id__in=players_near_deadlines(now=now, within=TURN_ENDING))
        .exclude(verified_email="").values_list("user_id", flat=True))
    prefs_of = settings_of(set(oldest) | pressed)
    for user_id in sorted(set(oldest) | pressed):
        since = digest_time(prefs_of.get(user_id), now)
        sent_at = prefs_of[user_id].digest_sent_at if user_id in prefs_of else None
        if sent_at is not None and sent_at >= since:
            continue  # sent today already
        if user_id not in pressed and oldest[user_id] > since:
            continue  # not its time yet
        mailed, items = _send_digest_of(user_id, since, now)
        if mailed:
            counts["mails"] += 1
            counts["items"] += items
    return counts


def _send_digest_of(user_id: int, since: datetime, now: datetime) -> tuple[bool, int]:
    """Mail one person's digest unless another run sent it since ``since``: whether a mail
    went out, and how many notifications it told."""
    with transaction.atomic():
        prefs = NotificationSettings.objects.select_for_update().filter(user_id=user_id).first()
        if prefs is not None and prefs.digest_sent_at is not None \
                and prefs.digest_sent_at >= since:
            return False, 0  # another run sent it meanwhile
        rows = list(Delivery.objects.select_for_update(skip_locked=True)
                    .filter(user_id=user_id, status=Status.DIGEST).order_by("event_id"))
        user = User.objects.get(id=user_id)
        to = email_address(user, prefs)
        chosen = kinds.preferences_with_defaults(prefs.preferences if prefs else None)
        keep = [row for row in rows if chosen[row.kind][Channel.EMAIL]]
        ending = (turns_ending(user_id, now=now, within=TURN_ENDING)
                  if to is not None and prefs is not None and prefs.email_digest
                  and chosen[Kind.DEADLINE_SOON][Channel.EMAIL] else [])
        if to is None or not (keep or ending):
            Delivery.objects.filter(id__in=[r.id for r in rows]).update(
                status=Status.SKIPPED, reason="digest_off", updated_at=now)
            return False, 0
        with translation.override(recipient_language(user)):
            messages = _digest_messages(keep)
            mail.send(mail.digest_mail(user_id=user_id, to=to, messages=messages,
                                       ending=[_ending_line(turn) for turn in ending]))
        Delivery.objects.filter(id__in=[r.id for r in rows]).update(
            status=Status.DIGESTED, updated_at=now)
        NotificationSettings.objects.filter(user_id=user_id).update(digest_sent_at=now)
        return True, len(keep)


def _ending_line(turn: TurnEnding) -> dict[str, str]:
    """A turn ending in less than a day, in the active language, with its link."""
    names = {"game": game_name(turn.game), "time": kinds.duration(turn.seconds_left),
             "deadline": turn.deadline.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")}
    if turn.opponents:
        text = _("%(game)s against %(opponents)s: about %(time)s left, until %(deadline)s") % {
            **names, "opponents": ", ".join(turn.opponents)}
    else:
        text = _("%(game)s: about %(time)s left, until %(deadline)s") % names
    return {"text": text, "link": mail.site_url(f"/match/{turn.match_id}")}


def _digest_messages(rows: list[Delivery]) -> list[kinds.Message]:
    entries = {row["id"]: row for row in UserEvent.objects.filter(
        id__in=[r.event_id for r in rows]).values(*FEED_FIELDS)}
    result = []
    for delivery in rows:
        row = entries.get(delivery.event_id)
        if row is None:
            continue
        rating = None
        if row["type"] == UserEvent.Type.MATCH_FINISHED:
            found = rating_entry(row)
            rating = feed_entry(found)["data"] if found else None
        result.append(kinds.message(feed_entry(row), rating))
    return result
