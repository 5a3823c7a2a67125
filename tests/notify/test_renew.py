"""A push service that replaces a subscription: the service worker's pushsubscriptionchange
handler posts the old endpoint with its auth secret and the new subscription (no sign-in: the
worker has no API token); the new one takes the old one's place, and pushes reach it. The
browser side is tested in tests/browser/test_notifications.py."""

from __future__ import annotations

import pytest

from games.models import UserEvent
from games.notify.models import PushSubscription
from games.services.notifications import notify

pytestmark = pytest.mark.django_db

URL = "/api/push-subscriptions/renew"


def _renew(old, new) -> dict:
    return {"old_endpoint": old.endpoint, "old_auth": old.as_json()["keys"]["auth"],
            "subscription": new.as_json()}


def test_the_new_subscription_takes_the_old_ones_place(
        push_service, alice, client_for, api_client, django_capture_on_commit_callbacks):
    old, new = push_service.device(), push_service.device()
    created = client_for(alice).post("/api/me/push-subscriptions", old.as_json("phone"),
                                     format="json").json()
    answer = api_client.post(URL, _renew(old, new), format="json")
    assert answer.status_code == 204, answer.content
    [sub] = PushSubscription.objects.filter(user=alice)
    assert (sub.id, sub.endpoint, sub.name) == (created["id"], new.endpoint, "phone")
    with django_capture_on_commit_callbacks(execute=True):
        notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    assert push_service.for_device(old) == []
    assert [p["kind"] for p in push_service.for_device(new)] == ["invited"]
    # The old endpoint is no more: renewing from it again finds nothing.
    again = api_client.post(URL, _renew(old, push_service.device()), format="json")
    assert again.status_code == 404 and again.json()["code"] == "not_found"


def test_the_page_may_have_registered_the_new_one_first(push_service, alice, client_for,
                                                        api_client):
    old, new = push_service.device(), push_service.device()
    client = client_for(alice)
    client.post("/api/me/push-subscriptions", old.as_json("phone"), format="json")
    client.post("/api/me/push-subscriptions", new.as_json(), format="json")
    assert api_client.post(URL, _renew(old, new), format="json").status_code == 204
    [sub] = PushSubscription.objects.filter(user=alice)
    assert (sub.endpoint, sub.name) == (new.endpoint, "phone")


def test_only_the_device_that_holds_the_old_secret_can_renew(push_service, alice, bob,
                                                             client_for, api_client):
    old, new, bobs = push_service.device(), push_service.device(), push_service.device()
    client_for(alice).post("/api/me/push-subscriptions", old.as_json(), format="json")
    client_for(bob).post("/api/me/push-subscriptions", bobs.as_json(), format="json")
    wrong_secret = {**_renew(old, new), "old_auth": new.as_json()["keys"]["auth"]}
    answer = api_client.post(URL, wrong_secret, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    unknown = {**_renew(new, old)}
    assert api_client.post(URL, unknown, format="json").status_code == 404
    # Moving onto another account's endpoint is refused.
    taken = api_client.post(URL, _renew(old, bobs), format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "push_subscription_taken"
    bad_key = {**_renew(old, new)}
    bad_key["subscription"] = {**new.as_json(), "keys": {"p256dh": "AAAA",
                                                         "auth": new.as_json()["keys"]["auth"]}}
    for body, code in [(bad_key, "invalid_push_subscription"),
                       ({**_renew(old, new), "extra": 1}, "validation_error"),
                       ({"old_endpoint": old.endpoint}, "validation_error"),
                       ([], "validation_error")]:
        answer = api_client.post(URL, body, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == code, body
    assert set(PushSubscription.objects.values_list("endpoint", flat=True)) == {
        old.endpoint, bobs.endpoint}
