"""Match clocks through the services: bank and per-move controls, simultaneous turns, weekend
pauses in each player's zone, the sweep timing out only the late seats. Time is moved with
time-machine; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.catalog import get_engine
from games.clocks.clock import load_clocks
from games.models import Match, Move, RatingChange, UserEvent
from games.notify.models import NotificationSettings
from games.selectors import match_detail
from games.services import (
    SeatSpec,
    match_create,
    match_join,
    match_move_submit,
    match_rate,
    player_time_zone_change,
)
from games.services.deadlines import deadlines_sweep
from tests.factories import UserFactory
from tests.games.helpers import auto_vacation_off

pytestmark = pytest.mark.django_db

HOUR, DAY = 3600, 86400
# A Wednesday noon in UTC.
WEDNESDAY = datetime(2031, 1, 8, 12, 0, tzinfo=UTC)
BANK = {"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY}


def start(game, users, *, time_control, config=None) -> Match:
    match = match_create(user=users[0], game=game, config=config or {},
                         time_control=time_control,
                         seats=[SeatSpec("me")] + [SeatSpec("user", username=u.username)
                                                   for u in users[1:]])
    for user in users[1:]:
        match_join(user=user, match_id=match.id)
    return Match.objects.get(id=match.id)


def move(match: Match, users, seat: int) -> Match:
    """Seat ``seat`` plays its first legal move."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    state = engine.load(match.state)
    legal = engine.dump_move(engine.legal_moves(state, seat)[0])
    match_move_submit(user=users[seat], match_id=match.id, move=legal)
    match.refresh_from_db()
    return match


def clocks(match: Match):
    match.refresh_from_db()
    return load_clocks(match.clocks)


def seconds_left(match: Match, user, seat: int) -> int:
    return match_detail(Match.objects.get(id=match.id), user)["clocks"]["seats"][seat][
        "time_left"]


def nibble(users, time_control=BANK) -> Match:
    return start("nibble", users, time_control=time_control, config={"first_seat": 0})


# --------------------------------------------------------------------------- a bank


def test_a_bank_starts_full_and_its_deadline_is_the_bank():
    users = [UserFactory(), UserFactory()]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = nibble(users)
    assert match.time_control == {**BANK, "weekend_pause": False, "vacation_allowed": True}
    assert match.deadline == WEDNESDAY + timedelta(days=3)
    assert [c.on_turn for c in clocks(match)] == [True, False]


def test_the_time_a_turn_takes_comes_off_the_bank_then_the_increment_is_added_up_to_the_cap():
    users = [UserFactory(), UserFactory()]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = nibble(users)
    with time_machine.travel(WEDNESDAY + timedelta(hours=10), tick=False):
        move(match, users, 0)
        assert clocks(match)[0].left == 3 * DAY - 10 * HOUR + DAY
        # Seat 1 moves at once, again and again: its bank grows by a day a move up to 7 days.
        for _ in range(5):
            move(match, users, 1)
            move(match, users, 0)
    assert match.status == Match.Status.ACTIVE
    assert clocks(match)[1].left == 7 * DAY


def test_per_move_gives_every_turn_the_same_time_and_the_deadline_follows_the_mover():
    users = [UserFactory(), UserFactory()]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = nibble(users, {"kind": "per_move", "turn_seconds": DAY})
    with time_machine.travel(WEDNESDAY + timedelta(hours=20), tick=False):
        match = move(match, users, 0)
    assert match.deadline == WEDNESDAY + timedelta(hours=20, days=1)
    assert clocks(match)[0].left == DAY, "left-over time is not kept"


# --------------------------------------------------------------------------- simultaneous turns


def test_each_drafting_seat_runs_its_own_clock_and_the_last_to_place_starts_afresh():
    users = [UserFactory() for _ in range(3)]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = start("nimalia", users, time_control={"kind": "per_move",
                                                      "turn_seconds": DAY},
                      config={"objectives": "first_game"})
    assert [c.on_turn for c in clocks(match)] == [True, True, True]
    with time_machine.travel(WEDNESDAY + timedelta(hours=1), tick=False):
        move(match, users, 0)
        move(match, users, 1)
    assert [c.on_turn for c in clocks(match)] == [False, False, True]
    assert match.deadline == WEDNESDAY + timedelta(days=1), "seat 2's turn goes on"
    with time_machine.travel(WEDNESDAY + timedelta(hours=5), tick=False):
        match = move(match, users, 2)
    assert match.actors == [0, 1, 2]
    assert all(c.turn_started == WEDNESDAY + timedelta(hours=5) for c in clocks(match))
    assert clocks(match)[2].left == DAY, "the last to place has a full new turn"


def test_the_sweep_times_out_only_the_late_seat_of_a_three_seat_draft():
    users = [UserFactory() for _ in range(3)]
    auto_vacation_off(*users)
    bank = {"kind": "bank", "initial_seconds": HOUR, "maximum_seconds": HOUR}
    with time_machine.travel(WEDNESDAY, tick=False):
        match = start("nimalia", users, time_control=bank, config={"objectives": "first_game"})
        move(match, users, 0)
        move(match, users, 1)
    with time_machine.travel(WEDNESDAY + timedelta(minutes=50), tick=False):
        match = move(match, users, 2)
    # A new draft turn for all three: seats 0 and 1 hold an hour, seat 2 ten minutes.
    assert match.deadline == WEDNESDAY + timedelta(minutes=60)
    late = WEDNESDAY + timedelta(minutes=61)
    with time_machine.travel(late, tick=False):
        assert deadlines_sweep(now=late)["expired"] == 1
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert [s.forfeited_at is not None for s in match.seats.order_by("index")] == \
        [False, False, True]
    after = clocks(match)
    assert after[0].on_turn and after[1].on_turn and not after[2].on_turn
    assert match.deadline == WEDNESDAY + timedelta(minutes=110), "the others keep their hour"
    assert UserEvent.objects.filter(user=users[2], type=UserEvent.Type.TIMED_OUT).count() == 1
    assert not UserEvent.objects.filter(user=users[0], type=UserEvent.Type.TIMED_OUT).exists()


def test_a_deadline_passed_with_no_clock_run_out_is_replaced_not_acted_on():
    users = [UserFactory(), UserFactory()]
    with time_machine.travel(WEDNESDAY, tick=False):
        match = nibble(users)
    Match.objects.filter(id=match.id).update(deadline=WEDNESDAY + timedelta(hours=1))
    at = WEDNESDAY + timedelta(hours=2)
    with time_machine.travel(at, tick=False):
        assert deadlines_sweep(now=at)["expired"] == 0
    match.refresh_from_db()
    assert match.deadline == WEDNESDAY + timedelta(days=3) and match.version == 0


# --------------------------------------------------------------------------- weekend pause


def test_a_bank_clock_does_not_run_on_a_saturday_in_the_players_zone():
    users = [UserFactory(), UserFactory()]
    NotificationSettings.objects.create(user=users[1], time_zone="Asia/Seoul")
    friday = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)  # 21:00 in Seoul
    with time_machine.travel(friday, tick=False):
        match = nibble(users, {**BANK, "weekend_pause": True})
        match = move(match, users, 0)
    # Seat 1's weekend: Saturday 00:00 to Monday 00:00 in Seoul, 15:00 Friday to 15:00 Sunday UTC.
    weekend_starts = datetime(2031, 1, 10, 15, 0, tzinfo=UTC)
    assert match.deadline == friday + timedelta(days=3, hours=48)
    saturday = datetime(2031, 1, 11, 12, 0, tzinfo=UTC)
    with time_machine.travel(saturday, tick=False):
        view = match_detail(Match.objects.get(id=match.id), users[1])["clocks"]
        assert view["seats"][1]["time_left"] == 3 * DAY - 3 * HOUR
        assert view["seats"][1]["running"] is True and view["seats"][1]["counting"] is False
    with time_machine.travel(saturday + timedelta(hours=20), tick=False):
        assert seconds_left(match, users[1], 1) == 3 * DAY - 3 * HOUR
    monday = datetime(2031, 1, 12, 18, 0, tzinfo=UTC)  # Monday 03:00 in Seoul
    with time_machine.travel(monday, tick=False):
        assert seconds_left(match, users[1], 1) == 3 * DAY - 3 * HOUR - 3 * HOUR
        match = move(match, users, 1)
    # Seat 1 was charged the Friday evening and Monday night only, then got its increment.
    assert clocks(match)[1].left == 3 * DAY - (weekend_starts - friday).seconds - 3 * HOUR + DAY


def test_a_player_changing_zone_keeps_the_time_already_charged():
    users = [UserFactory(), UserFactory()]
    NotificationSettings.objects.create(user=users[1], time_zone="UTC")
    thursday = datetime(2031, 1, 9, 12, 0, tzinfo=UTC)
    with time_machine.travel(thursday, tick=False):
        match = nibble(users, {**BANK, "weekend_pause": True})
        match = move(match, users, 0)
    friday = datetime(2031, 1, 10, 12, 0, tzinfo=UTC)
    with time_machine.travel(friday, tick=False):
        assert player_time_zone_change(user=users[1], zone="Pacific/Kiritimati") == 1
    assert clocks(match)[1].left == 2 * DAY, "a day charged in UTC stays charged"
    match.refresh_from_db()
    # Kiritimati is UTC+14: its Saturday began on Friday 10:00 UTC, before the change.
    assert match.deadline == friday + timedelta(days=2) + (
        datetime(2031, 1, 12, 10, 0, tzinfo=UTC) - friday)


# --------------------------------------------------------------------------- timeouts in a row


def _waiting_on(leaver, opponent, at) -> Match:
    """A rated Nibble match in which ``opponent`` moved and ``leaver`` must move by a day."""
    with time_machine.travel(at, tick=False):
        match = start("nibble", [opponent, leaver], time_control={
            "kind": "per_move", "turn_seconds": DAY}, config={"first_seat": 0})
        return move(match, [opponent, leaver], 0)


def _sweep(at) -> None:
    with time_machine.travel(at, tick=False):
        deadlines_sweep(now=at)


def test_only_the_first_timeout_of_a_run_is_rated():
    leaver = UserFactory()
    auto_vacation_off(leaver)
    first, second = (_waiting_on(leaver, UserFactory(), WEDNESDAY + timedelta(hours=h))
                     for h in (0, 1))
    _sweep(WEDNESDAY + timedelta(days=1, minutes=1))
    first.refresh_from_db()
    assert first.status == Match.Status.FINISHED and first.rated and first.unrated_reason == ""
    _sweep(WEDNESDAY + timedelta(days=1, hours=1, minutes=1))
    second.refresh_from_db()
    assert second.status == Match.Status.FINISHED
    assert second.rated is False and second.unrated_reason == "timeout_run"
    forfeit = second.moves.get(kind=Move.Kind.FORFEIT)
    assert forfeit.payload == {"reason": "timeout", "unrated": True}
    assert match_detail(second, leaver)["unrated_reason"] == "timeout_run"
    assert match_rate(match_id=str(first.id)) is True
    assert match_rate(match_id=str(second.id)) is False
    assert not RatingChange.objects.filter(match=second).exists()
    # A move anywhere ends the run: the next timeout is rated again.
    elsewhere = _waiting_on(leaver, UserFactory(), WEDNESDAY + timedelta(days=1, hours=2))
    with time_machine.travel(WEDNESDAY + timedelta(days=1, hours=3), tick=False):
        move(elsewhere, [None, leaver], 1)
    later = _waiting_on(leaver, UserFactory(), WEDNESDAY + timedelta(days=1, hours=4))
    _sweep(WEDNESDAY + timedelta(days=2, hours=4, minutes=1))
    later.refresh_from_db()
    assert later.status == Match.Status.FINISHED and later.rated
    assert later.moves.get(kind=Move.Kind.FORFEIT).payload == {"reason": "timeout"}
