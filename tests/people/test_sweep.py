"""How long lines and reports are kept: the sweep deletes lines older than CHAT_KEEP_DAYS and
answered reports older than REPORTS_KEEP_DAYS; an open report stays, with its line's text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.people.models import ChatLine, Report
from games.people.tasks import people_sweep_task

pytestmark = pytest.mark.django_db


def test_old_lines_and_old_answered_reports_go(nibble, alice, bob, settings):
    now = timezone.now()
    old = ChatLine.objects.create(match_id=nibble.id, author=bob, room="players", body="old")
    new = ChatLine.objects.create(match_id=nibble.id, author=bob, room="players", body="new")
    ChatLine.objects.filter(pk=old.pk).update(
        created_at=now - timedelta(days=settings.CHAT_KEEP_DAYS + 1))
    open_one = Report.objects.create(reporter=alice, player=bob, line=old, line_text="old",
                                     reason="abuse")
    answered = [Report.objects.create(reporter=alice, player=bob, reason="other",
                                      status="dismissed", handled_at=now - timedelta(days=days))
                for days in (settings.REPORTS_KEEP_DAYS + 1, 1)]
    assert people_sweep_task() == {"lines": 1, "reports": 1}
    assert list(ChatLine.objects.values_list("pk", flat=True)) == [new.pk]
    kept = Report.objects.get(pk=open_one.pk)
    assert (kept.line, kept.line_text) == (None, "old")
    assert set(Report.objects.values_list("pk", flat=True)) == {open_one.pk, answered[1].pk}
    assert people_sweep_task() == {"lines": 0, "reports": 0}
