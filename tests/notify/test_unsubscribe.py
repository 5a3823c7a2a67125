"""One-click unsubscribe that a mail scanner cannot trigger (RFC 8058): the mail's
List-Unsubscribe-Post header names a POST that unsubscribes at once with no sign-in, while a
GET of any link in the mail (a scanner, a preview, a person) only shows a confirmation page
whose button POSTs."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest

from games.models import UserEvent
from games.notify import mail
from games.notify.models import NotificationSettings
from games.services.notifications import notify
from tests.notify.conftest import parts
from tests.notify.helpers import verified

pytestmark = pytest.mark.django_db


def _path(url: str) -> str:
    split = urlsplit(url)
    return f"{split.path}?{split.query}"


def _mailed(smtp, alice, django_capture_on_commit_callbacks):
    verified(alice)
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    [message] = smtp.messages
    return message


def _email_prefs(user) -> dict[str, bool]:
    found = NotificationSettings.objects.get(user=user)
    from games.notify.kinds import preferences_with_defaults

    return {kind: channels["email"]
            for kind, channels in preferences_with_defaults(found.preferences).items()}


def test_a_get_of_every_link_changes_nothing_and_shows_a_button_that_posts(
        smtp, alice, api_client, django_capture_on_commit_callbacks):
    message = _mailed(smtp, alice, django_capture_on_commit_callbacks)
    text, html = parts(message)
    header = "".join(str(message["List-Unsubscribe"]).split()).strip("<>")
    links = [header] + [word for word in text.split() if "/api/notifications/unsubscribe?" in word]
    assert len(links) == 3  # the header's (all mail), the kind's and all mail in the body
    before = _email_prefs(alice)
    # What a scanner does: GET every link, with whatever it accepts.
    for link in links:
        for accept in ("text/html", "application/json", "*/*"):
            answer = api_client.get(_path(link), HTTP_ACCEPT=accept)
            assert answer.status_code == 200, answer.content
        assert api_client.head(_path(link)).status_code in (200, 405)
    assert _email_prefs(alice) == before
    settings = NotificationSettings.objects.get(user=alice)
    assert settings.email_digest is False and settings.verified_email

    # The page a person sees: what would stop, and a form that POSTs to the same link.
    kind_link = next(line.split(": ", 1)[1] for line in text.splitlines()
                     if line.startswith("Stop mails about an invitation"))
    page = api_client.get(_path(kind_link), HTTP_ACCEPT="text/html").content.decode()
    assert "Stop mails about an invitation?" in page
    form = re.search(r'<form method="post" action="([^"]+)">', page)
    assert form is not None and "<button type=\"submit\">" in page
    action = unescape(form.group(1))
    assert action == _path(kind_link)
    # JSON clients get the same, as data.
    answer = api_client.get(_path(kind_link)).json()
    assert answer["kinds"] == ["invited"] and answer["confirm_url"] == action
    assert _email_prefs(alice) == before

    # The button: the form's POST (as a browser sends it) stops invitation mails only.
    done = api_client.post(action, {"List-Unsubscribe": "One-Click"}, format="multipart",
                           HTTP_ACCEPT="text/html")
    assert done.status_code == 200
    assert "No more mails about an invitation" in done.content.decode()
    after = _email_prefs(alice)
    assert after["invited"] is False and after["your_turn"] is True


def test_the_one_click_post_of_the_header_unsubscribes_at_once_without_sign_in(
        smtp, alice, api_client, django_capture_on_commit_callbacks):
    message = _mailed(smtp, alice, django_capture_on_commit_callbacks)
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    header = "".join(str(message["List-Unsubscribe"]).split()).strip("<>")
    assert header.startswith("http://testserver/api/notifications/unsubscribe?token=")
    # RFC 8058 section 3.2: a POST of "List-Unsubscribe=One-Click" as a form, no cookies.
    answer = api_client.post(_path(header), "List-Unsubscribe=One-Click",
                             content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 200, answer.content
    assert set(answer.json()["turned_off"]) == {"your_turn", "deadline_soon", "invited",
                                                "match_finished", "vacation_ending",
                                                "vacation_ended", "auto_vacation_started",
                                                "plan_not_covered", "plan_dropped", "chat",
                                                "tournament", "export_ready"}
    assert not any(_email_prefs(alice).values())
    assert NotificationSettings.objects.get(user=alice).email_digest is False
    # Nothing more is mailed.
    count = len(smtp.messages)
    notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert len(smtp.messages) == count
    # The same POST again is harmless.
    again = api_client.post(_path(header), "List-Unsubscribe=One-Click",
                            content_type="application/x-www-form-urlencoded")
    assert again.status_code == 200


def test_bad_tokens_are_refused_by_get_and_post_alike(api_client, alice):
    forged = mail.unsubscribe_token(alice.id, "all")[:-2] + "xx"
    wrong_salt = mail.verify_token(alice.id, "a@example.org")
    unknown_kind = mail.unsubscribe_token(alice.id, "gossip")
    for token in ("nonsense", forged, wrong_salt, unknown_kind):
        for method in (api_client.get, api_client.post):
            answer = method(f"/api/notifications/unsubscribe?token={token}")
            assert answer.status_code == 400, (token, answer.content)
            assert answer.json()["code"] == "invalid_token"
    page = api_client.get(f"/api/notifications/unsubscribe?token={forged}",
                          HTTP_ACCEPT="text/html")
    assert page.status_code == 400 and "<form" not in page.content.decode()
    assert not NotificationSettings.objects.filter(user=alice).exists()
