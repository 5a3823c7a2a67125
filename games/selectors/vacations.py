"""Reads of a player's vacation: the settings' policy, the stored bank (or the starting one of
an account whose vacation never changed), whether the player is away for their clocks, and what
the player is shown of it; and what everyone else is shown: only whether a person is on
vacation, never the bank.

A person is on vacation while the stored bank's ``since`` is set: from ``vacation_start`` until
the vacation is ended by hand or by the sweep when the bank runs out. Bots never are. Seat rows
read by ``match_rows`` or ``seats_prefetch`` carry the answer for their player
(``away_annotation``), in the query that reads them; seats read otherwise get it in one query
for all of them (``seats_away``). For the clocks (``away_at``), a vacation that used up the
bank is over from that instant, ended or not: the sweep restarts the clocks at it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db.models import Exists, F, OuterRef, QuerySet
from django.db.models.fields.json import KT

from accounts.models import User
from games.clocks import vacation
from games.clocks.instants import DAY, HOUR
from games.models import Seat, Vacation
from games.selectors import shapes

# Where a seat row read with ``away_annotation`` keeps whether its player is on vacation, and
# the player it was read for (a seat filled after the read is read again).
AWAY_ATTR = "player_away"
AWAY_USER_ATTR = "player_away_user_id"


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


def running_vacations() -> QuerySet[Vacation]:
    """The rows of the players on vacation: the stored bank's ``since`` is set (JSON null, or
    no key, is SQL NULL through ``->>``)."""
    return Vacation.objects.alias(running_since=KT("bank__since")).filter(
        running_since__isnull=False)


def away_annotation() -> dict[str, Exists | F]:
    """For ``annotate`` on seat rows: whether each row's player is on vacation (``AWAY_ATTR``;
    a subquery on the vacation row's primary key) and the player it was asked for."""
    return {AWAY_ATTR: Exists(running_vacations().filter(user_id=OuterRef("user_id"))),
            AWAY_USER_ATTR: F("user_id")}


def _person(seat: Seat) -> bool:
    return seat.user is not None and not seat.user.is_bot


def seats_away(seats: Sequence[Seat]) -> list[bool]:
    """Whether each seat's player is on vacation, in seat order (an open seat and a bot never
    are): from the annotation the rows were read with, else read for all the seats that lack it
    in one query."""
    missing = [seat.user_id for seat in seats if seat.user_id is not None and _person(seat)
               and getattr(seat, AWAY_USER_ATTR, None) != seat.user_id]
    if missing:
        away = set(running_vacations().filter(user_id__in=missing)
                   .values_list("user_id", flat=True))
        for seat in seats:
            if seat.user_id in missing:
                setattr(seat, AWAY_ATTR, seat.user_id in away)
                setattr(seat, AWAY_USER_ATTR, seat.user_id)
    return [_person(seat) and bool(getattr(seat, AWAY_ATTR)) for seat in seats]


def player_away_annotation() -> dict[str, Exists]:
    """For ``annotate`` on user rows: whether each is on vacation (``AWAY_ATTR``)."""
    return {AWAY_ATTR: Exists(running_vacations().filter(user_id=OuterRef("pk")))}


def player_away(user: User) -> bool:
    """Whether the person is on vacation (a bot never is): what another player sees of their
    vacation. From ``player_away_annotation`` when the user was read with it, else one query."""
    if user.is_bot:
        return False
    known = getattr(user, AWAY_ATTR, None)
    return known if known is not None else running_vacations().filter(user=user).exists()
