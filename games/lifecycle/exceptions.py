"""Coded errors of the account's life: data exports."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, Conflict, NotFound


class ExportNotFound(NotFound):
    default_message = _("No such export.")


class ExportPending(Conflict):
    """An export asked for earlier is still being built."""

    code = "export_pending"
    default_message = _("Your previous export is still being prepared.")


class ExportNotReady(Conflict):
    """The export is still being built: its archive is not there yet."""

    code = "export_not_ready"
    default_message = _("This export is still being prepared.")


class ExportExpired(ApplicationError):
    """The export's archive expired and was deleted; ask for a new one."""

    code = "export_expired"
    http_status = status.HTTP_410_GONE  # type: ignore[assignment]
    default_message = _("This export has expired: ask for a new one.")
