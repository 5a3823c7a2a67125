"""Reads of a player's vacation: the settings' policy, the stored bank (or the starting one of
an account whose vacation never changed), whether the player is away, and what the player is
shown of it."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from accounts.models import User
from games.clocks import vacation
from games.clocks.instants import DAY, HOUR
from games.models import Vacation
from games.selectors import shapes


def vacation_policy() -> vacation.VacationPolicy:
    """The bank's rules from the settings (``VACATION_STARTING_DAYS``,
    ``VACATION_ACCRUAL_HOURS_PER_DAY``, ``VACATION_CAP_DAYS``), checked."""
    return vacation.policy(starting=round(settings.VACATION_STARTING_DAYS * DAY),
                           accrual_per_day=round(settings.VACATION_ACCRUAL_HOURS_PER_DAY * HOUR),
                           cap=round(settings.VACATION_CAP_DAYS * DAY))


def return_minimum() -> int:
    """The least time, in seconds, a seat whose turn runs is given back when its player's
    vacation ends (``VACATION_RETURN_MINIMUM_SECONDS``; never more than the match's turn or
    bank maximum: ``games.clocks.clock.returning_minimum``)."""
    return max(0, int(settings.VACATION_RETURN_MINIMUM_SECONDS))


def vacation_bank(user: User, row: Vacation | None, now: datetime,
                  rules: vacation.VacationPolicy) -> vacation.VacationBank:
    """The stored bank, or for an account without a row the starting bank counted from the day
    it joined (so it has earned since, up to the cap)."""
    if row is not None:
        return vacation.load_bank(row.bank)
    return vacation.new_bank(rules, min(user.date_joined, now))


def away_at(row: Vacation, now: datetime) -> bool:
    """Whether the player of the vacation ``row`` is on vacation at ``now`` (a vacation that
    used up the bank by then is over, ended or not)."""
    return vacation.standing(vacation_policy(), vacation.load_bank(row.bank), now).on_vacation


def vacation_status(*, user: User, now: datetime) -> shapes.Vacation:
    """What the player is shown of their own vacation at ``now``."""
    rules = vacation_policy()
    row = Vacation.objects.filter(user=user).first()
    bank = vacation_bank(user, row, now, rules)
    # A vacation that ran out and that the sweep has not ended yet is shown as it will be.
    shown = vacation.standing(rules, bank, now)
    return {
        "on_vacation": shown.on_vacation,
        "since": shown.since,
        "left_seconds": vacation.left_at(rules, shown, max(now, shown.as_of)),
        "runs_out_at": vacation.runs_out_at(shown),
        "auto_vacation": row.auto_vacation if row is not None else True,
        "cap_seconds": rules.cap,
        "accrual_seconds_per_day": rules.accrual_per_day,
        "as_of": now,
    }
