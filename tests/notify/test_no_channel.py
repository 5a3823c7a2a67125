"""A feed entry whose player has nowhere to be told (no push device, no verified address)
sends no notification task at all (the task would find nothing to do: a Celery publish saved
on most moves), and the sweep leaves such entries alone too: a device or an address added
later is not owed the entries written before it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.utils import timezone

from games.models import UserEvent
from games.notify.models import Delivery
from games.notify.sweeps import sweep
from games.services import scheduling
from tests.notify.helpers import (
    after_the_grace,
    entries,
    play,
    registered_device,
    start,
    until_turn_of,
    verified,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sweep_timing")]


def _notify_tasks(calls) -> list[list[int]]:
    return [call.args[1][0] for call in calls.call_args_list
            if call.args[0] == scheduling.NOTIFY_DELIVER]


def test_a_move_queues_no_notification_task_for_a_player_with_nowhere_to_be_told(
        alice, bob, django_capture_on_commit_callbacks):
    match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    with mock.patch.object(scheduling, "send") as send, \
            django_capture_on_commit_callbacks(execute=True):
        play(match, [alice, bob])
    assert _notify_tasks(send) == []
    assert entries(bob, UserEvent.Type.YOUR_TURN), "the feed entry is written all the same"


@pytest.mark.parametrize("channel", ["push", "email"])
def test_a_move_queues_the_task_when_the_next_player_can_be_told(
        push_service, alice, bob, channel, django_capture_on_commit_callbacks):
    if channel == "push":
        registered_device(push_service, bob)
    else:
        verified(bob)
    match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    with mock.patch.object(scheduling, "send") as send, \
            django_capture_on_commit_callbacks(execute=True):
        play(match, [alice, bob])
    (queued,) = _notify_tasks(send)
    assert queued == [entries(bob, UserEvent.Type.YOUR_TURN)[-1].id]


def test_the_sweep_does_not_deliver_entries_from_before_the_device(
        push_service, alice, bob, django_capture_on_commit_callbacks):
    sweep()  # the cursor starts here
    match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    with django_capture_on_commit_callbacks(execute=True):
        play(match, [alice, bob])  # bob's turn, while bob has nowhere to be told
    old = entries(bob, UserEvent.Type.YOUR_TURN)[-1]
    device = registered_device(push_service, bob)  # added afterwards
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        result = sweep()
    assert result["lost"] == 0
    assert push_service.for_device(device) == []
    assert not Delivery.objects.filter(event=old).exists()


def test_the_sweep_still_delivers_a_lost_task_of_a_player_who_had_a_device(
        push_service, alice, bob):
    sweep()
    device = registered_device(push_service, bob)
    match = until_turn_of(start("nibble", [alice, bob]), [alice, bob], alice)
    # The task's message is lost (no on-commit callback runs here).
    play(match, [alice, bob])
    with mock.patch.object(timezone, "now", return_value=after_the_grace()):
        result = sweep()
    assert result["lost"] >= 1
    assert [p["kind"] for p in push_service.for_device(device)][-1] == "your_turn"
