"""Coded errors of the notification endpoints."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, Conflict


class InvalidPushSubscription(ApplicationError):
    """The push subscription is not usable: an endpoint that is not https, or malformed keys.

    The keys must be a P-256 public key and a 16-byte secret, in base64url."""

    code = "invalid_push_subscription"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("The push subscription is not usable.")


class PushSubscriptionTaken(Conflict):
    """Another account registered this push endpoint; it unregisters it first."""

    code = "push_subscription_taken"
    default_message = _("This push endpoint belongs to another account.")


class TooManyPushSubscriptions(Conflict):
    """The account holds as many push subscriptions as it may (`extra.limit`); remove one."""

    code = "too_many_push_subscriptions"
    default_message = _("Too many push subscriptions; remove one first.")


class NoEmailAddress(Conflict):
    """The account has no email address to verify or to send to."""

    code = "no_email_address"
    default_message = _("Set an email address first.")


class InvalidToken(ApplicationError):
    """The link's token is forged, damaged or expired."""

    code = "invalid_token"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("This link is not valid (or no longer valid).")


class PushNotConfigured(ApplicationError):
    """This server has no VAPID keys, so it cannot send Web Push."""

    code = "push_not_configured"
    http_status = status.HTTP_503_SERVICE_UNAVAILABLE  # type: ignore[assignment]
    default_message = _("Web Push is not configured on this server.")


class InvalidReminderOffsets(ApplicationError):
    """The reminder offsets are not a short list of distinct durations within the bounds.

    At most `extra.limit` offsets, each a whole number of seconds from `extra.minimum` to
    `extra.maximum`, none twice; `extra.offset` names the one at fault, if any."""

    code = "invalid_reminder_offsets"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("Choose at most 5 distinct reminders, each 15 minutes to 7 days before "
                        "the deadline.")
