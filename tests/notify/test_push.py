"""Web Push end to end: a device registers through the API, a feed entry is written, and the
local push service receives a request whose VAPID JWT verifies against the server's public key
and whose payload decrypts with the device's private key (tests/notify/conftest.py)."""

from __future__ import annotations

import pytest

from games.models import UserEvent
from games.notify.delivery import deliver
from games.notify.devices import push_subscription_register
from games.notify.models import Delivery, PushSubscription
from games.notify.sending import DeliveryDeferred
from games.services.notifications import notify
from tests.notify.helpers import entries, play, start, until_turn_of

pytestmark = pytest.mark.django_db


def test_your_turn_reaches_the_device_encrypted_and_signed(
        push_service, alice, bob, client_for, django_capture_on_commit_callbacks):
    device = push_service.device()
    answer = client_for(alice).post("/api/me/push-subscriptions", device.as_json("phone"),
                                    format="json", HTTP_USER_AGENT="Firefox/128")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["name"] == "phone" and answer.json()["user_agent"] == "Firefox/128"
    with django_capture_on_commit_callbacks(execute=True):
        match = start("nibble", [bob, alice])
    with django_capture_on_commit_callbacks(execute=True):
        if 1 in match.actors:
            play(match, [bob, alice])  # alice moves
        play(match, [bob, alice])  # bob moves: alice's turn
    turn = entries(alice, UserEvent.Type.YOUR_TURN)[-1]
    invited, *_, payload = push_service.for_device(device)
    assert invited["kind"] == "invited"
    assert payload["title"] == "Your turn in Nibble"
    assert payload["url"] == f"/match/{match.id}"
    assert payload["event"] == turn.id and payload["kind"] == "your_turn"
    received = push_service.received[-1]
    assert received.headers["urgency"] == "high"
    assert len(received.headers["topic"]) <= 32
    sub = PushSubscription.objects.get(user=alice)
    assert sub.last_used_at is not None
    assert Delivery.objects.get(event=turn, channel="push").status == "sent"


def test_an_invitation_is_pushed_with_who_invites(push_service, alice, bob, client_for,
                                                  django_capture_on_commit_callbacks):
    device = push_service.device()
    client_for(bob).post("/api/me/push-subscriptions", device.as_json(), format="json")
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post("/api/matches", {"game": "nibble", "seats": [
            {"kind": "me"}, {"kind": "user", "username": "bob"}]}, format="json")
    [payload] = push_service.for_device(device)
    assert payload["title"] == "Invitation to Nibble"
    assert payload["body"] == "alice invites you to a match."


def test_every_device_gets_it_and_a_gone_one_is_removed(push_service, alice, bob, client_for,
                                                        django_capture_on_commit_callbacks):
    phone, laptop = push_service.device(), push_service.device()
    client = client_for(alice)
    for device in (phone, laptop):
        assert client.post("/api/me/push-subscriptions", device.as_json(),
                           format="json").status_code == 201
    push_service.answer(laptop, 410)
    with django_capture_on_commit_callbacks(execute=True):
        until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)  # alice moves first
    assert len(push_service.for_device(phone)) == 1
    assert push_service.for_device(laptop) == []
    assert list(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)) \
        == [phone.endpoint]


def test_a_404_also_removes_the_subscription(push_service, alice, bob, client_for,
                                             django_capture_on_commit_callbacks):
    device = push_service.device()
    client_for(alice).post("/api/me/push-subscriptions", device.as_json(), format="json")
    push_service.answer(device, 404)
    with django_capture_on_commit_callbacks(execute=True):
        until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    assert not PushSubscription.objects.filter(user=alice).exists()
    turn = entries(alice, UserEvent.Type.YOUR_TURN)[-1]
    delivery = Delivery.objects.get(event=turn, channel="push")
    assert (delivery.status, delivery.reason) == ("skipped", "no_device")


def test_a_failing_push_service_is_retried_and_the_device_gets_it_once(
        eager_retries, push_service, alice, bob, client_for, django_capture_on_commit_callbacks):
    phone, tablet = push_service.device(), push_service.device()
    for device in (phone, tablet):
        client_for(alice).post("/api/me/push-subscriptions", device.as_json(), format="json")
    push_service.answer(tablet, 503, 429)  # twice unavailable, then accepted
    with django_capture_on_commit_callbacks(execute=True):
        until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    # The eager task retried at once (a worker waits its backoff first); the phone, which
    # accepted the first try, was not sent it again.
    assert len(push_service.for_device(phone)) == 1
    assert len(push_service.for_device(tablet)) == 1
    turn = entries(alice, UserEvent.Type.YOUR_TURN)[-1]
    delivery = Delivery.objects.get(event=turn, channel="push")
    assert delivery.status == "sent" and delivery.attempts == 3


def test_a_push_service_that_keeps_failing_is_given_up(push_service, alice, settings):
    device = push_service.device()
    push_subscription_register(user=alice, endpoint=device.endpoint,
                               p256dh=device.p256dh, auth=_b64(device.auth))
    push_service.answer(device, *([500] * 20))
    notify(user_ids=[alice.id], type=UserEvent.Type.DEADLINE_SOON, game="nibble")
    entry = entries(alice)[-1]
    with pytest.raises(DeliveryDeferred):
        deliver([entry.id])
    assert Delivery.objects.get(event=entry).status == "retry"
    deliver([entry.id], final=True)
    assert Delivery.objects.get(event=entry).status == "failed"
    assert push_service.for_device(device) == []


def test_one_feed_entry_is_never_pushed_twice(push_service, alice):
    device = push_service.device()
    push_subscription_register(user=alice, endpoint=device.endpoint,
                               p256dh=device.p256dh, auth=_b64(device.auth))
    notify(user_ids=[alice.id], type=UserEvent.Type.DEADLINE_SOON, game="nibble")
    entry = entries(alice)[-1]
    from games.notify.tasks import notify_deliver_task

    for _ in range(3):
        notify_deliver_task.apply(args=([entry.id],))
    deliver([entry.id, entry.id])
    assert len(push_service.for_device(device)) == 1
    assert Delivery.objects.filter(event=entry).count() == 1


def _b64(data: bytes) -> str:
    from games.notify.push import b64url

    return b64url(data)
