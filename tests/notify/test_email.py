"""Mail end to end through a local SMTP server (aiosmtpd): only to a verified address, plain
text and HTML, one-click unsubscribe links that need no sign-in, retries, the daily digest."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.core import mail as django_mail

from games.models import UserEvent
from games.notify.delivery import deliver
from games.notify.digest import digest_send
from games.notify.models import Delivery, NotificationSettings
from games.services.notifications import notify
from tests.notify.conftest import parts
from tests.notify.helpers import entries, start, until_turn_of, verified

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    split = urlsplit(url)
    return f"{split.path}?{split.query}"


def test_your_turn_is_mailed_with_text_html_and_unsubscribe_links(
        smtp, alice, bob, api_client, django_capture_on_commit_callbacks):
    verified(alice)
    with django_capture_on_commit_callbacks(execute=True):
        match = until_turn_of(start("nibble", [bob, alice]), [bob, alice], alice)
    subjects = [m["Subject"] for m in smtp.messages]
    assert "Invitation to Nibble" in subjects and "Your turn in Nibble" in subjects
    message = next(m for m in smtp.messages if m["Subject"] == "Your turn in Nibble")
    assert message["To"] == "alice@example.org"
    text, html = parts(message)
    assert f"http://testserver/match/{match.id}" in text and f"/match/{match.id}" in html
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    one_click = "".join(str(message["List-Unsubscribe"]).split()).strip("<>")
    kind_link = next(line.split(": ", 1)[1] for line in text.splitlines()
                     if line.startswith("Stop mails about your turn"))
    assert kind_link in html.replace("&amp;", "&")

    # The kind's link, opened in a browser with no sign-in, asks; its button stops your-turn
    # mails (tests/notify/test_unsubscribe.py: the GET alone changes nothing).
    page = api_client.get(_path(kind_link), HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    assert "Stop mails about your turn?" in page.content.decode()
    page = api_client.post(_path(kind_link), HTTP_ACCEPT="text/html")
    assert "No more mails about your turn" in page.content.decode()
    prefs = NotificationSettings.objects.get(user=alice).preferences
    assert prefs["your_turn"]["email"] is False and prefs["invited"]["email"] is True
    # RFC 8058: the mail program POSTs the header's link as a form; every mail stops.
    answer = api_client.post(_path(one_click), "List-Unsubscribe=One-Click",
                             content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200, answer.content
    assert set(answer.json()["turned_off"]) == {"your_turn", "deadline_soon", "invited",
                                                "match_finished", "vacation_ending",
                                                "vacation_ended", "auto_vacation_started",
                                                "plan_not_covered", "plan_dropped", "chat",
                                                "tournament", "export_ready"}
    count = len(smtp.messages)
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert len(smtp.messages) == count


def test_bad_unsubscribe_links_are_coded_errors(api_client, alice):
    from games.notify import mail

    for token in ["nonsense", mail.unsubscribe_token(alice.id, "all") + "x",
                  mail.verify_token(alice.id, "a@example.org")]:
        answer = api_client.get("/api/notifications/unsubscribe", {"token": token})
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_token"
    answer = api_client.get("/api/notifications/unsubscribe")
    assert answer.json()["code"] == "validation_error"


def test_no_mail_without_a_verified_address_and_the_verification_flow(
        smtp, alice, client_for, api_client, django_capture_on_commit_callbacks):
    client = client_for(alice)
    answer = client.put("/api/me/email", {"email": "ada@example.org"}, format="json")
    assert answer.status_code == 200 and answer.json()["email_verified"] is False
    [verification] = smtp.messages
    assert verification["Subject"] == "Boardpost: confirm your email address"
    text, _ = parts(verification)
    link = next(word for word in text.split() if "/api/me/email/verify?" in word)
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert len(smtp.messages) == 1  # not verified yet: nothing
    answer = api_client.get(_path(link))
    assert answer.status_code == 200, answer.json()
    assert client.get("/api/me/notifications").json()["email_verified"] is True
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert smtp.messages[-1]["Subject"] == "Invitation to Nibble"
    # A new address must be verified again; the old link no longer verifies anything.
    client.put("/api/me/email", {"email": "other@example.org"}, format="json")
    assert client.get("/api/me/notifications").json()["email_verified"] is False
    answer = api_client.get(_path(link))
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_token"


def test_an_smtp_server_that_refuses_for_now_is_retried(
        eager_retries, smtp, alice, django_capture_on_commit_callbacks):
    verified(alice)
    smtp.refuse = 2
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert [m["Subject"] for m in smtp.messages] == ["Invitation to Nibble"]
    delivery = Delivery.objects.get(event=entries(alice)[-1], channel="email")
    assert delivery.status == "sent" and delivery.attempts == 3


def test_one_feed_entry_is_mailed_once(smtp, alice):
    verified(alice)
    notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    entry = entries(alice)[-1]
    for _ in range(3):
        deliver([entry.id])
    assert len(smtp.messages) == 1


def test_the_daily_digest_gathers_the_mails(smtp, alice, client_for,
                                            django_capture_on_commit_callbacks):
    from datetime import timedelta

    from django.utils import timezone

    verified(alice)
    client = client_for(alice)
    answer = client.patch("/api/me/notifications", {"email_digest": True}, format="json")
    assert answer.status_code == 200 and answer.json()["email_digest"] is True
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
        notify(user_ids=[alice.id], type=UserEvent.Type.DEADLINE_SOON, game="nimble")
    assert smtp.messages == []
    tomorrow = timezone.now() + timedelta(days=1)  # past the next 08:00 UTC
    assert digest_send(now=tomorrow) == {"mails": 1, "items": 2}
    [digest] = smtp.messages
    text, html = parts(digest)
    assert "Invitation to Nibble" in text and "Nimble: your deadline is near" in html
    assert digest["List-Unsubscribe"]
    assert digest_send(now=tomorrow) == {"mails": 0, "items": 0}
    assert set(Delivery.objects.filter(user=alice).values_list("status", flat=True)) == \
        {"digested"}


def test_defaults_and_preferences(smtp, push_service, alice, client_for,
                                  django_capture_on_commit_callbacks):
    verified(alice)
    client = client_for(alice)
    device = push_service.device()
    client.post("/api/me/push-subscriptions", device.as_json(), format="json")
    settings = client.get("/api/me/notifications").json()
    assert settings["preferences"]["match_finished"] == {"push": True, "email": False}
    assert settings["preferences"]["your_turn"] == {"push": True, "email": True}
    assert settings["devices"] == 1 and settings["vapid_public_key"]
    answer = client.patch("/api/me/notifications", {"preferences": {
        "invited": {"push": False}}}, format="json")
    assert answer.json()["preferences"]["invited"] == {"push": False, "email": True}
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert push_service.for_device(device) == []
    assert [m["Subject"] for m in smtp.messages] == ["Invitation to Nibble"]
    for bad in [{"preferences": {"invited": {"sms": True}}},
                {"preferences": {"gossip": {"push": True}}},
                {"preferences": {"invited": {"push": "yes"}}},
                {"email_digest": 1}, []]:
        answer = client.patch("/api/me/notifications", bad, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "validation_error", bad


def test_the_locmem_outbox_is_left_alone(alice):
    # Without a verified address nothing is mailed, whatever the backend.
    notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    deliver([entries(alice)[-1].id])
    assert django_mail.outbox == []
