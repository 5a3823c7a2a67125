"""The daily digest goes out at the hour each person chose in their time zone (default 08:00
UTC), once a day. Time is passed to the service explicitly (``now``)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.models import UserEvent
from games.notify.delivery import deliver
from games.notify.digest import digest_send, digest_time
from games.notify.models import Delivery, NotificationSettings
from games.services.notifications import notify
from tests.notify.helpers import entries, verified

pytestmark = pytest.mark.django_db


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _digest_user(user, **prefs):
    verified(user)
    NotificationSettings.objects.filter(user=user).update(email_digest=True, **prefs)


def _waiting(user, when: datetime, count: int = 1) -> None:
    for _ in range(count):
        notify(user_ids=[user.id], type=UserEvent.Type.INVITED, game="nibble", by="bob")
    deliver([entry.id for entry in entries(user)])
    Delivery.objects.filter(user=user, status="digest").update(created_at=when)


def test_the_default_is_eight_utc_once_a_day(smtp, alice):
    _digest_user(alice)
    _waiting(alice, at("2031-03-10T06:30:00"), count=2)
    assert digest_send(now=at("2031-03-10T07:59:00")) == {"mails": 0, "items": 0}
    assert digest_send(now=at("2031-03-10T08:00:00")) == {"mails": 1, "items": 2}
    # Something new the same day waits for tomorrow's digest.
    _waiting(alice, at("2031-03-10T09:00:00"))
    for hour in ("09:30", "13:00", "23:59"):
        assert digest_send(now=at(f"2031-03-10T{hour}:00"))["mails"] == 0
    assert digest_send(now=at("2031-03-11T07:00:00"))["mails"] == 0
    assert digest_send(now=at("2031-03-11T08:05:00")) == {"mails": 1, "items": 1}
    assert len(smtp.messages) == 2
    assert NotificationSettings.objects.get(user=alice).digest_sent_at == at(
        "2031-03-11T08:05:00")


def test_the_hour_is_the_persons_own_in_their_time_zone(smtp, alice, bob):
    # Alice wants hers at 07:00 in Tokyo (22:00 UTC the day before); Bob at 18:00 in
    # New York, which is 23:00 UTC in winter and 22:00 UTC in summer.
    _digest_user(alice, digest_hour=7, time_zone="Asia/Tokyo")
    _digest_user(bob, digest_hour=18, time_zone="America/New_York")
    _waiting(alice, at("2031-01-15T12:00:00"))
    _waiting(bob, at("2031-01-15T12:00:00"))
    assert digest_send(now=at("2031-01-15T21:59:00"))["mails"] == 0
    assert digest_send(now=at("2031-01-15T22:00:00"))["mails"] == 1
    assert smtp.messages[-1]["To"] == alice.email
    assert digest_send(now=at("2031-01-15T22:59:00"))["mails"] == 0
    assert digest_send(now=at("2031-01-15T23:00:00"))["mails"] == 1
    assert smtp.messages[-1]["To"] == bob.email
    # Summer time: Bob's 18:00 is 22:00 UTC.
    _waiting(bob, at("2031-07-15T12:00:00"))
    assert digest_send(now=at("2031-07-15T21:59:00"))["mails"] == 0
    assert digest_send(now=at("2031-07-15T22:00:00"))["mails"] == 1


def test_a_run_after_a_gap_sends_once(smtp, alice):
    # Beat was away over the hour: the first run after it sends, the next ones do not.
    _digest_user(alice, digest_hour=6)
    _waiting(alice, at("2031-05-01T01:00:00"))
    assert digest_send(now=at("2031-05-01T11:00:00"))["mails"] == 1
    _waiting(alice, at("2031-05-01T11:30:00"))
    assert digest_send(now=at("2031-05-01T12:00:00"))["mails"] == 0
    assert digest_send(now=at("2031-05-02T05:59:00"))["mails"] == 0
    assert digest_send(now=at("2031-05-02T06:00:00"))["mails"] == 1


def test_digest_time_edges():
    tokyo = NotificationSettings(digest_hour=0, time_zone="Asia/Tokyo")
    assert digest_time(tokyo, at("2031-01-15T14:59:00")) == at("2031-01-14T15:00:00")
    assert digest_time(tokyo, at("2031-01-15T15:00:00")) == at("2031-01-15T15:00:00")
    assert digest_time(None, at("2031-01-15T08:00:00")) == at("2031-01-15T08:00:00")
    # 02:00 does not exist in Paris on 2031-03-30 (clocks go from 02:00 to 03:00).
    paris = NotificationSettings(digest_hour=2, time_zone="Europe/Paris")
    assert digest_time(paris, at("2031-03-30T12:00:00")) <= at("2031-03-30T12:00:00")


def test_the_hour_and_zone_through_the_api(alice, client_for):
    client = client_for(alice)
    settings = client.get("/api/me/notifications").json()
    assert (settings["digest_hour"], settings["time_zone"]) == (8, "UTC")
    answer = client.patch("/api/me/notifications", {"digest_hour": 19,
                                                     "time_zone": "Europe/Berlin"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert (answer.json()["digest_hour"], answer.json()["time_zone"]) == (19, "Europe/Berlin")
    for bad in ({"digest_hour": 24}, {"digest_hour": -1}, {"digest_hour": "7"},
                {"digest_hour": 7.5}, {"time_zone": "Mars/Olympus"}, {"time_zone": ""},
                {"time_zone": "../../etc/passwd"}, {"time_zone": 1}):
        answer = client.patch("/api/me/notifications", bad, format="json")
        assert answer.status_code == 400 and answer.json()["code"] == "validation_error", bad
    prefs = NotificationSettings.objects.get(user=alice)
    assert (prefs.digest_hour, prefs.time_zone) == (19, "Europe/Berlin")
