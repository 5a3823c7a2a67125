"""Guests: an account made at once without signing up (unrated, bots only, limited), signed up
later in place keeping its matches; idle guests are cleaned up. And sign-up limits that a
school or a café behind one address does not reach."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken, User
from games.lifecycle.erasure import guests_idle_delete
from games.models import Match, Rating
from tests.factories import BotFactory
from tests.games.matchplay import assert_error, match_url

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-42"
VS_BOT = {"game": "nibble", "seats": [{"kind": "me"}, {"kind": "bot", "level": 1}]}


@pytest.fixture
def nibble_bot(db):
    return BotFactory(bot_game="nibble", bot_level=1)


def new_guest() -> tuple[APIClient, dict]:
    client = APIClient()
    response = client.post("/api/auth/guest", {}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    return client, body


def test_a_guest_gets_an_account_and_a_token_at_once():
    client, body = new_guest()
    assert body["username"].startswith("guest-") and body["token"].startswith("bp_")
    me = client.get("/api/me").json()
    assert me["username"] == body["username"] and me["is_guest"] is True
    settings_body = client.get("/api/me/settings").json()
    assert (settings_body["matches_private"], settings_body["is_guest"]) == (False, True)
    guest = User.objects.get(username=body["username"])
    assert not guest.has_usable_password()
    token = ApiToken.objects.get(user=guest)
    days = (token.expires - timezone.now()).days
    assert settings.GUEST_TOKEN_DAYS - 1 <= days <= settings.GUEST_TOKEN_DAYS


def test_a_guest_plays_a_bot_unrated(nibble_bot):
    client, _ = new_guest()
    response = client.post("/api/matches", VS_BOT, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["rated"] is False and response.json()["status"] == "active"


def test_a_guest_invites_nobody_opens_no_seat_and_joins_nobody(nibble_bot, client_for, alice):
    client, _ = new_guest()
    invite = {"game": "nibble", "seats": [{"kind": "me"}, {"kind": "user", "username": "alice"}]}
    assert_error(client.post("/api/matches", invite, format="json"), 403, "guest_not_allowed")
    assert_error(client.post("/api/matches", {"game": "nibble"}, format="json"), 403,
                 "guest_not_allowed")
    opened = client_for(alice).post("/api/matches", {"game": "nibble"}, format="json").json()
    assert_error(client.post(match_url(opened["id"], "join")), 403, "guest_not_allowed")
    assert Match.objects.filter(created_by__is_guest=True).count() == 0


def test_nobody_can_invite_a_guest(client_for, alice):
    _, guest = new_guest()
    invite = {"game": "nibble", "seats": [{"kind": "me"},
                                          {"kind": "user", "username": guest["username"]}]}
    assert_error(client_for(alice).post("/api/matches", invite, format="json"), 400,
                 "invalid_seats")


def test_a_guest_keeps_few_running_matches(nibble_bot, settings):
    settings.GUEST_MAX_ACTIVE_MATCHES = 2
    client, _ = new_guest()
    for _ in range(2):
        assert client.post("/api/matches", VS_BOT, format="json").status_code == 201
    assert_error(client.post("/api/matches", VS_BOT, format="json"), 409,
                 "too_many_bot_matches", limit=2)


def test_a_guest_has_a_smaller_request_budget(monkeypatch, client_for, alice):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "guest_user", "3/min")
    client, _ = new_guest()
    person = client_for(alice)
    for _ in range(3):
        assert client.get("/api/me").status_code == 200
    assert_error(client.get("/api/me"), 429, "throttled")
    for _ in range(5):
        assert person.get("/api/me").status_code == 200


def test_guests_made_per_address_are_limited(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "guest", "2/hour")
    client = APIClient()
    for _ in range(2):
        assert client.post("/api/auth/guest", {}, format="json").status_code == 201
    assert_error(client.post("/api/auth/guest", {}, format="json"), 429, "throttled")
    other = APIClient(REMOTE_ADDR="198.51.100.9")
    assert other.post("/api/auth/guest", {}, format="json").status_code == 201


def test_guests_are_never_on_a_leaderboard(client_for, alice):
    _, body = new_guest()
    guest = User.objects.get(username=body["username"])
    for user in (guest, alice):
        Rating.objects.create(user=user, game="nibble", mu=30, sigma=1, display=1500,
                              games_played=40)
    board = client_for(alice).get("/api/leaderboards/nibble").json()["results"]
    assert [entry["username"] for entry in board] == ["alice"]


# --------------------------------------------------------------------------- signing up


def test_a_guest_signs_up_in_place_and_keeps_the_matches(nibble_bot):
    client, body = new_guest()
    made = client.post("/api/matches", VS_BOT, format="json").json()
    old_token = body["token"]
    response = client.post("/api/auth/guest/convert",
                           {"username": "ada", "password": PASSWORD, "email": "ada@example.org"},
                           format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["username"] == "ada"
    user = User.objects.get(username="ada")
    assert not user.is_guest and user.email == "ada@example.org"
    assert user.check_password(PASSWORD)
    # The guest's token is revoked; the new one is an ordinary, long-lived token.
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {old_token}")
    assert stale.get("/api/me").status_code == 401
    signed = APIClient()
    signed.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = signed.get("/api/me").json()
    assert me["username"] == "ada" and me["is_guest"] is False
    mine = signed.get("/api/matches").json()["results"]
    assert [m["id"] for m in mine] == [made["id"]]
    assert signed.get(match_url(made["id"])).json()["your_seat"] == 0
    # And ada signs in with the password like anyone.
    token = APIClient().post("/api/auth/token", {"username": "ada", "password": PASSWORD},
                             format="json")
    assert token.status_code == 200


def test_signing_up_refuses_bad_input_and_changes_nothing(client_for, alice):
    client, body = new_guest()
    assert_error(client.post("/api/auth/guest/convert",
                             {"username": "alice", "password": PASSWORD}, format="json"),
                 409, "username_taken")
    assert_error(client.post("/api/auth/guest/convert",
                             {"username": "ada", "password": "123"}, format="json"),
                 400, "invalid_password")
    assert_error(client.post("/api/auth/guest/convert",
                             {"username": "guest-me", "password": PASSWORD}, format="json"),
                 400, "validation_error")
    assert_error(client.post("/api/auth/guest/convert",
                             {"username": "ada", "password": PASSWORD, "is_staff": True},
                             format="json"), 400, "validation_error")
    guest = User.objects.get(username=body["username"])
    assert guest.is_guest and not guest.has_usable_password()
    assert client.get("/api/me").status_code == 200  # the guest token still works
    assert_error(client_for(alice).post("/api/auth/guest/convert",
                                        {"username": "ada", "password": PASSWORD},
                                        format="json"), 409, "not_a_guest")
    assert_error(APIClient().post("/api/auth/guest/convert",
                                  {"username": "ada", "password": PASSWORD}, format="json"),
                 401, "not_authenticated")


def test_nobody_signs_up_with_a_guest_name():
    response = APIClient().post("/api/auth/register",
                                {"username": "Guest-Ada", "password": PASSWORD}, format="json")
    assert_error(response, 400, "validation_error")


# --------------------------------------------------------------------------- shared addresses


def test_a_classroom_behind_one_address_can_sign_up():
    """Thirty people behind one address (a school, a café) each sign up: the old limit of 20
    sign-ups per hour and address refused the 21st."""
    client = APIClient(REMOTE_ADDR="203.0.113.50")
    for n in range(30):
        response = client.post("/api/auth/register",
                               {"username": f"pupil{n}", "password": PASSWORD}, format="json")
        assert response.status_code == 201, (n, response.json())


def test_one_name_retried_from_one_address_is_slowed_down_but_not_the_others(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "register_name", "3/hour")
    client = APIClient(REMOTE_ADDR="203.0.113.50")
    for _ in range(3):  # refused passwords, retried
        assert_error(client.post("/api/auth/register",
                                 {"username": "ada", "password": "123"}, format="json"),
                     400, "invalid_password")
    assert_error(client.post("/api/auth/register",
                             {"username": "ADA", "password": PASSWORD}, format="json"),
                 429, "throttled")
    # Someone else at the same address, and the same name from elsewhere, go through.
    assert client.post("/api/auth/register", {"username": "grace", "password": PASSWORD},
                       format="json").status_code == 201
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.7")
    assert elsewhere.post("/api/auth/register", {"username": "ada", "password": PASSWORD},
                          format="json").status_code == 201


def test_the_per_address_sign_up_budget_still_holds(monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "register", "5/hour")
    client = APIClient(REMOTE_ADDR="203.0.113.50")
    for n in range(5):
        assert client.post("/api/auth/register", {"username": f"p{n}x", "password": PASSWORD},
                           format="json").status_code == 201
    assert_error(client.post("/api/auth/register", {"username": "p9x", "password": PASSWORD},
                             format="json"), 429, "throttled")


# --------------------------------------------------------------------------- clean-up


def test_idle_guests_are_deleted_with_their_matches(nibble_bot, client_for, alice):
    idle_client, idle = new_guest()
    busy_client, busy = new_guest()
    fresh_client, fresh = new_guest()
    signed_client, signed = new_guest()
    made = {name: c.post("/api/matches", VS_BOT, format="json").json()["id"]
            for name, c in (("idle", idle_client), ("busy", busy_client),
                            ("signed", signed_client))}
    signed_client.post("/api/auth/guest/convert", {"username": "kept", "password": PASSWORD},
                       format="json")
    long_ago = timezone.now() - timedelta(days=settings.GUEST_IDLE_DAYS + 1)
    User.objects.filter(username__in=[idle["username"], busy["username"]]).update(
        last_active_at=long_ago, date_joined=long_ago)
    User.objects.filter(username="kept").update(date_joined=long_ago)
    Match.objects.filter(id__in=[made["idle"], made["signed"]]).update(updated_at=long_ago)
    # The busy guest's match moved recently: not idle.
    assert guests_idle_delete() == {"guests": 1, "matches": 1}
    assert not User.objects.filter(username=idle["username"]).exists()
    assert not Match.objects.filter(id=made["idle"]).exists()
    assert User.objects.filter(username__in=[busy["username"], fresh["username"], "kept"]
                               ).count() == 3
    assert Match.objects.filter(id__in=[made["busy"], made["signed"]]).count() == 2
    assert idle_client.get("/api/me").status_code == 401
    assert guests_idle_delete() == {"guests": 0, "matches": 0}


def test_the_clean_up_runs_periodically():
    from config.celery_app import app

    entry = settings.CELERY_BEAT_SCHEDULE["clean-up-idle-guests"]
    assert entry["task"] in app.tasks
