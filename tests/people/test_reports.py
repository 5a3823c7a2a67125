"""Reports: filing one (a player, a line, a match), and the moderators' queue with its context
and answers (dismiss, warn, mute chat for N days, shadow-ban, ban), each in the audit log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import AuditEntry, UserEvent
from games.people.models import Report, Standing
from tests.factories import UserFactory
from tests.games.matchplay import assert_error, match_url
from tests.ops.test_moderation import moderator, staff_client  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db


def report(client, status: int = 201, **body) -> dict:
    response = client.post("/api/reports", body, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def line_of(client, match_id: str, body: str) -> int:
    response = client.post(match_url(match_id, "chat"), {"body": body}, format="json")
    assert response.status_code == 201
    return response.json()["id"]


def test_reporting_a_player_a_line_and_a_match(nibble, client_for, alice, bob, carol):
    line = line_of(nibble.b, nibble.id, "you are terrible")
    filed = report(nibble.a, line=line, reason="abuse", note="  rude  ")
    assert (filed["reason"], filed["status"]) == ("abuse", "open")
    assert report(nibble.a, 200, line=line, reason="abuse") == filed  # the same open report
    stored = Report.objects.get(pk=filed["id"])
    assert (stored.player, stored.line_text, stored.note) == (bob, "you are terrible", "rude")
    assert str(stored.match_id) == nibble.id
    report(nibble.a, match=nibble.id, reason="stalling")
    report(client_for(carol), username="Bob", reason="cheating")
    assert Report.objects.count() == 3


def test_what_cannot_be_reported(nibble, client_for, carol):
    own = line_of(nibble.a, nibble.id, "gl")
    assert_error(nibble.a.post("/api/reports", {"line": own, "reason": "abuse"},
                               format="json"), 404, "not_found")
    assert_error(nibble.a.post("/api/reports", {"username": "alice", "reason": "abuse"},
                               format="json"), 404, "not_found")
    # carol may not see the running match, nor so its lines.
    other = line_of(nibble.b, nibble.id, "hi")
    for body in ({"line": other}, {"match": nibble.id}, {"username": "nobody"}):
        assert_error(client_for(carol).post("/api/reports", {**body, "reason": "abuse"},
                                            format="json"), 404, "not_found")
    assert_error(nibble.a.post("/api/reports", {"reason": "abuse"}, format="json"), 400,
                 "invalid_report")
    assert_error(nibble.a.post("/api/reports", {"username": "bob", "match": nibble.id,
                                                "reason": "abuse"}, format="json"),
                 400, "invalid_report")
    assert_error(nibble.a.post("/api/reports", {"username": "bob", "reason": "rude"},
                               format="json"), 400, "validation_error")
    assert Report.objects.count() == 0


QUEUE = "admin:people_report_changelist"


def answer(staff, action: str, reports: list[int], **form) -> None:
    response = staff.post(reverse(QUEUE), {"action": action, "_selected_action": reports,
                                           "confirm": "yes", "reason": "seen it", **form})
    assert response.status_code == 302, response.content[:500]


def test_the_queue_shows_the_context(nibble, staff_client, bob):  # noqa: F811
    line = line_of(nibble.b, nibble.id, "you are terrible")
    first = report(nibble.a, line=line, reason="abuse")
    report(nibble.a, match=nibble.id, reason="stalling")
    queue = staff_client.get(reverse(QUEUE))
    assert queue.status_code == 200 and b"you are terrible" in queue.content
    page = staff_client.get(reverse("admin:people_report_change", args=[first["id"]]))
    assert page.status_code == 200
    assert b"you are terrible" in page.content
    assert reverse("admin:games_match_change", args=[nibble.id]).encode() in page.content
    confirm = staff_client.post(reverse(QUEUE), {"action": "mute_players",
                                          "_selected_action": [first["id"]]})
    assert b"seen it" not in confirm.content and b"days" in confirm.content


def test_each_answer_is_recorded(nibble, staff_client, moderator,  # noqa: F811
                                  alice, bob, carol, client_for):
    line = line_of(nibble.b, nibble.id, "you are terrible")
    dismissed = report(nibble.a, match=nibble.id, reason="other")["id"]
    answer(staff_client, "dismiss_reports", [dismissed])
    assert Report.objects.get(pk=dismissed).status == "dismissed"
    warned = report(nibble.a, line=line, reason="abuse")["id"]
    also = report(client_for(carol), username="bob", reason="abuse")["id"]
    answer(staff_client, "warn_players", [warned])
    assert {r.status for r in Report.objects.filter(pk__in=[warned, also])} == {"acted"}
    assert UserEvent.objects.filter(user=bob, type="warned").count() == 1
    muted = report(nibble.a, username="bob", reason="abuse")["id"]
    answer(staff_client, "mute_players", [muted], days=3)
    standing = Standing.objects.get(user=bob)
    assert standing.warnings == 1 and standing.chat_muted_until > timezone.now()
    assert_error(nibble.b.post(match_url(nibble.id, "chat"), {"body": "sorry"},
                               format="json"), 403, "chat_muted")
    shadowed = report(nibble.a, username="bob", reason="abuse")["id"]
    answer(staff_client, "shadow_ban_players", [shadowed])
    assert Standing.objects.get(user=bob).shadow_banned
    banned = report(nibble.a, username="bob", reason="cheating")["id"]
    answer(staff_client, "ban_players", [banned])
    bob.refresh_from_db()
    assert not bob.is_active
    actions = list(AuditEntry.objects.order_by("id").values_list("action", "target_user",
                                                                  "actor"))
    assert actions == [(a, bob.pk if a != "dismiss" else None, moderator.pk) for a in (
        "dismiss", "warn", "mute_chat", "shadow_ban", "ban")]
    # An answered report is not answered again.
    answer(staff_client, "warn_players", [warned])
    assert AuditEntry.objects.count() == 5


def test_answering_needs_the_moderate_permission(nibble, client_for):
    clerk = UserFactory(is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_report"))
    client = Client()
    client.force_login(clerk)
    filed = report(nibble.a, match=nibble.id, reason="stalling")["id"]
    assert client.get(reverse(QUEUE)).status_code == 200
    client.post(reverse(QUEUE), {"action": "dismiss_reports", "_selected_action": [filed],
                                 "confirm": "yes", "reason": "x"})
    assert Report.objects.get(pk=filed).status == "open"
    assert not AuditEntry.objects.exists()
