"""No notification is lost when the broker is down at commit: the notification task is a
message sent after commit, and the sweep (``games.notify_sweep``, run by beat) delivers the
feed entries whose task never ran, once the broker is back. Also the deliveries a dead worker
left "sending" or a lost retry left "retry"."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from config.celery_app import app as celery_app
from games.models import UserEvent
from games.notify.delivery import deliver
from games.notify.models import Delivery, SweepCursor
from games.notify.sweeps import sweep
from games.notify.tasks import notify_sweep_task
from games.services import scheduling
from games.services.notifications import notify
from tests.notify.helpers import (
    SWEEP_GRACE,
    after_the_grace,
    entries,
    registered_device,
    start,
    until_turn_of,
    verified,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sweep_timing")]



@contextmanager
def broker_down():
    """Tasks go to the broker (not run eagerly), and every publish fails as with the broker
    down (as tests/games/services/test_due_work.py does)."""
    saved = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        with mock.patch("kombu.messaging.Producer.publish",
                        side_effect=BrokerError("Error 111 connecting")) as publish, \
                mock.patch.object(scheduling, "BROKER", scheduling.broker_breaker()):
            yield publish
    finally:
        celery_app.conf.task_always_eager = saved


def test_entries_whose_task_was_lost_are_delivered_once_the_broker_is_back(
        push_service, smtp, alice, bob, django_capture_on_commit_callbacks):
    sweep()  # the cursor starts here: entries from before are not this test's
    device = registered_device(push_service, alice)
    verified(alice)
    with broker_down() as publish, django_capture_on_commit_callbacks(execute=True):
        match = until_turn_of(start("nibble", [bob, alice]), [bob, alice], alice)
    assert publish.called, "the notification task was sent to the (dead) broker"
    assert push_service.received == [] and smtp.messages == []
    lost = [e.id for e in entries(alice) if e.type in (UserEvent.Type.INVITED,
                                                       UserEvent.Type.YOUR_TURN)]
    assert len(lost) == 2 and not Delivery.objects.filter(event_id__in=lost).exists()

    # Within the grace period the sweep leaves them to their task.
    assert sweep()["lost"] == 0
    # The broker is back; beat runs the sweep (eagerly here, as a worker would).
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        result = notify_sweep_task.apply().get()
    assert result["lost"] == 2
    kinds = [p["kind"] for p in push_service.for_device(device)]
    assert kinds == ["invited", "your_turn"]
    assert push_service.for_device(device)[-1]["url"] == f"/match/{match.id}"
    assert sorted(m["Subject"] for m in smtp.messages) == ["Invitation to Nibble",
                                                           "Your turn in Nibble"]
    assert Delivery.objects.filter(event_id__in=lost, status="sent").count() == 4
    # Again: nothing more (the cursor moved on, and the delivery rows would stop it anyway).
    for seconds in (SWEEP_GRACE + 1, SWEEP_GRACE + 30):
        with mock.patch.object(timezone, "now", return_value=after_the_grace(seconds)):
            assert sweep()["lost"] == 0
    SweepCursor.objects.update(last_event_id=0)
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        sweep()
    assert len(push_service.for_device(device)) == 2 and len(smtp.messages) == 2


def test_an_entry_whose_task_ran_is_not_sent_again_by_the_sweep(
        push_service, alice, bob, django_capture_on_commit_callbacks):
    sweep()
    device = registered_device(push_service, alice)
    with django_capture_on_commit_callbacks(execute=True):
        until_turn_of(start("nibble", [bob, alice]), [bob, alice], alice)
    pushed = len(push_service.for_device(device))
    assert pushed == 2
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        result = sweep()
    assert result["lost"] == 0 and result["checked"] >= 2
    assert len(push_service.for_device(device)) == pushed


def test_entries_past_the_lookback_and_other_types_are_left(push_service, alice):
    sweep()
    device = registered_device(push_service, alice)
    with broker_down():
        for by in ("old", "new"):
            notify(user_ids=[alice.id], type=UserEvent.Type.INVITED, game="nibble", by=by)
        notify(user_ids=[alice.id], type=UserEvent.Type.MATCH_STARTED, game="nibble")
    old = entries(alice, UserEvent.Type.INVITED)[0]
    UserEvent.objects.filter(id=old.id).update(created_at=timezone.now() - timedelta(hours=2))
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        result = sweep()
    assert [p["body"] for p in push_service.for_device(device)] == [
        "new invites you to a match."]
    assert (result["lost"], result["checked"]) == (1, 3)


def test_deliveries_left_sending_by_a_dead_worker_are_tried_again(push_service, alice):
    sweep()
    device = registered_device(push_service, alice)
    notify(user_ids=[alice.id], type=UserEvent.Type.DEADLINE_SOON, game="nibble")
    entry = entries(alice)[-1]
    # A worker claimed it and died before sending.
    Delivery.objects.create(event=entry, user=alice, channel="push", kind="deadline_soon",
                            status="sending", attempts=1)
    deliver([entry.id])
    assert push_service.for_device(device) == []  # the claim holds it
    with mock.patch.object(timezone, "now", return_value=after_the_grace(600)):
        assert sweep()["stuck"] == 0  # could still be sending
    with mock.patch.object(timezone, "now", return_value=after_the_grace(901)):
        result = sweep()
    assert result["stuck"] == 1
    assert len(push_service.for_device(device)) == 1
    delivery = Delivery.objects.get(event=entry)
    assert (delivery.status, delivery.attempts) == ("sent", 2)
