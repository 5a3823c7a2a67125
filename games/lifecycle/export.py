"""A player's data export: asked for, built by a worker, told with a notification, downloaded
by its owner alone until it expires.

``SECTIONS`` is the registry of what goes in, one section per kind of data
(``games.lifecycle.sections``): a new kind of data a player owns adds one line. The archive is
one JSON document, ``{"format", "created_at", "username", "sections": {name: data}}``, kept
compressed on the export's row.

Building is due work: asking sets ``DataExport.build_due_at`` and queues the build after commit;
the account sweep (``games.lifecycle.sweep``) queues it again when it has waited too long, and
deletes archives once they expire. The build is idempotent: a ready export is left alone.
"""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

from accounts.models import DataExport, User
from games.lifecycle import sections
from games.lifecycle.exceptions import ExportExpired, ExportNotFound, ExportNotReady, ExportPending
from games.lifecycle.registry import PerKind
from games.models import UserEvent
from games.services import scheduling
from games.services.notifications import notify

FORMAT = "boardpost-export/1"


SECTIONS: tuple[PerKind, ...] = (
    PerKind("profile", sections.profile),
    PerKind("notification_settings", sections.notification_settings),
    PerKind("tokens", sections.tokens),
    PerKind("push_subscriptions", sections.devices),
    PerKind("vacation", sections.vacation),
    PerKind("matches", sections.matches),
    PerKind("ratings", sections.ratings),
    PerKind("notifications", sections.notifications),
    PerKind("follows", sections.follows),
    PerKind("blocks", sections.blocks),
    PerKind("chat_lines", sections.chat_lines),
    PerKind("reports_filed", sections.reports_filed),
    PerKind("tournaments", sections.tournaments),
)


def archive_of(user: User, now: datetime) -> dict[str, Any]:
    """Everything the sections hold about ``user``, as one JSON-ready document."""
    return {"format": FORMAT, "created_at": now, "username": user.username,
            "sections": {section.name: section.run(user) for section in SECTIONS}}


@transaction.atomic
def export_request(*, user: User) -> DataExport:
    """Ask for an export: a pending row, built by a worker after commit. One at a time."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    if DataExport.objects.filter(user=user, status=DataExport.Status.PENDING).exists():
        raise ExportPending()
    export = DataExport.objects.create(user=user, build_due_at=timezone.now())
    scheduling.export_build_after_commit(export_id=str(export.id))
    return export


@transaction.atomic
def export_build(*, export_id: UUID | str, now: datetime | None = None) -> bool:
    """Build a pending export's archive and tell its owner; False when there was nothing to do
    (built already, or gone)."""
    now = now or timezone.now()
    export = (DataExport.objects.select_for_update().select_related("user")
              .filter(pk=export_id, status=DataExport.Status.PENDING).first())
    if export is None:
        return False
    document = json.dumps(archive_of(export.user, now), cls=DjangoJSONEncoder,
                          ensure_ascii=False).encode()
    export.archive = gzip.compress(document)
    export.size = len(document)
    export.status = DataExport.Status.READY
    export.ready_at = now
    export.expires_at = now + timedelta(days=settings.EXPORT_KEEP_DAYS)
    export.build_due_at = None
    export.save(update_fields=["archive", "size", "status", "ready_at", "expires_at",
                               "build_due_at"])
    notify(user_ids=[export.user_id], type=UserEvent.Type.EXPORT_READY,
           export=str(export.id), expires_at=export.expires_at)
    return True


def export_get(*, user: User, export_id: UUID | str) -> DataExport:
    """One of ``user``'s exports (404 for anyone else's, and once it is deleted)."""
    export = DataExport.objects.filter(user=user, pk=export_id).defer("archive").first()
    if export is None:
        raise ExportNotFound()
    return export


def exports_of(*, user: User) -> list[DataExport]:
    """``user``'s exports not yet expired, newest first."""
    return list(DataExport.objects.filter(user=user).exclude(expires_at__lte=timezone.now())
                .defer("archive").order_by("-requested_at"))


def export_document(*, user: User, export_id: UUID | str,
                    now: datetime | None = None) -> bytes:
    """The archive of one of ``user``'s exports, as UTF-8 JSON."""
    export = DataExport.objects.filter(user=user, pk=export_id).first()
    if export is None:
        raise ExportNotFound()
    if export.status != DataExport.Status.READY:
        raise ExportNotReady()
    if export.expires_at is not None and export.expires_at <= (now or timezone.now()):
        raise ExportExpired()
    return gzip.decompress(bytes(export.archive))
