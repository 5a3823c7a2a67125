"""Delivering new feed entries: ``deliver`` is what the task ``games.notify_deliver`` runs
after the transaction that wrote them commits.

Per entry it decides, for the push and the email channel, whether to send (the player's
preferences, a device or a verified address, not watching the match live, the "your turn"
limit) and records the decision as a ``Delivery`` row keyed by (entry, channel) BEFORE sending
(``games.notify.records``), so a second run sends nothing again. A send that may work later
leaves the row "retry" and raises ``DeliveryDeferred``, so the task retries with backoff and
sends only what is still due; on the task's last try it is given up ("failed").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from accounts.models import User
from games.live import presence
from games.models import UserEvent
from games.notify import kinds, push
from games.notify.entries import FEED_FIELDS, anchor
from games.notify.limits import turn_notice_allowed, turn_notice_sent
from games.notify.models import Channel, Delivery, Kind, NotificationSettings, PushSubscription
from games.notify.preferences import email_address, recipient_language, settings_of
from games.notify.records import Status, claim, finish
from games.notify.sending import DeliveryDeferred, send_mail, send_push
from games.selectors.feeds import feed_entry


def deliver(event_ids: Iterable[int], *, final: bool = False) -> dict[str, int]:
    """Notify the people of these feed entries (see the module docstring). ``final``: the
    task's last try, where what still fails is given up. Returns counts by outcome."""
    ids = sorted({int(i) for i in event_ids})
    rows = list(UserEvent.objects.filter(id__in=ids, type__in=kinds.NOTIFIED_TYPES,
                                         user__is_bot=False).values(*FEED_FIELDS))
    counts: dict[str, int] = defaultdict(int)
    if not rows:
        return dict(counts)
    user_ids = {row["user_id"] for row in rows}
    users = User.objects.in_bulk(user_ids)
    prefs = settings_of(user_ids)
    devices = _devices_of(user_ids)
    deferred = False
    for row in rows:
        user = users[row["user_id"]]
        channels: dict[str, bool] = {
            Channel.PUSH: bool(devices[user.id]) and push.configured(),
            Channel.EMAIL: email_address(user, prefs.get(user.id)) is not None,
        }
        if not any(channels.values()):
            continue  # nowhere to send: nothing to decide or record
        try:
            with translation.override(recipient_language(user)):  # the words, in theirs
                _deliver_entry(row, user, prefs.get(user.id), devices[user.id], channels,
                               counts, final=final)
        except DeliveryDeferred:
            deferred = True
    if deferred:
        raise DeliveryDeferred(f"some of {len(ids)} notifications wait for a retry")
    return dict(counts)


def _devices_of(user_ids: Iterable[int]) -> dict[int, list[PushSubscription]]:
    devices: dict[int, list[PushSubscription]] = defaultdict(list)
    for sub in PushSubscription.objects.filter(user_id__in=user_ids).order_by("id"):
        devices[sub.user_id].append(sub)
    return devices


@dataclass(frozen=True)
class _Notice:
    """One feed entry's notification to one person, the same on every channel."""

    event_id: int
    match_id: Any
    user: User
    prefs: NotificationSettings | None
    devices: list[PushSubscription]
    entry: Mapping[str, Any]
    message: kinds.Message

    def claim(self, channel: str, status: str, reason: str = "") -> Delivery | None:
        return claim(self.event_id, self.user.id, channel, self.message.kind, status, reason)


def _deliver_entry(row: Mapping[str, Any], user: User, prefs: NotificationSettings | None,
                   devices: list[PushSubscription], channels: dict[str, bool],
                   counts: dict[str, int], *, final: bool) -> None:
    notice = _notice(row, user, prefs, devices)
    if notice is None:
        counts["waiting_for_rating"] += 1
        return
    chosen = kinds.preferences_with_defaults(prefs.preferences if prefs else None)
    wanted = [ch for ch in (Channel.PUSH, Channel.EMAIL)
              if channels[ch] and chosen[notice.message.kind][ch]]
    if not wanted:
        return
    skip = _skip_reason(notice)  # decided once for both channels
    if skip is not None:
        for channel in wanted:
            if notice.claim(channel, Status.SKIPPED, skip) is not None:
                counts[f"skipped_{skip}"] += 1
        return
    deferred = sent_any = False
    for channel in wanted:
        try:
            sent_any = _deliver_on(notice, channel, counts, final=final) or sent_any
        except DeliveryDeferred:
            deferred = True
    if sent_any and notice.message.kind == Kind.YOUR_TURN and notice.match_id is not None:
        turn_notice_sent(user_id=user.id, match_id=notice.match_id)
    if deferred:
        raise DeliveryDeferred()


def _notice(row: Mapping[str, Any], user: User, prefs: NotificationSettings | None,
            devices: list[PushSubscription]) -> _Notice | None:
    """The notification of a feed entry; None while it waits for its match's rating."""
    anchored = anchor(row)
    if anchored is None:
        return None
    key_row, rating_row = anchored
    entry = feed_entry(key_row)
    rating = feed_entry(rating_row)["data"] if rating_row else None
    return _Notice(event_id=key_row["id"], match_id=key_row["match_id"], user=user,
                   prefs=prefs, devices=devices, entry=entry,
                   message=kinds.message(entry, rating))


def _skip_reason(notice: _Notice) -> str | None:
    """Why nothing goes out on any channel: the player watches the match live, or was told
    it is their turn there and has not looked since."""
    if presence.is_watching(notice.user.id, notice.match_id):
        return "watching"
    if notice.message.kind == Kind.YOUR_TURN \
            and not turn_notice_allowed(notice.user.id, notice.match_id):
        return "turn_already_notified"
    return None


def _deliver_on(notice: _Notice, channel: str, counts: dict[str, int], *, final: bool) -> bool:
    """Send the notice on one channel, or keep it for the person's mail digest; whether it
    went (or was kept). Raises ``DeliveryDeferred`` when it waits for a retry."""
    if channel == Channel.EMAIL and notice.prefs is not None and notice.prefs.email_digest:
        kept = notice.claim(channel, Status.DIGEST) is not None
        if kept:
            counts["digest"] += 1
        return kept
    delivery = notice.claim(channel, Status.SENDING)
    if delivery is None:
        return False  # another run has it
    try:
        if channel == Channel.PUSH:
            ok = send_push(delivery, notice.devices, notice.entry, notice.message)
        else:
            ok = send_mail(delivery, notice.user, notice.prefs, notice.message)
    except DeliveryDeferred:
        if final:
            finish(delivery, Status.FAILED, "gave_up")
            counts["failed"] += 1
            return False
        finish(delivery, Status.RETRY, "retrying")
        counts["retry"] += 1
        raise
    counts["sent" if ok else "not_sent"] += 1
    return ok
