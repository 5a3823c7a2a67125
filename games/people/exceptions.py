"""Coded errors of the chat and the reports."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, NotFound


class ChatNotAllowed(ApplicationError):
    """This account cannot say anything in chat (bots say nothing)."""

    code = "chat_not_allowed"
    http_status = status.HTTP_403_FORBIDDEN  # type: ignore[assignment]
    default_message = _("This account cannot write in chat.")


class ChatMuted(ApplicationError):
    """A moderator muted the caller's chat until `extra.until`."""

    code = "chat_muted"
    http_status = status.HTTP_403_FORBIDDEN  # type: ignore[assignment]
    default_message = _("Your chat is muted for now.")


class ChatLinksNotAllowed(ApplicationError):
    """Links in chat need an account older than `extra.days` days."""

    code = "chat_links_not_allowed"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("New accounts cannot post links in chat yet.")


class ReportTargetNotFound(NotFound):
    default_message = _("Nothing to report there.")


class ReportTargetMissing(ApplicationError):
    """A report names a player, a chat line or a match: exactly one of them."""

    code = "invalid_report"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("Report a player, a chat line or a match (one of them).")
