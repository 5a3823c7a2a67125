"""match_move_submit and its neighbours as services: one transaction under the row lock, coded
errors that write nothing, and what is scheduled once the transaction commits."""

from __future__ import annotations

from unittest import mock

import pytest

from games.catalog import get_engine
from games.exceptions import (
    AbortNotAllowed,
    IdempotencyKeyReused,
    MatchNotFound,
    MatchNotRunning,
    MatchNotStarted,
    NotSeated,
    StaleVersion,
)
from games.kit.protocol import IllegalMove, MalformedMove, NotYourTurn, events_for
from games.models import IdempotencyRecord, Match, Move
from games.nibble.engine import takeable_discs
from games.selectors import matches_awaiting
from games.services import (
    MoveResult,
    SeatSpec,
    match_abort,
    match_create,
    match_join,
    match_move_preview,
    match_move_submit,
    match_resign,
    request_fingerprint,
    scheduling,
)
from tests.factories import BotFactory

pytestmark = pytest.mark.django_db


def nibble_between(alice, bob) -> Match:
    match = match_create(user=alice, game="nibble", config={"first_seat": 0})
    match_join(user=bob, match_id=match.id)
    match.refresh_from_db()
    return match


def a_take(match: Match) -> dict:
    takeable = takeable_discs(get_engine("nibble").load(match.state))
    return {"take": [list(takeable[min(takeable)][0])]}


def test_a_move_is_recorded_under_the_next_seq(alice, bob):
    match = nibble_between(alice, bob)
    move = a_take(match)
    result = match_move_submit(user=alice, match_id=match.id, move=move, expected_version=0)
    # A domain result, not an answer: the move, its seat's events, the match after it.
    assert isinstance(result, MoveResult)
    row = Move.objects.get(match=match)
    assert result.move == row and result.seq == 1
    assert result.events == events_for(row.events, 0) and result.events
    assert result.match.id == match.id and result.match.version == 1
    assert get_engine("nibble").dump(result.state) == result.match.state
    assert (row.seq, row.seat, row.user, row.kind, row.payload) == (1, 0, alice, "move", move)
    match.refresh_from_db()
    assert match.version == 1 and match.actors == [1]
    assert matches_awaiting(user=bob) == [match.id] and matches_awaiting(user=alice) == []


@pytest.mark.parametrize("call, error", [
    (lambda m, a, b: match_move_submit(user=b, match_id=m.id, move=a_take(m)), NotYourTurn),
    (lambda m, a, b: match_move_submit(user=a, match_id=m.id, move=a_take(m),
                                       expected_version=3), StaleVersion),
    (lambda m, a, b: match_move_submit(user=a, match_id=m.id, move={"take": [[4, 4]]}),
     IllegalMove),
    (lambda m, a, b: match_move_submit(user=a, match_id=m.id, move={"take": 7}), MalformedMove),
])
def test_refused_moves_write_nothing(alice, bob, call, error):
    match = nibble_between(alice, bob)
    before = Match.objects.get(id=match.id)
    with pytest.raises(error) as raised:
        call(match, alice, bob)
    after = Match.objects.get(id=match.id)
    assert (after.version, after.state, after.updated_at) == (before.version, before.state,
                                                            before.updated_at)
    assert not Move.objects.exists()
    if error is StaleVersion:
        assert raised.value.extra == {"current_version": 0}
    if error is IllegalMove:
        assert raised.value.extra["rule"] == "nibble.not_exposed"


def test_who_may_move(alice, bob, carol):
    match = match_create(user=alice, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username="bob")])
    with pytest.raises(MatchNotStarted):
        match_move_submit(user=alice, match_id=match.id, move={"take": [[0, 0]]})
    with pytest.raises(NotSeated):  # invited, not yet joined
        match_move_submit(user=bob, match_id=match.id, move={"take": [[0, 0]]})
    with pytest.raises(MatchNotFound):  # carol may not even see it
        match_move_submit(user=carol, match_id=match.id, move={"take": [[0, 0]]})


def test_after_the_end_every_move_is_game_over(alice, bob):
    match = nibble_between(alice, bob)
    match_resign(user=bob, match_id=match.id)
    with pytest.raises(MatchNotRunning) as raised:
        match_move_submit(user=alice, match_id=match.id, move={"take": [[0, 0]]})
    assert raised.value.code == "game_over"


def test_preview_changes_nothing(alice, bob):
    match = nibble_between(alice, bob)
    answer = match_move_preview(user=alice, match_id=match.id, move=a_take(match))
    assert answer["legal"] is True and answer["view"]["turn"] == 1
    assert not Move.objects.exists()
    assert Match.objects.get(id=match.id).version == 0


def test_an_idempotent_retry_returns_the_kept_answer_and_records_nothing(alice, bob):
    match = nibble_between(alice, bob)
    move = a_take(match)
    first = match_move_submit(user=alice, match_id=match.id, move=move, expected_version=0,
                              idempotency_key="k")
    assert isinstance(first, MoveResult) and first.seq == 1
    # The caller keeps its answer with the move (the API does, as it renders it).
    kept = IdempotencyRecord.objects.create(
        user=alice, key="k", match=match, fingerprint=request_fingerprint(move, 0),
        status_code=201, body='{"seq":1}')
    again = match_move_submit(user=alice, match_id=match.id, move=move, expected_version=0,
                              idempotency_key="k")
    assert again == kept
    assert Move.objects.count() == 1
    with pytest.raises(IdempotencyKeyReused):
        match_move_submit(user=alice, match_id=match.id, move=move, expected_version=1,
                          idempotency_key="k")


def test_abort_only_before_the_first_move(alice, bob):
    match = nibble_between(alice, bob)
    match_move_submit(user=alice, match_id=match.id, move=a_take(match))
    with pytest.raises(AbortNotAllowed):
        match_abort(user=bob, match_id=match.id)
    other = nibble_between(alice, bob)
    aborted = match_abort(user=bob, match_id=other.id)
    assert aborted.status == "aborted" and aborted.actors == []
    assert other.id not in matches_awaiting(user=alice) + matches_awaiting(user=bob)


# --------------------------------------------------------------------------- after commit


def sent_named(send: mock.Mock, name: str) -> list[tuple]:
    """The arguments of the tasks named ``name`` among those sent (others, such as the
    notification of a feed entry, are tested with their own services)."""
    return [call.args[1] for call in send.call_args_list if call.args[0] == name]


def test_a_bot_turn_is_enqueued_after_commit(alice, django_capture_on_commit_callbacks):
    BotFactory(bot_game="nibble", bot_level=1)
    with mock.patch.object(scheduling, "send") as send:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            match = match_create(user=alice, game="nibble",
                                 seats=[SeatSpec("me"), SeatSpec("bot", level=1)],
                                 config={"first_seat": 1})
        assert callbacks  # nothing ran inside the transaction
        send.assert_called_once_with("games.match_bot_move_play", (str(match.id), 0, 1), None)


def test_no_bot_turn_is_enqueued_when_the_human_must_act(alice,
                                                          django_capture_on_commit_callbacks):
    BotFactory(bot_game="nibble", bot_level=1)
    with mock.patch.object(scheduling, "send") as send:
        with django_capture_on_commit_callbacks(execute=True):
            match_create(user=alice, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("bot", level=1)],
                         config={"first_seat": 0})
        assert sent_named(send, "games.match_bot_move_play") == []


def test_the_rating_is_enqueued_once_a_rated_match_ends(alice, bob,
                                                        django_capture_on_commit_callbacks):
    match = nibble_between(alice, bob)
    with mock.patch.object(scheduling, "send") as send:
        with django_capture_on_commit_callbacks(execute=True):
            match_move_submit(user=alice, match_id=match.id, move=a_take(match))
        assert sent_named(send, "games.match_rate") == []
        with django_capture_on_commit_callbacks(execute=True):
            match_resign(user=alice, match_id=match.id)
        assert sent_named(send, "games.match_rate") == [(str(match.id),)]


def test_an_unrated_match_is_not_rated(alice, bob, django_capture_on_commit_callbacks):
    match = match_create(user=alice, game="nibble", rated=False)
    match_join(user=bob, match_id=match.id)
    with mock.patch.object(scheduling, "send") as send:
        with django_capture_on_commit_callbacks(execute=True):
            match_resign(user=bob, match_id=match.id)
        assert sent_named(send, "games.match_rate") == []


def test_a_refused_move_schedules_nothing(alice, bob, django_capture_on_commit_callbacks):
    match = nibble_between(alice, bob)
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(IllegalMove):
            match_move_submit(user=alice, match_id=match.id, move={"take": [[4, 4]]})
    assert callbacks == []
