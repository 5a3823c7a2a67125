"""match_lock, the one way to lock a match: what it returns, the coded errors it raises, and
the recording path refusing any match that did not come from it."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.catalog import get_engine
from games.exceptions import MatchNotFound, StaleVersion
from games.models import Match, Move, UserEvent
from games.nibble.engine import takeable_discs
from games.notify.models import NotificationSettings, PushSubscription
from games.services import (
    SeatSpec,
    _recording,
    match_create,
    match_join,
    match_lock,
    match_move_submit,
)
from games.services.locking import LockedMatch, lock_held
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(alice, bob) -> Match:
    match = match_create(user=alice, game="nibble", config={"first_seat": 0})
    match_join(user=bob, match_id=match.id)
    return match


def test_the_match_comes_locked_with_its_seats_in_one_query(running, alice):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_lock(match_id=running.id, user=alice)
        seats = locked.seats
        assert lock_held(locked) and locked.block is connection.atomic_blocks[0]
    assert len(queries) == 1
    # SQLite (make run's embedded default) has no row locks: Django leaves the clause out there.
    if connection.features.has_select_for_update_of:
        assert "FOR UPDATE OF" in queries[0]["sql"]
    assert isinstance(locked, LockedMatch)
    assert [seat.index for seat in seats] == [0, 1]
    assert seats[0].user == alice and locked.match.status == Match.Status.ACTIVE
    assert locked.engine is get_engine("nibble")
    assert locked.engine.dump(locked.state) == locked.match.state
    # The model instance carries nothing of the lock: it is all on the LockedMatch.
    assert not hasattr(locked.match, "_locked_by") and not hasattr(locked.match, "_loaded_state")


def test_the_lock_says_which_players_could_be_told_anything(running, alice, bob):
    NotificationSettings.objects.create(user=bob, verified_email="bob@example.org")
    NotificationSettings.objects.create(user=alice, verified_email="")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = match_lock(match_id=running.id)
    assert len(queries) == 1
    assert locked.notifiable == frozenset({bob.id})
    assert [locked.reachable(seat) for seat in locked.seats] == [False, True]
    PushSubscription.objects.create(user=alice, endpoint="https://push.example.org/a",
                                    p256dh="k", auth="a")
    with transaction.atomic():
        assert match_lock(match_id=running.id).notifiable == frozenset({alice.id, bob.id})


def test_a_match_the_user_may_not_see_is_not_found(running):
    with transaction.atomic(), pytest.raises(MatchNotFound):
        match_lock(match_id=running.id, user=UserFactory())


@pytest.mark.parametrize("match_id", [uuid.uuid4(), "not-a-uuid"])
def test_a_missing_match_is_not_found_or_none_for_system_callers(match_id):
    with transaction.atomic():
        with pytest.raises(MatchNotFound):
            match_lock(match_id=match_id)
        assert match_lock(match_id=match_id, missing_ok=True) is None


def test_a_hidden_match_is_not_found_even_with_missing_ok(running):
    with transaction.atomic(), pytest.raises(MatchNotFound):
        match_lock(match_id=running.id, user=UserFactory(), missing_ok=True)


def test_an_expected_version_that_differs_is_stale(running, alice):
    with transaction.atomic():
        assert match_lock(match_id=running.id, expected_version=0).match.version == 0
        with pytest.raises(StaleVersion) as raised:
            match_lock(match_id=running.id, user=alice, expected_version=2)
    assert raised.value.extra["current_version"] == 0


def test_the_recording_path_refuses_a_match_it_did_not_lock(running):
    unlocked = Match.objects.get(id=running.id)
    with pytest.raises(RuntimeError, match="match_lock"):
        _recording.play(locked=unlocked, seat=0, user=running.created_by,
                        payload={"take": [[0, 0]]})
    with pytest.raises(RuntimeError, match="match_lock"):
        _recording.abort(locked=unlocked, reason="aborted")
    assert not Move.objects.exists()
    assert Match.objects.get(id=running.id).status == Match.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_the_lock_lasts_one_transaction_and_is_taken_inside_one(alice):
    match = match_create(user=alice, game="nibble", seats=[SeatSpec("me"), SeatSpec("open")])
    with pytest.raises(RuntimeError, match="inside a transaction"):
        match_lock(match_id=match.id)
    with transaction.atomic():
        earlier = match_lock(match_id=match.id)
        assert lock_held(earlier)
    assert not lock_held(earlier)
    with transaction.atomic(), pytest.raises(RuntimeError, match="match_lock"):
        _recording.abort(locked=earlier, reason="aborted")
    assert Match.objects.get(id=match.id).status == Match.Status.OPEN


def test_a_move_sends_no_notification_task_for_a_player_nobody_could_tell(alice, bob):
    """The lock's ``notifiable`` spares the task when the player to be told has neither a push
    device nor a verified address; with one of them, the entry goes to the task."""
    match = match_create(user=alice, game="nibble", config={"first_seat": 0})
    match_join(user=bob, match_id=match.id)
    sent: list[list[int]] = []
    with mock.patch("games.services.notifications.notify_after_commit",
                    lambda *, event_ids: sent.append(event_ids)):
        match_move_submit(user=alice, match_id=match.id, move=_first_take(match.id))
        assert sent == []  # bob's "your turn": nobody could tell him
        NotificationSettings.objects.create(user=alice, verified_email="alice@example.org")
        match_move_submit(user=bob, match_id=match.id, move=_first_take(match.id))
    turn = UserEvent.objects.filter(user=alice, type=UserEvent.Type.YOUR_TURN).latest("id")
    assert sent == [[turn.id]]


def _first_take(match_id) -> dict:
    state = get_engine("nibble").load(Match.objects.get(id=match_id).state)
    takeable = takeable_discs(state)
    return {"take": [list(takeable[min(takeable)][0])]}
