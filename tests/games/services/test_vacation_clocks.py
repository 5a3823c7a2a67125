"""A vacation in the player's matches: it stops their seat clocks where it applies and restarts
them when it ends (by hand or when the bank runs out, at that instant, with the return
minimum), each as a clock-only entry of the move log that the replay passes over; a match
started while away starts stopped; at a deadline, auto-vacation spares a late seat instead of
the timeout, unless it cannot apply. Time moves with time-machine; nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
import time_machine

from games import movelog
from games.catalog import get_engine
from games.clocks import vacation
from games.clocks.clock import SeatClock, dump_clocks, load_clocks
from games.models import Match, Move, UserEvent, Vacation
from games.selectors import match_detail
from games.selectors.replay import match_replay_problem
from games.services import (
    SeatSpec,
    bot_accounts_ensure,
    match_create,
    match_join,
    match_move_submit,
    match_resign,
    scheduling,
    vacation_end,
    vacation_start,
    vacations_sweep,
)
from games.services.deadlines import deadlines_sweep, match_deadline_expire
from tests.factories import UserFactory
from tests.games.helpers import auto_vacation_off

pytestmark = pytest.mark.django_db

HOUR, DAY = 3600, 86400
# A Wednesday noon in UTC: the players joined then, each with the 20 days of a new account.
T0 = datetime(2031, 1, 8, 12, 0, tzinfo=UTC)
BANK = {"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY}


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def people(count: int) -> list[Any]:
    return [UserFactory(date_joined=T0) for _ in range(count)]


def start(users: list[Any], *, time_control: dict[str, Any] | None = BANK, when: datetime = T0,
          game: str = "nibble", config: dict[str, Any] | None = None,
          bots: tuple[int, ...] = ()) -> Match:
    """A match of ``users`` (the first creates it, the others join) and bots of ``bots``'
    levels, started at ``when``; in Nibble seat 0 moves first."""
    with time_machine.travel(when, tick=False):
        seats = ([SeatSpec("me")] + [SeatSpec("user", username=u.username) for u in users[1:]]
                 + [SeatSpec("bot", level=level) for level in bots])
        match = match_create(user=users[0], game=game, time_control=time_control, seats=seats,
                             config=config if config is not None else {"first_seat": 0})
        for user in users[1:]:
            match_join(user=user, match_id=match.id)
    return Match.objects.get(id=match.id)


def move(match: Match, user: Any, seat: int, when: datetime) -> None:
    """Seat ``seat`` plays its first legal move at ``when``."""
    match.refresh_from_db()
    engine = get_engine(match.game)
    legal = engine.dump_move(engine.legal_moves(engine.load(match.state), seat)[0])
    with time_machine.travel(when, tick=False):
        match_move_submit(user=user, match_id=match.id, move=legal)


def waiting_on(late: Any, other: Any, when: datetime = T0,
               time_control: dict[str, Any] = BANK) -> Match:
    """A Nibble match in which ``other`` (seat 1) has moved at ``when`` and ``late`` (seat 0)
    must move within its 3 days."""
    match = start([late, other], when=when, config={"first_seat": 1}, time_control=time_control)
    move(match, other, 1, when)
    match.refresh_from_db()
    return match


def clocks(match: Match) -> tuple[SeatClock, ...]:
    match.refresh_from_db()
    return load_clocks(match.clocks)


def entries(match: Match) -> list[dict[str, Any]]:
    """The payloads of the match's vacation entries, in log order."""
    return [move.payload for move in Move.objects.filter(match=match).order_by("seq")
            if movelog.entry_reason(move) == movelog.VACATION]


def replays(match: Match) -> bool:
    match.refresh_from_db()
    return match_replay_problem(match) is None


def bank(user: Any) -> vacation.VacationBank:
    return vacation.load_bank(Vacation.objects.get(user=user).bank)


def notices(user: Any, kind: str) -> list[UserEvent]:
    return list(UserEvent.objects.filter(user=user, type=kind).order_by("id"))


def sweep(when: datetime) -> dict[str, int]:
    with time_machine.travel(when, tick=False):
        return deadlines_sweep(now=when)


# --------------------------------------------------------------------------- stop and restart


def test_a_vacation_stops_the_players_clocks_where_it_applies_and_nowhere_else():
    bot_accounts_ensure()
    p, q, r = people(3)
    on_turn = start([p, q])
    off_turn = start([q, p])
    against_a_bot = start([p], bots=(1,))
    forbidding = start([p, r], time_control={**BANK, "vacation_allowed": False})
    casual = start([p, r], time_control=None)
    left_alone = start([p, q], game="nimble", config={"mode": "turns"}, bots=(1,))
    with time_machine.travel(at(1), tick=False):
        match_resign(user=q, match_id=left_alone.id)
    untouched = {m.id: (m.version, m.clocks, m.deadline)
                 for m in Match.objects.filter(id__in=[against_a_bot.id, forbidding.id,
                                                       casual.id, left_alone.id])}
    with time_machine.travel(at(10), tick=False):
        vacation_start(user=p, now=at(10))
    # On turn: the clock stops with what the ten hours left it; nothing runs, no deadline.
    assert clocks(on_turn)[0] == SeatClock(left=3 * DAY - 10 * HOUR, turn_started=T0,
                                           since=None, vacation=True)
    assert on_turn.deadline is None and on_turn.version == 1
    assert entries(on_turn) == [{"reason": "vacation", "seat": 0, "away": True}]
    seat = match_detail(on_turn, q)["clocks"]["seats"][0]
    assert seat["vacation"] is True and seat["running"] is False and seat["deadline"] is None
    # Off turn: the seat is marked, the opponent's clock and the deadline do not change.
    assert clocks(off_turn)[1] == SeatClock(left=3 * DAY, vacation=True)
    assert off_turn.deadline == at(72)
    assert entries(off_turn) == [{"reason": "vacation", "seat": 1, "away": True}]
    # Against bots only (a person who left does not count), a match forbidding vacations, a
    # casual match: nothing changes.
    assert {m.id: (m.version, m.clocks, m.deadline)
            for m in Match.objects.filter(id__in=untouched)} == untouched
    assert all(replays(match) for match in (on_turn, off_turn))


def test_coming_back_restarts_the_clock_and_the_deadline_moves_by_the_vacation():
    p, q = people(2)
    match = start([p, q])
    assert match.deadline == at(72)
    with time_machine.travel(at(10), tick=False):
        vacation_start(user=p, now=at(10))
    with time_machine.travel(at(58), tick=False):
        vacation_end(user=p, now=at(58))
    assert clocks(match)[0] == SeatClock(left=3 * DAY - 10 * HOUR, turn_started=T0,
                                         since=at(58), vacation=False)
    assert match.deadline == at(72 + 48), "two days away, two days later"
    assert entries(match) == [{"reason": "vacation", "seat": 0, "away": True},
                              {"reason": "vacation", "seat": 0, "away": False}]
    # The move after the return is charged from the return only.
    move(match, p, 0, at(60))
    assert clocks(match)[0].left == 3 * DAY - 12 * HOUR + DAY
    assert replays(match)


def test_the_reminders_stop_with_the_clock_and_follow_its_new_deadline():
    p, q = people(2)
    match = start([p, q])
    assert match.next_reminder_at == at(72 - 24), "a day before, by default"
    with time_machine.travel(at(10), tick=False):
        vacation_start(user=p, now=at(10))
    match.refresh_from_db()
    assert match.next_reminder_at is None
    with time_machine.travel(at(58), tick=False):
        vacation_end(user=p, now=at(58))
    match.refresh_from_db()
    assert match.deadline == at(120) and match.next_reminder_at == at(120 - 24)


def test_a_seat_on_turn_comes_back_with_at_least_the_return_minimum_never_more_than_its_most():
    p, q = people(2)
    long_bank = start([p, q])
    short_turns = start([p, q], time_control={"kind": "per_move", "turn_seconds": 2 * HOUR})
    nearly_out = start([p, q], when=at(-70))
    with time_machine.travel(at(1.5), tick=False):
        vacation_start(user=p, now=at(1.5))
    assert clocks(nearly_out)[0].left == HOUR // 2
    with time_machine.travel(at(10), tick=False):
        vacation_end(user=p, now=at(10))
    assert clocks(long_bank)[0].left == 3 * DAY - 90 * 60, "more than the minimum: kept"
    assert clocks(nearly_out)[0].left == DAY, "half an hour left: a day back"
    assert nearly_out.deadline == at(34)
    assert clocks(short_turns)[0].left == 2 * HOUR, "a day is more than the turn: the turn"


def test_without_a_return_minimum_a_seat_comes_back_with_what_it_had(settings):
    settings.VACATION_RETURN_MINIMUM_SECONDS = 0
    p, q = people(2)
    nearly_out = start([p, q], when=at(-70))
    with time_machine.travel(at(1.5), tick=False):
        vacation_start(user=p, now=at(1.5))
    with time_machine.travel(at(10), tick=False):
        vacation_end(user=p, now=at(10))
    assert clocks(nearly_out)[0].left == HOUR // 2
    assert nearly_out.deadline == at(10.5)


def test_a_match_that_ends_while_away_keeps_no_clock_stopped():
    p, q, r = people(3)
    resigned = start([p, q])
    staying = start([p, r, q], game="nimble", config={"mode": "turns"})
    with time_machine.travel(at(1), tick=False):
        vacation_start(user=p, now=at(1))
        match_resign(user=q, match_id=resigned.id)
        match_resign(user=q, match_id=staying.id)
    resigned.refresh_from_db()
    assert resigned.status == Match.Status.FINISHED
    assert not any(c.vacation or c.on_turn for c in clocks(resigned))
    # A match that goes on keeps the seat stopped; the return clears it.
    assert clocks(staying)[0].vacation
    with time_machine.travel(at(2), tick=False):
        vacation_end(user=p, now=at(2))
    assert not any(c.vacation for c in clocks(staying))
    assert entries(resigned) == [{"reason": "vacation", "seat": 0, "away": True}]
    assert all(replays(m) for m in (resigned, staying))


def test_a_vacation_that_runs_out_restarts_the_clocks_at_the_instant_it_ran_out(settings):
    settings.VACATION_STARTING_DAYS = 2
    p, q = people(2)
    match = start([p, q])
    with time_machine.travel(at(10), tick=False):
        vacation_start(user=p, now=at(10))
    # Two days, and an eighth of the ten hours since the account was made.
    out = at(10 + 48 + 10 / 8)
    assert bank(p).left == 2 * DAY + 10 * HOUR // 8
    late_sweep = out + timedelta(seconds=50)
    with time_machine.travel(late_sweep, tick=False):
        assert vacations_sweep(now=late_sweep) == {"ended": 1, "warned": 0}
    assert clocks(match)[0] == SeatClock(left=3 * DAY - 10 * HOUR, turn_started=T0, since=out,
                                         vacation=False)
    assert match.deadline == out + timedelta(hours=62), "the sweep's delay is charged"
    assert [e.data["ended_at"] for e in notices(p, UserEvent.Type.VACATION_ENDED)] == \
        [out.isoformat()]
    assert entries(match)[-1] == {"reason": "vacation", "seat": 0, "away": False}
    assert replays(match)


def test_starting_again_after_a_vacation_that_ran_out_but_was_not_ended_yet(settings):
    settings.VACATION_STARTING_DAYS = 1
    p, q = people(2)
    match = start([p, q])
    with time_machine.travel(T0, tick=False):
        vacation_start(user=p, now=T0)
    # The bank ran out at +24 h; before the sweep ends it, the player goes on vacation again:
    # the old one ends when it ran out (the clock runs from then), a new one starts now.
    with time_machine.travel(at(32), tick=False):
        vacation_start(user=p, now=at(32))
    assert bank(p).since == at(32) and bank(p).left == 8 * HOUR // 8
    assert len(notices(p, UserEvent.Type.VACATION_ENDED)) == 1
    assert clocks(match)[0].left == 3 * DAY - 8 * HOUR
    assert [e["away"] for e in entries(match)] == [True, False, True]
    assert replays(match)


def test_the_work_a_match_waits_for_is_queued_again_for_the_version_after_the_entry():
    bot_accounts_ensure()
    p, q = people(2)
    # A Nimalia draft: both people and the bot choose at once, the bot's move queued.
    match = start([p, q], game="nimalia", config={"objectives": "first_game"}, bots=(1,))
    assert 2 in match.actors and match.work_due_at is not None
    with mock.patch.object(scheduling, "_after_commit") as sent, \
            time_machine.travel(at(1), tick=False):
        vacation_start(user=p, now=at(1))
    match.refresh_from_db()
    assert match.version == 1 and entries(match) == [
        {"reason": "vacation", "seat": 0, "away": True}]
    assert [(c.args[0], c.args[1]) for c in sent.call_args_list] == [
        (scheduling.MATCH_BOT_MOVE_PLAY, (str(match.id), 1, 2))]
    assert match.work_due_at == at(1)


# --------------------------------------------------------------------------- new matches


def test_a_match_started_while_away_starts_with_the_seat_stopped_until_the_return():
    bot_accounts_ensure()
    p, q, r = people(3)
    with time_machine.travel(at(1), tick=False):
        vacation_start(user=p, now=at(1))
    created = start([p, q], when=at(2))
    # An open match p joins while away, where the other player moves first.
    with time_machine.travel(at(3), tick=False):
        joined = match_create(user=r, game="nibble", config={"first_seat": 0},
                              time_control=BANK, seats=[SeatSpec("me"), SeatSpec("open")])
        match_join(user=p, match_id=joined.id)
    against_a_bot = start([p], bots=(1,), when=at(4))
    assert clocks(created)[0] == SeatClock(left=3 * DAY, turn_started=at(2), vacation=True)
    assert created.deadline is None and created.version == 1
    assert entries(created) == [{"reason": "vacation", "seat": 0, "away": True}]
    assert clocks(joined)[1] == SeatClock(left=3 * DAY, vacation=True)
    assert joined.deadline == at(3 + 72), "the other player's clock runs"
    assert clocks(against_a_bot)[0].running and entries(against_a_bot) == []
    with time_machine.travel(at(5), tick=False):
        vacation_end(user=p, now=at(5))
    assert clocks(created)[0] == SeatClock(left=3 * DAY, turn_started=at(2), since=at(5))
    assert created.deadline == at(5 + 72)
    assert clocks(joined)[1] == SeatClock(left=3 * DAY)
    assert [e["away"] for e in entries(joined)] == [True, False]
    assert all(replays(match) for match in (created, joined, against_a_bot))
    # Its "your turn" came with the version after the vacation's entry.
    [turn] = [e for e in notices(p, UserEvent.Type.YOUR_TURN) if e.match_id == created.id]
    assert turn.data["version"] == 1


# --------------------------------------------------------------------------- auto-vacation


def test_a_late_seat_goes_on_vacation_at_its_deadline_instead_of_timing_out():
    p, q, r = people(3)
    match = waiting_on(p, q)
    elsewhere = start([p, r], when=at(1))
    assert match.deadline == at(72)
    assert sweep(at(72) + timedelta(seconds=40)) == {"expired": 1, "reminded": 0}
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert not match.seats.filter(forfeited_at__isnull=False).exists()
    assert clocks(match)[0] == SeatClock(left=0, turn_started=T0, vacation=True)
    assert match.deadline is None
    # The vacation started when the time ran out: nothing is charged past it anywhere.
    assert bank(p).since == at(72)
    assert clocks(elsewhere)[0].left == 3 * DAY - 71 * HOUR
    assert entries(elsewhere) == [{"reason": "vacation", "seat": 0, "away": True}]
    [told] = notices(p, UserEvent.Type.AUTO_VACATION_STARTED)
    assert told.match_id == match.id and told.data == {
        "game": "nibble", "since": at(72).isoformat(),
        "runs_out_at": (at(72) + timedelta(days=20, hours=9)).isoformat()}
    assert notices(p, UserEvent.Type.TIMED_OUT) == []
    # Sweeping again does nothing; coming back gives the late seat a day.
    assert sweep(at(73))["expired"] == 0
    with time_machine.travel(at(100), tick=False):
        vacation_end(user=p, now=at(100))
    assert clocks(match)[0] == SeatClock(left=DAY, turn_started=T0, since=at(100))
    assert match.deadline == at(124)
    assert all(replays(m) for m in (match, elsewhere))


def test_a_player_who_stays_away_times_out_once_the_vacation_is_over(settings):
    settings.VACATION_STARTING_DAYS = 2
    p, q = people(2)
    match = waiting_on(p, q)
    sweep(at(72) + timedelta(seconds=30))
    out = at(72) + timedelta(days=2, hours=9)
    with time_machine.travel(out + timedelta(seconds=60), tick=False):
        vacations_sweep(now=out + timedelta(seconds=60))
    assert clocks(match)[0] == SeatClock(left=DAY, turn_started=T0, since=out)
    # A day later the bank holds the 3 hours it earned: less than a return gives, a timeout.
    sweep(out + timedelta(days=1, seconds=30))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [1]
    assert len(notices(p, UserEvent.Type.AUTO_VACATION_STARTED)) == 1
    assert len(notices(p, UserEvent.Type.TIMED_OUT)) == 1
    assert replays(match)


def _times_out(match: Match, late: Any) -> None:
    """The sweep after the late seat's deadline (+72 h) times it out, as without vacations:
    a forfeit, or the match called off when nobody has moved yet."""
    assert sweep(at(72) + timedelta(seconds=30))["expired"] == 1
    match.refresh_from_db()
    if match.moves.filter(kind=Move.Kind.MOVE).exists():
        assert match.seats.get(index=0).forfeit_reason == movelog.TIMEOUT
        assert notices(late, UserEvent.Type.TIMED_OUT)
    else:
        assert match.status == Match.Status.ABORTED and match.outcome == {"reason": "timeout"}
    assert notices(late, UserEvent.Type.AUTO_VACATION_STARTED) == []
    assert entries(match) == []
    row = Vacation.objects.filter(user=late).first()
    assert row is None or not vacation.load_bank(row.bank).on_vacation


def test_with_auto_vacation_off_the_late_seat_times_out():
    p, q = people(2)
    auto_vacation_off(p)
    _times_out(waiting_on(p, q), p)


def test_with_an_empty_bank_the_late_seat_times_out(settings):
    settings.VACATION_STARTING_DAYS = 0
    settings.VACATION_ACCRUAL_HOURS_PER_DAY = 0
    p, q = people(2)
    _times_out(waiting_on(p, q), p)


def test_in_a_match_against_bots_only_the_late_seat_times_out():
    bot_accounts_ensure()
    p = UserFactory(date_joined=T0)
    _times_out(start([p], bots=(1,)), p)


def test_in_a_match_forbidding_vacations_the_late_seat_times_out():
    p, q = people(2)
    _times_out(waiting_on(p, q, time_control={**BANK, "vacation_allowed": False}), p)


def test_a_bank_holding_less_than_a_return_gives_back_does_not_start_one(settings):
    settings.VACATION_STARTING_DAYS = 0.5
    settings.VACATION_ACCRUAL_HOURS_PER_DAY = 0
    p, q, r = people(3)
    # Half a day is less than the day a return would give in a three-day bank...
    _times_out(waiting_on(p, q), p)
    # ... but more than a two-hour turn's.
    short = start([r, q], time_control={"kind": "per_move", "turn_seconds": 2 * HOUR})
    assert sweep(at(2) + timedelta(seconds=30))["expired"] == 1
    assert clocks(short)[0].vacation and notices(r, UserEvent.Type.AUTO_VACATION_STARTED)


def test_a_late_seat_whose_player_is_away_already_stops_at_its_deadline():
    p, q = people(2)
    match = waiting_on(p, q)
    with time_machine.travel(at(1), tick=False):
        vacation_start(user=p, now=at(1))
    # A clock left running by mistake (written by hand here): the sweep stops it at its
    # deadline rather than timing the seat out, and starts no second vacation.
    running = SeatClock(left=3 * DAY, turn_started=T0, since=T0)
    Match.objects.filter(id=match.id).update(clocks=dump_clocks((running, clocks(match)[1])),
                                             deadline=at(72))
    with time_machine.travel(at(80), tick=False):
        assert match_deadline_expire(match_id=match.id, now=at(80)) == "vacation"
    assert clocks(match)[0] == SeatClock(left=0, turn_started=T0, vacation=True)
    assert notices(p, UserEvent.Type.AUTO_VACATION_STARTED) == []
    assert notices(p, UserEvent.Type.TIMED_OUT) == []
    assert bank(p).since == at(1)
