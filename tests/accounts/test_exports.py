"""A player's data export: asked for, built by a worker, told by a notification (and a mail to a
verified address), downloaded by its owner alone until it expires; a lost build is caught up by
the account sweep."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import DataExport
from games.lifecycle import export
from games.lifecycle.sweep import account_work_sweep
from games.models import UserEvent
from games.services import scheduling
from tests.games.matchplay import assert_error
from tests.notify.conftest import parts
from tests.notify.helpers import play, start, verified

pytestmark = pytest.mark.django_db


@pytest.fixture
def ask(django_capture_on_commit_callbacks):
    """``ask(client)``: ask for an export; the build runs once the request commits."""

    def post(client):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post("/api/me/exports")

    return post


def archive(client, export_id: str):
    answer = client.get(f"/api/me/exports/{export_id}/archive")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"] == "application/json"
    assert answer["Content-Disposition"].startswith("attachment; filename=")
    assert answer["Cache-Control"] == "private, no-store"
    return json.loads(answer.content)


def test_an_export_holds_what_the_server_keeps_about_the_player(
        ask, smtp, client_for, alice, bob):
    match = start("nibble", [alice, bob])
    play(match, [alice, bob])
    verified(alice)
    client = client_for(alice)
    client.patch("/api/me/settings", {"language": "fr"}, format="json")
    answer = ask(client)
    assert answer.status_code == 202, answer.json()
    made = answer.json()
    assert made["status"] == "pending"
    ready = client.get(f"/api/me/exports/{made['id']}").json()
    assert ready["status"] == "ready" and ready["size"] > 0
    assert [e["id"] for e in client.get("/api/me/exports").json()] == [made["id"]]

    # Told in the feed and by mail (in the player's language), with the account page's link.
    told = UserEvent.objects.get(user=alice, type=UserEvent.Type.EXPORT_READY)
    assert told.data["export"] == made["id"]
    [mail] = [m for m in smtp.messages if "/account" in parts(m)[0]]
    assert mail["To"] == alice.email

    data = archive(client, made["id"])
    assert data["format"] == "boardpost-export/1" and data["username"] == "alice"
    sections = data["sections"]
    assert set(sections) == {s.name for s in export.SECTIONS}
    assert sections["profile"]["email"] == alice.email
    assert sections["profile"]["language"] == "fr"
    assert sections["notification_settings"]["verified_email"] == alice.email
    assert [t["name"] for t in sections["tokens"]] == ["test"]
    assert all("digest" not in t and "key" not in t for t in sections["tokens"])
    [exported] = sections["matches"]
    assert exported["id"] == str(match.id) and len(exported["moves"]) == match.version
    # Exactly what the API shows the player, minus what changes with the moment asked.
    shown = client.get(f"/api/matches/{match.id}").json()
    for key in ("seats", "view", "legal_moves", "status", "version", "seed"):
        assert exported[key] == shown[key], key
    assert {"match_started", "your_turn"} <= {n["type"] for n in sections["notifications"]}


def test_an_export_is_its_owner_s_alone(ask, client_for, alice, bob):
    made = ask(client_for(alice)).json()
    other = client_for(bob)
    assert_error(other.get(f"/api/me/exports/{made['id']}"), 404, "not_found")
    assert_error(other.get(f"/api/me/exports/{made['id']}/archive"), 404, "not_found")
    assert other.get("/api/me/exports").json() == []
    assert_error(APIClient().get(f"/api/me/exports/{made['id']}/archive"), 401,
                 "not_authenticated")


def test_it_expires_and_the_sweep_deletes_it(ask, client_for, alice):
    client = client_for(alice)
    made = ask(client).json()
    later = timezone.now() + timedelta(days=settings.EXPORT_KEEP_DAYS, minutes=1)
    assert export.exports_of(user=alice)
    with pytest.raises(Exception) as raised:
        export.export_document(user=alice, export_id=made["id"], now=later)
    assert getattr(raised.value, "code", None) == "export_expired"
    assert account_work_sweep(now=later)["exports_expired"] == 1
    assert_error(client.get(f"/api/me/exports/{made['id']}/archive"), 404, "not_found")


def test_one_export_at_a_time_and_a_lost_build_is_caught_up(client_for, alice, monkeypatch,
                                                          ask):
    client = client_for(alice)
    monkeypatch.setattr(scheduling, "send", lambda *args, **kwargs: None)
    made = ask(client).json()
    assert_error(client.post("/api/me/exports"), 409, "export_pending")
    assert_error(client.get(f"/api/me/exports/{made['id']}/archive"), 409, "export_not_ready")
    monkeypatch.undo()
    assert account_work_sweep()["exports_requeued"] == 0  # within the grace period
    later = timezone.now() + timedelta(seconds=settings.ACCOUNT_WORK_GRACE_SECONDS + 1)
    assert account_work_sweep(now=later)["exports_requeued"] == 1
    assert DataExport.objects.get(pk=made["id"]).status == "ready"
    assert export.export_build(export_id=made["id"]) is False  # built once only
    assert archive(client, made["id"])["username"] == "alice"


def test_exports_asked_for_are_throttled(ask, client_for, alice, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "export", "2/day")
    client = client_for(alice)
    assert [ask(client).status_code for _ in range(3)] == [202, 202, 429]
    assert client.get("/api/me/exports").status_code == 200


def test_the_rating_history_is_exported(ask, client_for, alice, bob,
                                        django_capture_on_commit_callbacks):
    from tests.accounts.test_closing import finished

    with django_capture_on_commit_callbacks(execute=True):
        match = finished([alice, bob])
    client = client_for(alice)
    ratings = archive(client, ask(client).json()["id"])["sections"]["ratings"]
    assert [r["game"] for r in ratings["current"]] == ["nibble"]
    [change] = ratings["history"]
    assert change["match"] == str(match.id) and change["game"] == "nibble"
    assert {"rank", "display_before", "display_after", "at"} <= set(change)


def test_follows_blocks_chat_reports_and_tournaments_are_exported(ask, client_for, alice, bob,
                                                                  carol):
    from accounts.blocks import block_set
    from accounts.follows import follow
    from games.people.chat import chat_say
    from games.people.reports import report_file
    from tests.tournaments.helpers import tournament_with

    match = start("nibble", [alice, bob])
    follow(user=alice, other=bob)
    follow(user=carol, other=alice)
    block_set(user=alice, other=carol, games=True, chat=False)
    block_set(user=bob, other=alice)  # never told to alice
    chat_say(user=alice, match_id=match.id, body="have fun")
    report_file(reporter=alice, reason="stalling", note="slow", username="bob")
    tournament_with(carol, [alice], name="Spring Swiss")
    client = client_for(alice)
    sections = archive(client, ask(client).json()["id"])["sections"]
    assert [f["username"] for f in sections["follows"]["following"]] == ["bob"]
    assert [f["username"] for f in sections["follows"]["followers"]] == ["carol"]
    assert [(b["username"], b["games"], b["chat"]) for b in sections["blocks"]] == [
        ("carol", True, False)]
    assert [(c["match"], c["body"]) for c in sections["chat_lines"]] == [
        (str(match.id), "have fun")]
    [report] = sections["reports_filed"]
    assert (report["reason"], report["player"], report["status"]) == ("stalling", "bob", "open")
    [entry] = sections["tournaments"]
    assert entry["name"] == "Spring Swiss" and entry["withdrawn_at"] is None
    assert sections["profile"]["invitations"] == "everyone"
