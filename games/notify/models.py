"""What the notifications keep: devices, preferences, what was sent, and the "your turn" limit."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models

# The daily digest goes out at this hour of the person's day unless they choose another.
DEFAULT_DIGEST_HOUR = 8
DEFAULT_TIME_ZONE = "UTC"
# A player is reminded this long before each deadline (seconds) unless they choose otherwise:
# at most REMINDER_OFFSETS_MAX distinct offsets, each from REMINDER_OFFSET_MIN to
# REMINDER_OFFSET_MAX seconds.
DEFAULT_REMINDER_OFFSETS = (24 * 3600, 4 * 3600, 3600)
REMINDER_OFFSETS_MAX = 5
REMINDER_OFFSET_MIN = 15 * 60
REMINDER_OFFSET_MAX = 7 * 24 * 3600


def default_reminder_offsets() -> list[int]:
    return list(DEFAULT_REMINDER_OFFSETS)


class Kind(models.TextChoices):
    """What a notification is about (one per kind of feed entry a player is told of)."""

    YOUR_TURN = "your_turn"
    DEADLINE_SOON = "deadline_soon"
    INVITED = "invited"
    MATCH_FINISHED = "match_finished"
    VACATION_ENDING = "vacation_ending"
    VACATION_ENDED = "vacation_ended"
    AUTO_VACATION_STARTED = "auto_vacation_started"
    PLAN_NOT_COVERED = "plan_not_covered"
    PLAN_DROPPED = "plan_dropped"
    EXPORT_READY = "export_ready"
    CHAT = "chat"
    # Every tournament notice: it starts soon, your match of a round, you were withdrawn, it
    # finished.
    TOURNAMENT = "tournament"


class Channel(models.TextChoices):
    PUSH = "push"
    EMAIL = "email"


class PushSubscription(models.Model):
    """One device's Web Push subscription (the browser's PushSubscription, RFC 8030/8291)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    name = models.CharField(max_length=100, blank=True, default="")
    user_agent = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "id"], name="notify_push_user")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.name or self.endpoint[:40]}"


class NotificationSettings(models.Model):
    """A person's choices: per kind and channel (``preferences``; missing entries take the
    defaults of ``games.notify.kinds.DEFAULTS``), whether mails come as one daily digest, and
    the address they verified (mail goes only to a verified address: the account's email when
    it equals ``verified_email``). The digest goes out once a day, at ``digest_hour`` o'clock
    in ``time_zone`` (an IANA name) or at the first run of the digest task after it. Reminders
    of a deadline go out at each of ``reminder_offsets`` before it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="notification_settings")
    preferences = models.JSONField(default=dict, blank=True)
    email_digest = models.BooleanField(default=False)
    verified_email = models.EmailField(blank=True, default="")
    digest_sent_at = models.DateTimeField(null=True, blank=True)
    digest_hour = models.PositiveSmallIntegerField(default=DEFAULT_DIGEST_HOUR,
                                                   validators=[MaxValueValidator(23)])
    time_zone = models.CharField(max_length=64, default=DEFAULT_TIME_ZONE)
    # Seconds before a deadline at which to be reminded, longest first (see
    # games.notify.preferences.reminder_offsets_checked).
    reminder_offsets = models.JSONField(default=default_reminder_offsets, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notification settings of {self.user_id}"


class Delivery(models.Model):
    """What became of one feed entry on one channel. The unique (event, channel) pair is what
    makes a notification go out at most once, however often the task runs."""

    class Status(models.TextChoices):
        SENDING = "sending"  # claimed by a task that is sending it now
        RETRY = "retry"  # a send failed for a reason that may pass; the task retries
        SENT = "sent"
        SKIPPED = "skipped"  # nothing to send (``reason`` says why)
        DIGEST = "digest"  # waits for the person's daily digest
        DIGESTED = "digested"  # went out in a digest
        FAILED = "failed"  # gave up

    event = models.ForeignKey("games.UserEvent", on_delete=models.CASCADE,
                              related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices)
    reason = models.CharField(max_length=40, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    # Push: the subscriptions that already accepted it (a retry sends only to the others).
    delivered_to = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "channel"],
                                    name="notify_delivery_once_per_channel"),
        ]
        indexes = [
            models.Index(fields=["status", "user"], name="notify_delivery_status_user"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.channel} {self.status}"


class TurnNotice(models.Model):
    """A "your turn" went out for this match (at ``sent_at``): no other goes out until the
    player has looked at the match (``looked_at``, recorded here whether or not Redis is
    there) or moved since."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField()
    looked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="notify_turn_notice_once"),
        ]

    def __str__(self) -> str:
        return f"turn notice {self.user_id} {self.match_id}"


class SweepCursor(models.Model):
    """How far the notification sweep has checked the feed: every entry up to
    ``last_event_id`` had its notification task run, or was handed to one by the sweep. One
    row (id 1)."""

    last_event_id = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notification sweep at {self.last_event_id}"
