"""Bot tasks: a bot moves through the same service as a person, a stale or repeated task does
nothing, and real-time bots act on their own clock exactly once per tick."""

from __future__ import annotations

import pytest

from games.models import Match, Move, Seat
from games.services import (
    SeatSpec,
    bot_accounts_ensure,
    match_bot_move_play,
    match_bot_race_tick,
    match_create,
    match_join,
)
from games.tasks import match_bot_move_play_task
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def bots():
    return bot_accounts_ensure()


def test_a_bot_that_must_act_moves_through_the_write_path(bots, django_capture_on_commit_callbacks):
    person = UserFactory()
    with django_capture_on_commit_callbacks() as scheduled:
        match = match_create(user=person, game="nibble", config={"first_seat": 1},
                             seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    assert scheduled, "the bot's turn is enqueued after commit"
    match.refresh_from_db()
    assert match.actors == [1]
    assert match_bot_move_play(match_id=match.id, expected_version=0, seat=1) is True
    match.refresh_from_db()
    move = match.moves.get()
    assert (move.seq, move.seat, move.kind, move.user.is_bot) == (1, 1, Move.Kind.MOVE, True)
    assert match.version == 1 and match.actors == [0]


def test_a_stale_or_repeated_bot_task_does_nothing(bots):
    person = UserFactory()
    match = match_create(user=person, game="nibble", config={"first_seat": 1},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=2)])
    assert match_bot_move_play_task(str(match.id), 0, 1) is True
    assert match_bot_move_play_task(str(match.id), 0, 1) is False  # the same task delivered twice
    # Not its turn any more:
    assert match_bot_move_play(match_id=match.id, expected_version=1, seat=1) is False
    assert Match.objects.get(id=match.id).moves.count() == 1


def test_a_bot_never_moves_for_a_person(bots):
    person, other = UserFactory(), UserFactory()
    match = match_create(user=person, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username=other.username)])
    match_join(user=other, match_id=match.id)
    match.refresh_from_db()
    assert match_bot_move_play(match_id=match.id, expected_version=0,
                               seat=match.actors[0]) is False
    assert not match.moves.exists()


def test_race_bots_act_once_per_tick(bots, django_capture_on_commit_callbacks):
    person = UserFactory()
    match = match_create(user=person, game="nimble", config={"mode": "race"},
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)])
    seat = Seat.objects.get(match=match, index=1)
    assert seat.bot_ticket == 0
    with django_capture_on_commit_callbacks() as scheduled:
        assert match_bot_race_tick(match_id=match.id, seat=1, ticket=0) is True
    assert len(scheduled) >= 1, "the next tick is scheduled after commit"
    assert Seat.objects.get(id=seat.id).bot_ticket == 1
    # The same tick delivered again, and a tick for a person's seat, do nothing.
    assert match_bot_race_tick(match_id=match.id, seat=1, ticket=0) is False
    assert match_bot_race_tick(match_id=match.id, seat=0, ticket=0) is False
    assert match_bot_race_tick(match_id=match.id, seat=1, ticket=1) is True
    assert Match.objects.get(id=match.id).moves.filter(seat=1).count() == 2
