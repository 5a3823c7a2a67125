"""When notifications go out: at most one "your turn" per match until the player looked at it
or moved, nothing while the player watches live, a finished match told once with its rating
change, and never more than the player's own feed says."""

from __future__ import annotations

import threading
import time

import pytest
from django.test import Client

from games.live import presence
from games.models import UserEvent
from games.notify import kinds
from games.notify.devices import push_subscription_register
from games.notify.models import Delivery, TurnNotice
from games.notify.sending import push_payload
from games.services.notifications import notify
from tests.factories import UserFactory, token_for
from tests.notify.helpers import entries, play, start, until_turn_of, verified

# Presence (who watches live) is kept in Redis; without it nobody counts as watching.
needs_redis = pytest.mark.needs_redis


def _turn(user, match):
    notify(user_ids=[user.id], type=UserEvent.Type.YOUR_TURN, match=match, game=match.game,
           version=match.version, deadline=match.deadline)


@pytest.mark.django_db
def test_one_your_turn_per_match_until_looked_at_or_moved(
        push_service, alice, bob, client_for, django_capture_on_commit_callbacks):
    client = client_for(alice)
    device = push_service.device()
    client.post("/api/me/push-subscriptions", device.as_json(), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    turns = lambda: [p for p in push_service.for_device(device) if p["kind"] == "your_turn"]  # noqa: E731
    assert len(turns()) == 1
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
        _turn(alice, match)
    assert len(turns()) == 1  # not looked at, not moved: no flood
    skipped = Delivery.objects.filter(user=alice, reason="turn_already_notified")
    assert skipped.count() == 2
    # Reading the match does not lift the limit; looking at it (a match page showed it) does.
    assert client.get(f"/api/matches/{match.id}").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
    assert len(turns()) == 1
    assert client.post(f"/api/matches/{match.id}/seen").status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
        _turn(alice, match)
    assert len(turns()) == 2
    # So does moving: alice moves, bob moves, alice's turn again.
    with django_capture_on_commit_callbacks(execute=True):
        play(match, [alice, bob])
        until_turn_of(match, [alice, bob], alice)
    assert len(turns()) == 3
    # Another match has its own limit.
    with django_capture_on_commit_callbacks(execute=True):
        other = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    assert turns()[-1]["match"] == str(other.id)


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_nothing_is_pushed_about_a_match_the_player_watches_live(push_service, settings):
    alice, bob = UserFactory(), UserFactory()
    device = push_service.device()
    push_subscription_register(user=alice, endpoint=device.endpoint,
                               p256dh=device.p256dh, auth=_auth(device))
    match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    play(match, [alice, bob])  # alice moves; bob must act
    pushed = len(push_service.for_device(device))
    # alice's client waits on the match (a real long-poll, in a thread of its own).
    answers = []
    token = token_for(alice)

    def wait() -> None:
        answers.append(Client().get(f"/api/matches/{match.id}/events",
                                    {"after": match.version, "wait": 20},
                                    HTTP_AUTHORIZATION=f"Token {token}"))

    waiter = threading.Thread(target=wait)
    waiter.start()
    for _ in range(200):
        if presence.is_watching(alice.id, match.id):
            break
        time.sleep(0.05)
    assert presence.is_watching(alice.id, match.id)
    play(match, [alice, bob])  # bob moves: alice's turn, while she watches
    waiter.join(30)
    assert answers and answers[0].status_code == 200
    turn = entries(alice, UserEvent.Type.YOUR_TURN)[-1]
    assert Delivery.objects.get(event=turn, channel="push").reason == "watching"
    assert len(push_service.for_device(device)) == pushed
    # She stops watching (no next long-poll comes; the grace after the last one passes): the
    # next turn is pushed. The watch's end is written first, then the grace is made to pass.
    redis = presence._client(settings.EVENTS_REDIS_URL)
    key = f"{presence.PREFIX}{alice.id}"
    for _ in range(200):
        scores = [score for _, score in redis.zrange(key, 0, -1, withscores=True)]
        if scores and max(scores) <= time.time() + presence.GRACE_SECONDS + 1:
            break
        time.sleep(0.05)
    assert scores and max(scores) <= time.time() + presence.GRACE_SECONDS + 1, scores
    redis.delete(key)
    assert not presence.is_watching(alice.id, match.id)
    play(match, [alice, bob])
    play(match, [alice, bob])
    assert push_service.for_device(device)[-1]["kind"] == "your_turn"


@needs_redis
@pytest.mark.django_db(transaction=True)
def test_following_the_feed_counts_as_watching_every_match(push_service):
    alice = UserFactory()
    device = push_service.device()
    push_subscription_register(user=alice, endpoint=device.endpoint,
                               p256dh=device.p256dh, auth=_auth(device))
    import asyncio

    async def with_feed_open() -> None:
        async with presence.watching(alice.id, None):
            await asyncio.sleep(0.2)  # the record is written meanwhile
            assert presence.is_watching(alice.id, "any-match")
            await asyncio.to_thread(notify_invited)

    def notify_invited() -> None:
        from django.db import transaction

        with transaction.atomic():
            notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")

    asyncio.run(with_feed_open())
    assert push_service.for_device(device) == []


@pytest.mark.django_db
def test_a_finished_rated_match_is_told_once_with_the_rating_change(
        push_service, alice, bob, client_for, django_capture_on_commit_callbacks):
    device = push_service.device()
    client_for(alice).post("/api/me/push-subscriptions", device.as_json(), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        match = start("nibble", [alice, bob], rated=True)
    while match.status == "active":
        with django_capture_on_commit_callbacks(execute=True):
            play(match, [alice, bob])
    finished = [p for p in push_service.for_device(device) if p["kind"] == "match_finished"]
    assert len(finished) == 1
    [rating] = entries(alice, UserEvent.Type.RATING_CHANGED)
    before, after = rating.data["before"], rating.data["after"]
    assert f"Rating {before} → {after}" in finished[0]["body"]
    assert finished[0]["event"] == entries(alice, UserEvent.Type.MATCH_FINISHED)[0].id


@pytest.mark.django_db
def test_a_notification_says_what_the_feed_says_and_no_hidden_information(
        push_service, smtp, alice, bob, client_for, django_capture_on_commit_callbacks):
    """Nimalia: hands are hidden, the seed is secret while the match runs. Every push a
    player gets is built from the entry their own feed shows, and no mail or push carries the
    seed, the deck or another seat's hand."""
    verified(alice)
    verified(bob)
    devices = {}
    for user in (alice, bob):
        devices[user.id] = push_service.device()
        client_for(user).post("/api/me/push-subscriptions", devices[user.id].as_json(),
                              format="json")
    with django_capture_on_commit_callbacks(execute=True):
        match = start("nimalia", [alice, bob])
    for _ in range(6):
        with django_capture_on_commit_callbacks(execute=True):
            client_for(alice).post(f"/api/matches/{match.id}/seen")  # more turns go out
            client_for(bob).post(f"/api/matches/{match.id}/seen")
            play(match, [alice, bob])
    match.refresh_from_db()
    assert match.status == "active"
    secrets = [match.seed, str(match.state["deck"])[1:-1]]
    for user in (alice, bob):
        feed = client_for(user).get("/api/me/events").json()["events"]
        by_id = {entry["id"]: entry for entry in feed}
        payloads = push_service.for_device(devices[user.id])
        assert payloads
        for payload in payloads:
            entry = by_id[payload["event"]]
            assert isinstance(payload["waiting"], int) and payload["waiting"] >= 0
            assert payload == push_payload(entry, kinds.message(entry),
                                           waiting=payload["waiting"])
        other = 1 - [alice, bob].index(user)
        hand = match.state["hands"][other]
        texts = [str(p) for p in payloads] + [m.as_string() for m in smtp.messages
                                               if m["To"] == user.email]
        for text in texts:
            for secret in secrets:
                assert secret not in text
            assert f"{hand}" not in text and f"{hand}"[1:-1] not in text


@pytest.mark.django_db
def test_push_subscription_endpoints(push_service, alice, bob, client_for, api_client):
    client = client_for(alice)
    device = push_service.device()
    created = client.post("/api/me/push-subscriptions", device.as_json("phone"), format="json")
    assert created.status_code == 201
    again = client.post("/api/me/push-subscriptions", device.as_json("renamed"), format="json")
    assert again.status_code == 201 and again.json()["id"] == created.json()["id"]
    listed = client.get("/api/me/push-subscriptions").json()
    assert [(s["name"], s["endpoint_host"]) for s in listed] == [
        ("renamed", f"127.0.0.1:{push_service.port}")]
    assert client_for(bob).post("/api/me/push-subscriptions", device.as_json(),
                                format="json").json()["code"] == "push_subscription_taken"
    bad_key = {**device.as_json(), "keys": {"p256dh": "AAAA", "auth": device.as_json()["keys"][
        "auth"]}}
    bad_auth = {**device.as_json(), "keys": {"p256dh": device.p256dh, "auth": "AAAA"}}
    for body, code in [(bad_key, "invalid_push_subscription"),
                       (bad_auth, "invalid_push_subscription"),
                       ({**device.as_json(), "endpoint": "ftp://x"}, "validation_error"),
                       ({"endpoint": device.endpoint}, "validation_error"),
                       ({**device.as_json(), "colour": "red"}, "validation_error"),
                       ([1], "validation_error")]:
        answer = client.post("/api/me/push-subscriptions", body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == code, body
    assert client_for(bob).delete(
        f"/api/me/push-subscriptions/{created.json()['id']}").json()["code"] == "not_found"
    assert client.delete(f"/api/me/push-subscriptions/{created.json()['id']}").status_code == 204
    assert client.get("/api/me/push-subscriptions").json() == []
    assert api_client.get("/api/me/push-subscriptions").status_code == 401
    assert api_client.get("/api/push/public-key").json() == {
        "public_key": push_service.public_key}


@pytest.mark.django_db
def test_without_vapid_keys_push_is_unavailable(settings, api_client):
    settings.VAPID_PRIVATE_KEY = ""
    answer = api_client.get("/api/push/public-key")
    assert answer.status_code == 503 and answer.json()["code"] == "push_not_configured"


def _auth(device) -> str:
    from games.notify.push import b64url

    return b64url(device.auth)


@pytest.mark.django_db
def test_without_redis_looking_at_the_match_still_lifts_the_your_turn_limit(
        push_service, alice, bob, client_for, settings, django_capture_on_commit_callbacks):
    """Plain ``make run`` has no Redis: the look (``POST /api/matches/{id}/seen``) is recorded
    on the limit's row. Reading the match records nothing."""
    settings.EVENTS_REDIS_URL = ""
    client = client_for(alice)
    device = push_service.device()
    client.post("/api/me/push-subscriptions", device.as_json(), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    turns = lambda: [p for p in push_service.for_device(device) if p["kind"] == "your_turn"]  # noqa: E731
    assert len(turns()) == 1
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
    assert len(turns()) == 1
    notice = TurnNotice.objects.get(user=alice, match=match)
    assert notice.looked_at is None
    # Reading the match changes nothing; saying it was seen (no Redis anywhere) lifts the
    # limit, once.
    assert client.get(f"/api/matches/{match.id}").status_code == 200
    notice.refresh_from_db()
    assert notice.looked_at is None
    assert presence.seen_at(alice.id, match.id) is None
    assert client.post(f"/api/matches/{match.id}/seen").status_code == 204
    notice.refresh_from_db()
    assert notice.looked_at is not None and notice.looked_at >= notice.sent_at
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
        _turn(alice, match)
    assert len(turns()) == 2
    # The new notice waits for a new look; bob looking at the match is not alice looking.
    assert TurnNotice.objects.get(user=alice, match=match).looked_at is None
    client_for(bob).post(f"/api/matches/{match.id}/seen")
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
    assert len(turns()) == 2
    assert client.post(f"/api/matches/{match.id}/seen").status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        _turn(alice, match)
    assert len(turns()) == 3
