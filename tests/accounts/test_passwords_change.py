"""Changing one's password (the current one confirms it; every other token and session ends)
and choosing a new one by mail when it is forgotten: a single-use link that expires, in the
account's language, asked for with an answer that never tells whether the account exists;
mails received by a real SMTP server."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken, PasswordResetRequest, User
from games.lifecycle.sweep import account_work_sweep
from games.services import scheduling
from tests.accounts.test_closing import PASSWORD, close, sign_in
from tests.games.matchplay import assert_error
from tests.notify.conftest import parts

pytestmark = pytest.mark.django_db

NEW = "a-brand-new-secret-77"


@pytest.fixture
def forgot(django_capture_on_commit_callbacks):
    """``forgot(email, **headers)``: ask for a reset mail; its task runs once the request's
    transaction commits, as it would in a worker."""

    def ask(email: str, **headers):
        with django_capture_on_commit_callbacks(execute=True):
            return APIClient().post("/api/auth/password/forgot", {"email": email},
                                    format="json", **headers)

    return ask


def reset(link: str, password: str = NEW):
    query = parse_qs(urlsplit(link).query)
    return APIClient().post("/api/auth/password/reset", {
        "uid": query["uid"][0], "token": query["token"][0], "password": password},
        format="json")


def link_in(message) -> str:
    text, html = parts(message)
    link = next(word for word in text.split() if "/password/reset?" in word)
    assert link.replace("&", "&amp;") in html
    return link


def test_changing_the_password_ends_every_other_token(client_for, alice):
    keep, other = client_for(alice), client_for(alice)
    answer = keep.post("/api/me/password", {"current_password": PASSWORD,
                                            "new_password": NEW}, format="json")
    assert answer.status_code == 204, answer.content
    assert keep.get("/api/me").status_code == 200
    assert other.get("/api/me").status_code == 401
    assert ApiToken.objects.filter(user=alice).count() == 1
    assert sign_in("alice").status_code == 401
    assert sign_in("alice", NEW).status_code == 200


def test_a_password_change_needs_the_current_one_and_a_good_new_one(client_for, alice):
    client = client_for(alice)
    assert_error(client.post("/api/me/password", {"current_password": "not-it-at-all",
                                                  "new_password": NEW}, format="json"),
                 400, "wrong_password")
    assert_error(client.post("/api/me/password", {"current_password": PASSWORD,
                                                  "new_password": "12345678"}, format="json"),
                 400, "invalid_password")
    assert_error(client.post("/api/me/password", {"new_password": NEW}, format="json"),
                 400, "validation_error")
    assert sign_in("alice").status_code == 200


def test_a_forgotten_password_is_chosen_again_through_a_single_use_link(forgot, smtp, alice, bob,
                                                                        client_for):
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    signed_in = client_for(alice)
    answer = forgot("ALICE@example.org")
    assert answer.status_code == 202
    [message] = smtp.messages
    assert message["To"] == "alice@example.org"
    assert message["Subject"] == "Boardpost: choose a new password"
    link = link_in(message)
    assert link.startswith("http://testserver/password/reset?")
    assert not PasswordResetRequest.objects.exists()  # the address asked about is not kept
    assert_error(reset(link, "12345678"), 400, "invalid_password")
    assert reset(link).status_code == 204
    assert signed_in.get("/api/me").status_code == 401  # every token ended
    assert sign_in("alice").status_code == 401
    assert sign_in("alice", NEW).status_code == 200
    # Used once: the link does no more.
    assert_error(reset(link, "yet-another-secret-9"), 400, "invalid_reset_link")


def test_the_answer_never_tells_whether_an_account_has_the_address(forgot, smtp, alice):
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    answers, times = [], []
    for address in ["alice@example.org", "nobody@example.org"] * 3:
        start = time.perf_counter()
        answer = forgot(address)
        times.append(time.perf_counter() - start)
        answers.append((answer.status_code, answer.content))
    assert len(set(answers)) == 1 and answers[0][0] == 202
    assert len(smtp.messages) == 3
    # The same work either way (one row, one task); the mail is sent by the task, which in the
    # tests runs before the answer, so only the order of magnitude is compared here.
    assert max(times) < 2.0


def test_an_expired_or_forged_link_does_nothing(forgot, smtp, alice):
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    forgot("alice@example.org")
    link = link_in(smtp.messages[-1])
    later = timezone.now() + timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    with time_machine.travel(later):
        assert_error(reset(link), 400, "invalid_reset_link")
    query = parse_qs(urlsplit(link).query)
    for uid, token in [(query["uid"][0], "1-abc"), ("zzzz", query["token"][0]),
                       ("OTk5OTk5OTk5OTk5OTk5OTk5OTk5OQ", query["token"][0])]:
        answer = APIClient().post("/api/auth/password/reset",
                                  {"uid": uid, "token": token, "password": NEW}, format="json")
        assert_error(answer, 400, "invalid_reset_link")
    assert sign_in("alice").status_code == 200


def test_the_mail_is_in_the_account_language(forgot, smtp, alice, bob):
    for user, language in ((alice, "fr"), (bob, "ko")):
        user.email, user.language = "shared@example.org", language
        user.save(update_fields=["email", "language"])
    forgot("shared@example.org", HTTP_ACCEPT_LANGUAGE="pt-br")
    subjects = {message["Subject"] for message in smtp.messages}
    assert len(smtp.messages) == 2
    assert all(not subject.startswith("Boardpost: choose") for subject in subjects), subjects
    # An account that chose no language gets the asker's.
    alice.language = ""
    alice.save(update_fields=["language"])
    bob.email = ""
    bob.save(update_fields=["email"])
    forgot("shared@example.org", HTTP_ACCEPT_LANGUAGE="pt-br")
    assert smtp.messages[-1]["Subject"] not in subjects | {"Boardpost: choose a new password"}


def test_bots_guests_and_banned_or_deleted_accounts_get_no_mail(forgot, smtp, alice, client_for):
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    User.objects.filter(pk=alice.pk).update(is_active=False)  # banned
    forgot("alice@example.org")
    assert smtp.messages == []
    User.objects.filter(pk=alice.pk).update(is_active=True)
    close(client_for(alice), "disable")
    forgot("alice@example.org")  # a disabled account may choose a new password
    assert len(smtp.messages) == 1


def test_asking_is_throttled_per_address_asked_about(forgot, smtp, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "password_forgot_email", "2/hour")
    codes = [forgot("victim@example.org", REMOTE_ADDR=f"10.0.0.{n}").status_code
             for n in range(3)]
    assert codes == [202, 202, 429]
    assert forgot("other@example.org").status_code == 202


def test_a_lost_mail_task_is_sent_by_the_sweep(forgot, smtp, alice, monkeypatch):
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    monkeypatch.setattr(scheduling, "send", lambda *args, **kwargs: None)
    forgot("alice@example.org")  # the task is lost
    assert smtp.messages == [] and PasswordResetRequest.objects.count() == 1
    monkeypatch.undo()
    assert account_work_sweep()["resets_requeued"] == 0  # within the grace period
    later = timezone.now() + timedelta(seconds=settings.ACCOUNT_WORK_GRACE_SECONDS + 1)
    assert account_work_sweep(now=later)["resets_requeued"] == 1
    assert len(smtp.messages) == 1 and not PasswordResetRequest.objects.exists()
    assert re.search(r"/password/reset\?uid=", parts(smtp.messages[0])[0])
