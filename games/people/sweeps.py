"""How long chat lines and reports are kept: a line for CHAT_KEEP_DAYS after it was said, an
answered report for REPORTS_KEEP_DAYS after its answer (an open report until it is answered).
A report keeps the text of the line it is about, so the moderators read it after the line
went."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.people.models import ChatLine, Report

BATCH = 5000


def people_sweep() -> dict[str, int]:
    """Delete the lines and the answered reports older than they are kept (a batch each);
    returns how many went."""
    now = timezone.now()
    old_lines = ChatLine.objects.filter(
        created_at__lt=now - timedelta(days=settings.CHAT_KEEP_DAYS)).order_by("id")
    lines, _ = ChatLine.objects.filter(
        pk__in=list(old_lines.values_list("pk", flat=True)[:BATCH])).delete()
    old_reports = Report.objects.exclude(status=Report.Status.OPEN).filter(
        handled_at__lt=now - timedelta(days=settings.REPORTS_KEEP_DAYS)).order_by("id")
    reports, _ = Report.objects.filter(
        pk__in=list(old_reports.values_list("pk", flat=True)[:BATCH])).delete()
    return {"lines": lines, "reports": reports}
