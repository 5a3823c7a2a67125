"""A player's vacation bank through the services: it is spent on vacation, earned off it and
never beyond the cap; a vacation ends by hand or, once, by the sweep when the bank is used up,
the player told a day before and when it ended. Time moves by ``now=``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.clocks import vacation
from games.exceptions import AlreadyOnVacation, NotOnVacation, VacationBankEmpty
from games.models import UserEvent, Vacation
from games.selectors.vacations import vacation_policy, vacation_status
from games.services.vacations import (
    auto_vacation_set,
    vacation_end,
    vacation_run_out,
    vacation_start,
    vacation_warn,
    vacations_sweep,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

DAY = 86400
HOUR = 3600
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def player():
    return UserFactory(date_joined=T0)


def at(seconds: int) -> datetime:
    return T0 + timedelta(seconds=seconds)


def left(user, now: datetime) -> int:
    return vacation_status(user=user, now=now)["left_seconds"]


def notices(user, type_: str) -> list[UserEvent]:
    return list(UserEvent.objects.filter(user=user, type=type_).order_by("id"))


def test_the_policy_comes_from_the_settings(settings):
    settings.VACATION_STARTING_DAYS = 10
    settings.VACATION_ACCRUAL_HOURS_PER_DAY = 2
    settings.VACATION_CAP_DAYS = 12
    assert vacation_policy() == vacation.VacationPolicy(starting=10 * DAY,
                                                        accrual_per_day=2 * HOUR, cap=12 * DAY)
    assert vacation_policy() != vacation.policy()


def test_a_new_account_has_the_starting_bank_and_auto_vacation_on(player):
    status = vacation_status(user=player, now=T0)
    assert status["left_seconds"] == 20 * DAY
    assert status["on_vacation"] is False and status["since"] is None
    assert status["runs_out_at"] is None
    assert status["auto_vacation"] is True
    assert status["cap_seconds"] == 30 * DAY
    assert status["accrual_seconds_per_day"] == 3 * HOUR
    assert not Vacation.objects.filter(user=player).exists()  # reading writes nothing


def test_the_bank_earns_while_not_on_vacation_never_beyond_the_cap(player):
    assert left(player, at(8 * DAY)) == 21 * DAY
    assert left(player, at(80 * DAY)) == 30 * DAY
    assert left(player, at(400 * DAY)) == 30 * DAY


def test_the_bank_is_spent_on_vacation_and_earns_again_after(player):
    vacation_start(user=player, now=at(8 * DAY))  # 21 days in the bank
    status = vacation_status(user=player, now=at(10 * DAY))
    assert status["on_vacation"] is True and status["since"] == at(8 * DAY)
    assert status["left_seconds"] == 19 * DAY
    assert status["runs_out_at"] == at(29 * DAY)
    vacation_end(user=player, now=at(11 * DAY))
    assert left(player, at(11 * DAY)) == 18 * DAY
    assert left(player, at(19 * DAY)) == 19 * DAY  # a day earned every eight
    status = vacation_status(user=player, now=at(19 * DAY))
    assert status["on_vacation"] is False and status["runs_out_at"] is None
    row = Vacation.objects.get(user=player)
    assert row.runs_out_at is None and row.warning_due_at is None


def test_starting_twice_or_ending_when_off_changes_nothing(player):
    with pytest.raises(NotOnVacation):
        vacation_end(user=player, now=at(HOUR))
    vacation_start(user=player, now=at(DAY))
    before = Vacation.objects.get(user=player).bank
    with pytest.raises(AlreadyOnVacation):
        vacation_start(user=player, now=at(2 * DAY))
    assert Vacation.objects.get(user=player).bank == before


def test_an_empty_bank_cannot_start_a_vacation(player, settings):
    settings.VACATION_STARTING_DAYS = 0
    settings.VACATION_ACCRUAL_HOURS_PER_DAY = 0
    with pytest.raises(VacationBankEmpty):
        vacation_start(user=player, now=at(DAY))
    assert vacation_status(user=player, now=at(DAY))["on_vacation"] is False
    assert not Vacation.objects.filter(user=player).exists()


def test_the_sweep_ends_a_vacation_that_ran_out_once_and_tells_the_player(player, settings):
    settings.VACATION_STARTING_DAYS = 3
    vacation_start(user=player, now=T0)
    assert vacations_sweep(now=at(3 * DAY - 1))["ended"] == 0
    assert vacation_status(user=player, now=at(3 * DAY - 1))["on_vacation"] is True
    assert vacations_sweep(now=at(3 * DAY + 50)) == {"ended": 1, "warned": 0}
    assert vacations_sweep(now=at(3 * DAY + 110)) == {"ended": 0, "warned": 0}
    assert vacation_run_out(user_id=player.id, now=at(4 * DAY)) is False
    status = vacation_status(user=player, now=at(3 * DAY + 50))
    assert status["on_vacation"] is False
    assert status["left_seconds"] == 50 * 3 * HOUR // DAY  # earning from when it ran out
    [ended] = notices(player, UserEvent.Type.VACATION_ENDED)
    assert ended.data == {"since": T0.isoformat(), "ended_at": at(3 * DAY).isoformat()}
    assert ended.match is None


def test_the_warning_goes_out_once_a_day_before(player, settings):
    settings.VACATION_STARTING_DAYS = 3
    vacation_start(user=player, now=T0)
    assert Vacation.objects.get(user=player).warning_due_at == at(2 * DAY)
    assert vacations_sweep(now=at(2 * DAY - 1)) == {"ended": 0, "warned": 0}
    assert vacations_sweep(now=at(2 * DAY)) == {"ended": 0, "warned": 1}
    assert vacations_sweep(now=at(2 * DAY + 60)) == {"ended": 0, "warned": 0}
    assert vacation_warn(user_id=player.id, now=at(2 * DAY + 120)) is False
    [warning] = notices(player, UserEvent.Type.VACATION_ENDING)
    assert warning.data == {"runs_out_at": at(3 * DAY).isoformat(), "left_seconds": DAY}
    vacations_sweep(now=at(3 * DAY))
    assert len(notices(player, UserEvent.Type.VACATION_ENDING)) == 1
    assert len(notices(player, UserEvent.Type.VACATION_ENDED)) == 1


def test_a_vacation_ended_by_hand_sends_no_warning_and_no_end_notice(player):
    vacation_start(user=player, now=T0)
    vacation_end(user=player, now=at(DAY))
    assert vacations_sweep(now=at(40 * DAY)) == {"ended": 0, "warned": 0}
    assert not UserEvent.objects.filter(user=player).exists()


def test_a_sweep_that_comes_late_ends_without_a_warning(player, settings):
    settings.VACATION_STARTING_DAYS = 3
    vacation_start(user=player, now=T0)
    assert vacations_sweep(now=at(5 * DAY)) == {"ended": 1, "warned": 0}
    assert notices(player, UserEvent.Type.VACATION_ENDING) == []
    assert Vacation.objects.get(user=player).warning_due_at is None


def test_less_than_a_day_left_warns_at_once(player, settings):
    settings.VACATION_STARTING_DAYS = 0.5
    vacation_start(user=player, now=T0)
    assert vacations_sweep(now=at(60)) == {"ended": 0, "warned": 1}
    [warning] = notices(player, UserEvent.Type.VACATION_ENDING)
    assert warning.data["left_seconds"] == DAY // 2 - 60


def test_ending_by_hand_after_it_ran_out_ends_it_as_the_sweep_would(player, settings):
    settings.VACATION_STARTING_DAYS = 3
    vacation_start(user=player, now=T0)
    vacation_end(user=player, now=at(4 * DAY))
    assert vacation.load_bank(Vacation.objects.get(user=player).bank).as_of == at(3 * DAY)
    assert len(notices(player, UserEvent.Type.VACATION_ENDED)) == 1
    assert vacations_sweep(now=at(5 * DAY)) == {"ended": 0, "warned": 0}


def test_the_sweep_works_in_batches(settings):
    settings.VACATION_STARTING_DAYS = 1
    players = [UserFactory(date_joined=T0) for _ in range(5)]
    for user in players:
        vacation_start(user=user, now=T0)
    assert vacations_sweep(now=at(2 * DAY), batch=2) == {"ended": 5, "warned": 0}
    assert UserEvent.objects.filter(type=UserEvent.Type.VACATION_ENDED).count() == 5


def test_auto_vacation_is_switched_off_and_on(player):
    auto_vacation_set(user=player, enabled=False, now=T0)
    assert vacation_status(user=player, now=T0)["auto_vacation"] is False
    assert left(player, T0) == 20 * DAY
    auto_vacation_set(user=player, enabled=True, now=at(DAY))
    assert vacation_status(user=player, now=at(DAY))["auto_vacation"] is True


def test_an_old_account_has_earned_since_it_joined(settings):
    old = UserFactory(date_joined=T0 - timedelta(days=40))
    assert left(old, T0) == 25 * DAY
    vacation_start(user=old, now=T0)
    assert vacation_status(user=old, now=T0)["runs_out_at"] == at(25 * DAY)


def test_a_request_that_waited_for_the_lock_acts_after_the_change_it_waited_for(player):
    vacation_start(user=player, now=at(DAY))
    # Its instant was taken before the start above committed: it still ends the vacation.
    vacation_end(user=player, now=at(DAY - 5))
    status = vacation_status(user=player, now=at(DAY))
    assert status["on_vacation"] is False and status["left_seconds"] == 20 * DAY + 3 * HOUR
    vacation_start(user=player, now=at(DAY - 9))
    assert vacation_status(user=player, now=at(DAY))["since"] == at(DAY)
