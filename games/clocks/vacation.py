"""A player's vacation bank.

Each account has a bank of vacation time. A new account starts with ``starting`` seconds; while
the player is not on vacation the bank grows by ``accrual_per_day`` seconds a day, up to
``cap``; while the player is on vacation it shrinks by the wall time that passes (one vacation
stops the player's clocks in every match that allows it, and costs the same whatever the
number of matches). The defaults are 20 days to start with, a day every eight days (3 hours a
day) and 30 days at most.

A :class:`VacationBank` holds ``left`` as counted at ``as_of`` and, on vacation, ``since``, the
instant the vacation began; what it holds at a later instant is computed (:func:`left_at`), so
nothing has to run every day. A vacation ends by the player's hand (:func:`end`) or by itself
when the bank runs out (:func:`runs_out_at`); the player is told a day before that
(:func:`warning_at`). :func:`standing` is the bank as it stands at an instant, a vacation that
ran out by then ended. Starting with an empty bank, starting twice or ending a vacation that is
not on are coded errors and change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.clocks.errors import (
    AlreadyOnVacation,
    InvalidClockState,
    InvalidVacationPolicy,
    NotOnVacation,
    TimeWentBack,
    VacationBankEmpty,
)
from games.clocks.instants import (
    DAY,
    HOUR,
    dump_instant,
    instant,
    load_instant,
    seconds,
    whole,
)

STARTING = 20 * DAY
ACCRUAL_PER_DAY = 3 * HOUR
CAP = 30 * DAY
WARNING = DAY


@dataclass(frozen=True)
class VacationPolicy:
    starting: int = STARTING
    accrual_per_day: int = ACCRUAL_PER_DAY
    cap: int = CAP


@dataclass(frozen=True)
class VacationBank:
    left: int
    as_of: datetime
    since: datetime | None = None

    @property
    def on_vacation(self) -> bool:
        return self.since is not None


def policy(starting: int = STARTING, accrual_per_day: int = ACCRUAL_PER_DAY,
           cap: int = CAP) -> VacationPolicy:
    """The vacation settings, checked: amounts in seconds, the start within the cap, a day's
    accrual at most a day."""
    for name, value in (("starting", starting), ("accrual_per_day", accrual_per_day),
                        ("cap", cap)):
        whole(value, name, InvalidVacationPolicy)
        if value < 0:
            raise InvalidVacationPolicy(f"{name} cannot be negative.", field=name)
    if starting > cap:
        raise InvalidVacationPolicy("The starting amount cannot exceed the cap.",
                                    field="starting", cap=cap)
    if accrual_per_day > DAY:
        raise InvalidVacationPolicy("A day cannot earn more than a day.",
                                    field="accrual_per_day", maximum=DAY)
    return VacationPolicy(starting=starting, accrual_per_day=accrual_per_day, cap=cap)


def new_bank(rules: VacationPolicy, now: datetime) -> VacationBank:
    """The bank of an account created at ``now``."""
    return VacationBank(left=rules.starting, as_of=instant(seconds(now)))


def _elapsed(bank: VacationBank, now: datetime) -> int:
    elapsed = seconds(now) - seconds(bank.as_of)
    if elapsed < 0:
        raise TimeWentBack("The instant is earlier than the bank's last count.", field="now",
                           as_of=dump_instant(bank.as_of))
    return elapsed


def left_at(rules: VacationPolicy, bank: VacationBank, now: datetime) -> int:
    """The vacation time the player has at ``now``."""
    elapsed = _elapsed(bank, now)
    if bank.on_vacation:
        return max(0, bank.left - elapsed)
    if bank.left >= rules.cap:
        return bank.left
    return min(rules.cap, bank.left + elapsed * rules.accrual_per_day // DAY)


def start(rules: VacationPolicy, bank: VacationBank, now: datetime) -> VacationBank:
    """The player goes on vacation at ``now``."""
    if bank.on_vacation:
        raise AlreadyOnVacation("The vacation is already on.", field="vacation")
    left = left_at(rules, bank, now)
    if left <= 0:
        raise VacationBankEmpty("No vacation time is left.", field="vacation", left=left)
    moment = instant(seconds(now))
    return VacationBank(left=left, as_of=moment, since=moment)


def runs_out_at(bank: VacationBank) -> datetime | None:
    """The instant the running vacation uses up the bank (``None`` when none runs)."""
    if not bank.on_vacation:
        return None
    return instant(seconds(bank.as_of) + bank.left)


def warning_at(bank: VacationBank) -> datetime | None:
    """The instant to tell the player their bank runs out in a day (at the vacation's start
    if less than a day was left)."""
    out = runs_out_at(bank)
    if out is None or bank.since is None:
        return None
    return instant(max(seconds(bank.since), seconds(out) - WARNING))


def has_run_out(bank: VacationBank, now: datetime) -> bool:
    """Whether the running vacation has used up the bank by ``now``."""
    out = runs_out_at(bank)
    return out is not None and seconds(out) <= seconds(now)


def end(rules: VacationPolicy, bank: VacationBank, now: datetime) -> VacationBank:
    """The vacation ends at ``now``, or when the bank ran out if that came first; the new
    bank's ``as_of`` is the instant it ended (the one to restart the clocks at)."""
    out = runs_out_at(bank)
    if out is None:
        raise NotOnVacation("No vacation is on.", field="vacation")
    ended = instant(min(seconds(now), seconds(out)))
    return VacationBank(left=left_at(rules, bank, ended), as_of=ended)


def standing(rules: VacationPolicy, bank: VacationBank, now: datetime) -> VacationBank:
    """The bank as it stands at ``now``: a vacation that used it up by then has ended (when it
    ran out), whether or not anything has ended it yet."""
    return end(rules, bank, now) if has_run_out(bank, now) else bank


def dump_bank(bank: VacationBank) -> dict[str, Any]:
    return {"left": bank.left, "as_of": dump_instant(bank.as_of),
            "since": dump_instant(bank.since)}


def load_bank(data: object) -> VacationBank:
    """The bank stored as JSON, every field checked (:class:`InvalidClockState`)."""
    if not isinstance(data, Mapping) or set(data) != {"left", "as_of", "since"}:
        raise InvalidClockState("A vacation bank has left, as_of and since.", field="vacation")
    left = whole(data["left"], "left")
    as_of = load_instant(data["as_of"], "as_of")
    since = load_instant(data["since"], "since")
    if left < 0 or as_of is None or (since is not None and since > as_of):
        raise InvalidClockState("A vacation bank counts from a known instant.",
                                field="vacation")
    return VacationBank(left=left, as_of=as_of, since=since)
