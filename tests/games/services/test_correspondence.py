"""Correspondence: deadlines the server enforces, reminders before them, invitations, the
inbox and the event feed entries. Time is under the test's control: the sweep takes ``now``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.catalog import get_engine
from games.models import Match, Move, UserEvent
from games.selectors import match_inbox
from games.services import (
    SeatSpec,
    match_create,
    match_decline,
    match_join,
    match_move_submit,
)
from games.services.deadlines import deadlines_sweep
from tests.factories import UserFactory
from tests.games.helpers import auto_vacation_off

pytestmark = pytest.mark.django_db

DAY = 86400


def start(game, users, *, turn_seconds=DAY, config=None) -> Match:
    match = match_create(user=users[0], game=game, config=config or {},
                         turn_seconds=turn_seconds, seats=[SeatSpec("me")] + [
                             SeatSpec("user", username=u.username) for u in users[1:]])
    for user in users[1:]:
        match_join(user=user, match_id=match.id)
    match.refresh_from_db()
    return match


def play_legal(match: Match, users, *, avoid_seat=None) -> None:
    """One legal move by a seat that must act (not ``avoid_seat`` when another can)."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    state = engine.load(match.state)
    seat = next((s for s in match.actors if s != avoid_seat), match.actors[0])
    move = engine.dump_move(engine.legal_moves(state, seat)[0])
    match_move_submit(user=users[seat], match_id=match.id, move=move)
    match.refresh_from_db()


def events(user, type_=None):
    queryset = UserEvent.objects.filter(user=user)
    if type_:
        queryset = queryset.filter(type=type_)
    return list(queryset.order_by("id"))


def test_a_deadline_is_set_for_the_seat_that_must_act_and_shown():
    users = [UserFactory(), UserFactory()]
    before = timezone.now().replace(microsecond=0)  # the clocks count whole seconds
    match = start("nibble", users, turn_seconds=2 * DAY)
    assert before + timedelta(days=2) <= match.deadline <= timezone.now() + timedelta(days=2)
    summary_deadline = match_inbox(user=users[0])[0].deadline
    assert summary_deadline == match.deadline


def test_nobody_moved_yet_the_match_is_aborted_unrated():
    users = [UserFactory(), UserFactory()]
    auto_vacation_off(*users)
    match = start("nibble", users)
    done = deadlines_sweep(now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert done["expired"] == 1
    assert match.status == Match.Status.ABORTED
    assert match.outcome == {"reason": "timeout"}
    assert {e.type for e in events(users[1])} >= {UserEvent.Type.MATCH_ABORTED}


def test_two_players_the_other_wins_on_timeout():
    users = [UserFactory(), UserFactory()]
    auto_vacation_off(*users)
    match = start("nibble", users)
    play_legal(match, users)
    late = match.actors[0]
    deadlines_sweep(now=match.deadline + timedelta(minutes=1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "forfeit"
    assert match.outcome["winners"] == [1 - late]
    assert match.moves.filter(kind=Move.Kind.FORFEIT, seat=late).count() == 1
    assert events(users[late], UserEvent.Type.TIMED_OUT)


def test_sweep_is_idempotent_and_leaves_future_deadlines_alone():
    users = [UserFactory(), UserFactory()]
    overdue = start("nibble", users)
    play_legal(overdue, users)
    later = start("nibble", [UserFactory(), UserFactory()], turn_seconds=14 * DAY)
    now = overdue.deadline + timedelta(seconds=5)
    first = deadlines_sweep(now=now)
    version = Match.objects.get(id=overdue.id).version
    second = deadlines_sweep(now=now)
    assert first["expired"] == 1 and second["expired"] == 0
    assert Match.objects.get(id=overdue.id).version == version
    assert Match.objects.get(id=later.id).status == Match.Status.ACTIVE


def test_three_or_four_players_the_late_seat_forfeits_and_its_cards_leave_play():
    users = [UserFactory() for _ in range(3)]
    auto_vacation_off(*users)
    match = start("nimble", users, config={"mode": "turns"})
    play_legal(match, users)
    late = match.actors[0]
    deadlines_sweep(now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    seat = match.seats.get(index=late)
    assert seat.forfeited_at is not None and seat.forfeit_reason == "timeout"
    assert late not in match.actors and match.actors
    view = get_engine("nimble").view(get_engine("nimble").load(match.state), None)
    assert view["seats"][late]["forfeited"] is True
    assert match.deadline > timezone.now()


def test_a_timed_out_nimalia_seat_is_played_on_by_a_bot(django_capture_on_commit_callbacks):
    from games.services.bots import bot_accounts_ensure

    bot_accounts_ensure()
    users = [UserFactory() for _ in range(3)]
    auto_vacation_off(*users)
    match = start("nimalia", users, config={"objectives": "first_game"})
    play_legal(match, users, avoid_seat=2)
    play_legal(match, users, avoid_seat=2)
    assert match.actors == [2]
    with django_capture_on_commit_callbacks(execute=True):
        deadlines_sweep(now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    seat = match.seats.get(index=2)
    assert seat.forfeited_at is not None
    assert 2 not in match.actors, "the take-over bot placed the seat's card"
    bot_moves = list(match.moves.filter(kind=Move.Kind.MOVE, seat=2))
    assert bot_moves and all(move.user_id == users[2].id for move in bot_moves)
    assert match.status == Match.Status.ACTIVE


def test_a_race_nobody_touches_ends_as_a_stalemate():
    users = [UserFactory() for _ in range(2)]
    match = start("nimble", users, turn_seconds=None, config={"mode": "race"})
    assert match.deadline is not None, "races have an idle limit even without a time control"
    play_legal(match, users)
    deadlines_sweep(now=match.deadline + timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "stalemate"


def test_casual_matches_have_no_deadline():
    users = [UserFactory(), UserFactory()]
    match = start("nibble", users, turn_seconds=None)
    assert match.deadline is None
    assert deadlines_sweep(now=timezone.now() + timedelta(days=365))["expired"] == 0


def test_reminders_go_out_at_the_default_offsets_once_per_deadline():
    users = [UserFactory(), UserFactory()]
    match = start("nibble", users)  # a day a move: the 24-hour reminder is not owed
    mover = users[match.actors[0]]
    early = match.deadline - timedelta(hours=5)
    assert deadlines_sweep(now=early)["reminded"] == 0
    four = match.deadline - timedelta(hours=4)
    assert deadlines_sweep(now=four)["reminded"] == 1
    assert deadlines_sweep(now=four + timedelta(minutes=1))["reminded"] == 0
    soon = match.deadline - timedelta(minutes=30)
    assert deadlines_sweep(now=soon)["reminded"] == 1
    assert deadlines_sweep(now=soon + timedelta(minutes=1))["reminded"] == 0
    reminders = events(mover, UserEvent.Type.DEADLINE_SOON)
    assert [entry.data["offset"] for entry in reminders] == [4 * 3600, 3600]
    assert {entry.data["deadline"] for entry in reminders} == {match.deadline.isoformat()}
    # A new deadline (the next turn) is reminded again: the sweep comes late, once.
    play_legal(match, users)
    assert deadlines_sweep(now=match.deadline - timedelta(minutes=30))["reminded"] == 1


def test_invitation_accept_and_decline():
    host, guest, other = UserFactory(), UserFactory(), UserFactory()
    match = match_create(user=host, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username=guest.username)])
    assert [e.type for e in events(guest)] == [UserEvent.Type.INVITED]
    match_decline(user=guest, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    assert match.seats.get(index=1).user is None
    assert events(host, UserEvent.Type.INVITATION_DECLINED)
    match_join(user=other, match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert events(other, UserEvent.Type.MATCH_STARTED)

    again = match_create(user=host, game="nibble",
                         seats=[SeatSpec("me"), SeatSpec("user", username=guest.username)])
    match_join(user=guest, match_id=again.id)
    again.refresh_from_db()
    assert again.status == Match.Status.ACTIVE
    starter = next(s.user for s in again.seats.all() if s.index in again.actors)
    assert events(starter, UserEvent.Type.YOUR_TURN)


def test_inbox_puts_my_turn_first_then_the_nearest_deadline():
    me = UserFactory()
    waiting = [start("nibble", [me, UserFactory()], turn_seconds=days * DAY)
               for days in (7, 1, 3)]
    for match in waiting:
        if match.seats.get(user=me).index not in match.actors:
            play_legal(match, {s.index: s.user for s in match.seats.all()})
    inbox = match_inbox(user=me)
    mine = [m for m in inbox if m.seats.get(user=me).index in m.actors]
    assert inbox[:len(mine)] == mine
    deadlines = [m.deadline for m in mine]
    assert deadlines == sorted(deadlines)


def test_feed_entries_never_carry_hidden_state():
    users = [UserFactory() for _ in range(2)]
    match = start("nimalia", users, config={"objectives": "first_game"})
    play_legal(match, users)
    texts = [str(e.data) for u in users for e in events(u)]
    assert all(match.seed not in text for text in texts)
    assert all("hand" not in text and "card" not in text for text in texts)


def test_every_seat_hears_of_a_new_draft_turn_the_last_to_place_included():
    users = [UserFactory() for _ in range(2)]
    match = start("nimalia", users, config={"objectives": "first_game"})
    play_legal(match, users)
    last = match.actors[0]
    before = {u.id: len(events(u, UserEvent.Type.YOUR_TURN)) for u in users}
    play_legal(match, users)  # the last placement reveals the turn and starts the next
    after = {u.id: len(events(u, UserEvent.Type.YOUR_TURN)) for u in users}
    assert all(after[u.id] == before[u.id] + 1 for u in users)
    assert events(users[last], UserEvent.Type.YOUR_TURN)[-1].data["version"] == match.version
