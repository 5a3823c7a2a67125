"""Closing an account: disabled (signing in opens it again) or deleted after a grace period
(signing in first cancels it); the deletion, done by the account sweep, leaves the matches and
histories of others whole under a stable pseudonym and retires the name for good."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken, RetiredName, User
from games.lifecycle import erasure
from games.lifecycle.sweep import account_work_sweep
from games.models import Match, Rating, RatingChange, UserEvent
from games.notify.models import NotificationSettings, PushSubscription
from games.services import SeatSpec, match_create, moderation
from tests.games.matchplay import assert_error, match_url
from tests.notify.helpers import play, start

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def finished(users: list[User], *, rated: bool = True) -> Match:
    match = start("nibble", users, rated=rated)
    while match.status == Match.Status.ACTIVE:
        play(match, users)
    return match


def running(users: list[User]) -> Match:
    match = start("nibble", users)
    play(match, users)
    return match


def close(client: APIClient, kind: str, password: str = PASSWORD):
    return client.post("/api/me/account/close", {"kind": kind, "password": password},
                       format="json")


def sign_in(username: str, password: str = PASSWORD):
    return APIClient().post("/api/auth/token", {"username": username, "password": password},
                            format="json")


def test_the_account_page_says_what_closing_and_exporting_involve(client_for, alice):
    body = client_for(alice).get("/api/me/account").json()
    assert body == {"deletion_grace_days": settings.ACCOUNT_DELETION_GRACE_DAYS,
                    "export_keep_days": settings.EXPORT_KEEP_DAYS, "can_close": True}


def test_disabling_leaves_every_running_match_and_signing_in_opens_it_again(
        client_for, alice, bob, carol):
    match = running([alice, bob])
    invited = match_create(user=carol, game="nibble", config={}, rated=False,
                           seats=[SeatSpec("me"), SeatSpec("user", username="alice")])
    client = client_for(alice)
    Rating.objects.create(user=alice, game="nibble", mu=30, sigma=1, display=1600)
    answer = close(client, "disable")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["closure"] == "disabled" and body["deletion_due_at"] is None
    assert body["matches"] == {str(match.id): "forfeited", str(invited.id): "seat_reopened"}
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.seats.get(user=alice).forfeit_reason == "resigned"
    # Signed out everywhere, not on the leaderboard, no profile.
    assert client.get("/api/me").status_code == 401
    assert not ApiToken.objects.filter(user=alice).exists()
    assert client_for(bob).get("/api/players/" + alice.username).status_code == 404
    assert client_for(bob).get("/api/leaderboards/nibble").json()["results"] == []
    # Signing in opens it again.
    again = sign_in(alice.username)
    assert again.status_code == 200, again.json()
    alice.refresh_from_db()
    assert alice.is_active and alice.closure == "" and alice.closed_at is None
    assert len(client_for(bob).get("/api/leaderboards/nibble").json()["results"]) == 1


def test_closing_needs_the_password_and_a_person(client_for, alice):
    client = client_for(alice)
    assert_error(close(client, "delete", "wrong-password-1"), 400, "wrong_password")
    assert_error(close(client, "forever"), 400, "validation_error")
    alice.refresh_from_db()
    assert alice.is_active and alice.closure == ""
    guest = APIClient()
    token = guest.post("/api/auth/guest", {}, format="json").json()["token"]
    guest.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert guest.get("/api/me/account").json()["can_close"] is False
    assert_error(close(guest, "delete", "anything-at-all"), 403, "guest_not_allowed")


def test_wrong_passwords_when_closing_count_towards_the_sign_in_limit(client_for, alice,
                                                                     settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = client_for(alice)
    for _ in range(2):
        assert_error(close(client, "disable", "wrong-password-1"), 400, "wrong_password")
    assert_error(close(client, "disable", "wrong-password-1"), 429, "too_many_attempts")
    assert_error(close(client, "disable"), 429, "too_many_attempts")
    alice.refresh_from_db()
    assert alice.is_active


def test_a_banned_account_does_not_open_by_signing_in(alice, bob):
    staff = User.objects.create_user("staff", password=PASSWORD, is_staff=True)
    moderation.user_ban(actor=staff, user_id=bob.pk, reason="abuse")
    assert_error(sign_in(bob.username), 401, "authentication_failed")
    bob.refresh_from_db()
    assert not bob.is_active


def test_signing_in_during_the_grace_period_cancels_the_deletion(client_for, alice):
    answer = close(client_for(alice), "delete")
    assert answer.status_code == 200
    due = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS)
    alice.refresh_from_db()
    assert alice.closure == "deleting" and abs(alice.deletion_due_at - due) < timedelta(
        minutes=1)
    assert sign_in(alice.username).status_code == 200
    alice.refresh_from_db()
    assert alice.closure == "" and alice.deletion_due_at is None and alice.is_active
    later = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS + 1)
    assert account_work_sweep(now=later)["deleted"] == 0
    assert User.objects.get(pk=alice.pk).username == alice.username


def test_a_deletion_due_leaves_a_stable_pseudonym_and_retires_the_name(
        client_for, alice, bob, carol, push_service, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        rated = finished([alice, bob])
    assert RatingChange.objects.filter(user=alice).exists()
    other = finished([bob, alice], rated=False)
    left = running([alice, carol])
    client = client_for(alice)
    alice.email = "alice@example.org"
    alice.save(update_fields=["email"])
    NotificationSettings.objects.create(user=alice, verified_email=alice.email)
    client.post("/api/me/push-subscriptions", push_service.device().as_json(), format="json")
    assert PushSubscription.objects.filter(user=alice).exists()
    assert close(client, "delete").status_code == 200
    left.refresh_from_db()
    assert left.status == Match.Status.FINISHED  # resigned when closing

    # Not yet: the grace period runs.
    assert account_work_sweep()["deleted"] == 0
    later = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS, minutes=1)
    assert account_work_sweep(now=later)["deleted"] == 1
    gone = User.objects.get(pk=alice.pk)
    assert gone.username.startswith("deleted-") and gone.closure == "deleted"
    assert (gone.email, gone.language, gone.has_usable_password()) == ("", "", False)
    for model in (ApiToken, PushSubscription, NotificationSettings, Rating, RatingChange,
                  UserEvent):
        assert not model.objects.filter(user=gone).exists(), model
    assert RatingChange.objects.filter(user=bob, match=rated).exists()

    # Bob's matches name the same pseudonym everywhere; his history is whole.
    names = set()
    for match in (rated, other, left):
        seats = client_for(bob if match != left else carol).get(match_url(match.id)).json()
        names |= {seat["player"]["username"] for seat in seats["seats"]} - {"bob", "carol"}
    assert names == {gone.username}
    assert client_for(bob).get(f"/api/players/{bob.username}/ratings/nibble/history"
                               ).json()["results"]
    assert client_for(bob).get(f"/api/players/{gone.username}").status_code == 404

    # The old name is never given out again, in any case; the old password opens nothing.
    assert RetiredName.objects.count() == 1
    for name in ("alice", "ALICE"):
        answer = APIClient().post("/api/auth/register", {"username": name,
                                                         "password": "a-long-secret-42"},
                                  format="json")
        assert_error(answer, 409, "username_taken")
    assert_error(sign_in("alice"), 401, "authentication_failed")
    # Done once: the sweep finds nothing more, and the steps run again change nothing.
    assert account_work_sweep(now=later)["deleted"] == 0
    erasure.erase(gone)
    assert User.objects.get(pk=alice.pk).username == gone.username


def test_the_registry_runs_every_step_in_order_with_the_account_last():
    names = [step.name for step in erasure.STEPS]
    # Tournaments before matches: every writer locks a tournament before its matches.
    assert names[:2] == ["tournaments", "matches"] and names[-1] == "account"
    assert len(set(names)) == len(names)


def test_the_sweep_runs_periodically():
    from config.celery_app import app

    entry = settings.CELERY_BEAT_SCHEDULE["sweep-accounts"]
    assert entry["task"] in app.tasks


def test_names_like_a_pseudonym_cannot_be_registered():
    answer = APIClient().post("/api/auth/register", {"username": "Deleted-abc",
                                                     "password": "a-long-secret-42"},
                              format="json")
    assert_error(answer, 400, "validation_error")


def test_a_match_rated_after_the_deletion_keeps_nothing_for_the_deleted_account(
        client_for, alice, bob):
    match = finished([alice, bob])  # rated once its task runs: after the deletion, here
    assert close(client_for(alice), "delete").status_code == 200
    later = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS, minutes=1)
    assert account_work_sweep(now=later)["deleted"] == 1
    from games.services import match_rate

    assert match_rate(match_id=str(match.id)) is True
    assert RatingChange.objects.filter(match=match, user=bob).exists()
    assert not Rating.objects.filter(user_id=alice.pk).exists()
    assert not RatingChange.objects.filter(user_id=alice.pk).exists()
    assert not UserEvent.objects.filter(user_id=alice.pk).exists()


def test_a_deletion_that_fails_holds_back_no_other(client_for, alice, bob, monkeypatch):
    for user in (alice, bob):
        assert close(client_for(user), "delete").status_code == 200
    real = erasure.STEPS

    def broken(user):
        if user.pk == alice.pk:
            raise RuntimeError("a step failed")
        return 0

    monkeypatch.setattr(erasure, "STEPS", (erasure.PerKind("broken", broken), *real))
    later = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS, minutes=1)
    done = account_work_sweep(now=later)
    assert (done["deleted"], done["failed"]) == (1, 1)
    assert User.objects.get(pk=alice.pk).closure == "deleting"
    assert User.objects.get(pk=bob.pk).closure == "deleted"
    monkeypatch.setattr(erasure, "STEPS", real)
    assert account_work_sweep(now=later)["deleted"] == 1


def test_closing_leaves_the_tournaments_and_the_deletion_takes_follows_blocks_and_chat(
        client_for, alice, bob, carol):
    from accounts.blocks import block_set
    from accounts.follows import follow
    from accounts.models import Block, Follow
    from games.people.chat import chat_say
    from games.people.models import ChatLine, Report
    from games.people.reports import report_file
    from games.tournaments.models import Entry
    from tests.tournaments.helpers import started, tournament_with

    waiting = tournament_with(carol, [alice, bob])
    running = started(tournament_with(carol, [alice, bob, carol], name="Running"))
    follow(user=alice, other=bob)
    follow(user=bob, other=alice)
    block_set(user=alice, other=carol)
    block_set(user=carol, other=alice, chat=True, games=False)
    match = start("nibble", [alice, bob])
    chat_say(user=alice, match_id=match.id, body="good luck")
    line = chat_say(user=bob, match_id=match.id, body="thanks")[0]
    report_file(reporter=alice, reason="other", note="just a test", line_id=line.pk)

    assert close(client_for(alice), "delete").status_code == 200
    assert not Entry.objects.filter(tournament=waiting, user=alice).exists()
    assert Entry.objects.get(tournament=running, user=alice).withdrawal == "withdrew"
    later = timezone.now() + timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS, minutes=1)
    assert account_work_sweep(now=later)["deleted"] == 1
    assert not Follow.objects.filter(follower_id=alice.pk).exists()
    assert not Follow.objects.filter(followed_id=alice.pk).exists()
    assert not Block.objects.filter(blocker_id=alice.pk).exists()
    assert not Block.objects.filter(blocked_id=alice.pk).exists()
    assert list(ChatLine.objects.values_list("body", flat=True)) == ["thanks"]
    # Her report stays in the moderators' record, under her pseudonym.
    assert Report.objects.get().reporter.username.startswith("deleted-")
    # Her tournament results stay in the standings, under the pseudonym.
    assert Entry.objects.get(tournament=running, user_id=alice.pk).user.username.startswith(
        "deleted-")
