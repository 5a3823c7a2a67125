"""A player's vacation: starting and ending it, the auto-vacation switch, and the sweep that
ends a vacation that used up its bank and warns the player a day before.

The arithmetic is ``games.clocks.vacation``'s; this module keeps the bank on the player's
``Vacation`` row, under its row lock, with the two instants the sweep needs (``runs_out_at``,
``warning_due_at``). Nothing waits on a Celery task alone: the sweep (Celery beat,
``VACATION_SWEEP_SECONDS``) finds the rows whose instant has come through their partial indexes
and re-checks each under its lock, so a vacation ends, and each warning goes out, exactly once
however often or concurrently the sweep runs.

Three functions are the vacation's events, each in the transaction that records it:
``vacation_start`` (the player went on vacation), ``vacation_end`` (the player came back by
hand) and ``vacation_run_out`` (the bank was used up). Each is the one place to act on the
player's matches when that happens (stopping and restarting the seats' clocks where
``games.clocks.clock.vacation_applies``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clocks import errors as clock_errors
from games.clocks import vacation
from games.clocks.instants import dump_instant
from games.exceptions import AlreadyOnVacation, NotOnVacation, VacationBankEmpty
from games.models import UserEvent, Vacation
from games.selectors.vacations import vacation_bank, vacation_policy
from games.services.notifications import notify


def _locked(user: User, now: datetime) -> Vacation:
    """The player's row, locked (made with the starting bank if the account has none)."""
    row = Vacation.objects.select_for_update().filter(user=user).first()
    if row is None:
        bank = vacation_bank(user, None, now, vacation_policy())
        Vacation.objects.get_or_create(user=user, defaults={"bank": vacation.dump_bank(bank)})
        row = Vacation.objects.select_for_update().get(user=user)
    return row


def _not_before(now: datetime, bank: vacation.VacationBank) -> datetime:
    """``now``, or the bank's last count if that is later: a request that waited for the row
    lock while another changed the bank acts just after that change."""
    return max(now, bank.as_of)


def _store(row: Vacation, bank: vacation.VacationBank) -> None:
    """Keep ``bank`` on the row with the instants the sweep looks for."""
    row.bank = vacation.dump_bank(bank)
    row.runs_out_at = vacation.runs_out_at(bank)
    row.warning_due_at = vacation.warning_at(bank)
    row.save(update_fields=["bank", "runs_out_at", "warning_due_at", "updated_at"])


@transaction.atomic
def vacation_start(*, user: User, now: datetime | None = None) -> Vacation:
    """The player goes on vacation at ``now``: the bank is spent from then on, until the player
    comes back (``vacation_end``) or the bank is used up (``vacation_run_out``).

    The event "vacation started": the place to stop the player's clocks (at ``now``) in every
    match where their vacation applies. Raises ``AlreadyOnVacation`` or ``VacationBankEmpty``
    (nothing changed)."""
    now = now or timezone.now()
    rules = vacation_policy()
    row = _locked(user, now)
    stored = vacation.load_bank(row.bank)
    try:
        bank = vacation.start(rules, stored, _not_before(now, stored))
    except clock_errors.AlreadyOnVacation:
        raise AlreadyOnVacation() from None
    except clock_errors.VacationBankEmpty:
        raise VacationBankEmpty(left_seconds=0) from None
    _store(row, bank)
    return row


@transaction.atomic
def vacation_end(*, user: User, now: datetime | None = None) -> Vacation:
    """The player comes back from vacation at ``now``; what is left of the bank earns again.

    The event "vacation ended by hand": the place to restart the player's clocks (at ``now``)
    in the matches their vacation stopped. A vacation that ran out before ``now`` and that the
    sweep has not ended yet ends as the sweep would (``vacation_run_out``: at the instant it ran
    out, the player told). Raises ``NotOnVacation`` (nothing changed)."""
    now = now or timezone.now()
    row = _locked(user, now)
    bank = vacation.load_bank(row.bank)
    if not bank.on_vacation:
        raise NotOnVacation()
    now = _not_before(now, bank)
    if vacation.has_run_out(bank, now):
        _run_out(row, bank, now)
        return row
    _store(row, vacation.end(vacation_policy(), bank, now))
    return row


@transaction.atomic
def vacation_run_out(*, user_id: int, now: datetime | None = None) -> bool:
    """End the player's vacation if it has used up the bank by ``now``, and tell them; whether
    it did (False: no vacation runs, it has time left, or it was ended already).

    The event "vacation ran out": the vacation ends at ``runs_out_at``, the instant to restart
    the player's clocks at in the matches it stopped."""
    now = now or timezone.now()
    row = Vacation.objects.select_for_update().filter(user_id=user_id).first()
    if row is None:
        return False
    bank = vacation.load_bank(row.bank)
    if not vacation.has_run_out(bank, now):
        return False
    _run_out(row, bank, now)
    return True


def _run_out(row: Vacation, bank: vacation.VacationBank, now: datetime) -> None:
    ended = vacation.end(vacation_policy(), bank, now)
    _store(row, ended)
    notify(user_ids=[row.user_id], type=UserEvent.Type.VACATION_ENDED,
           since=dump_instant(bank.since), ended_at=dump_instant(ended.as_of))


@transaction.atomic
def vacation_warn(*, user_id: int, now: datetime | None = None) -> bool:
    """Tell the player that their vacation uses up the bank within a day, once per vacation;
    whether they were told now."""
    now = now or timezone.now()
    row = Vacation.objects.select_for_update().filter(user_id=user_id).first()
    if row is None or row.warning_due_at is None or row.warning_due_at > now:
        return False
    bank = vacation.load_bank(row.bank)
    row.warning_due_at = None
    row.save(update_fields=["warning_due_at", "updated_at"])
    if not bank.on_vacation or vacation.has_run_out(bank, now):
        return False
    notify(user_ids=[row.user_id], type=UserEvent.Type.VACATION_ENDING,
           runs_out_at=dump_instant(vacation.runs_out_at(bank)),
           left_seconds=vacation.left_at(vacation_policy(), bank, now))
    return True


@transaction.atomic
def auto_vacation_set(*, user: User, enabled: bool, now: datetime | None = None) -> Vacation:
    """Turn auto-vacation on or off (a seat whose time would run out starts a vacation
    instead, while the bank has time)."""
    row = _locked(user, now or timezone.now())
    if row.auto_vacation != enabled:
        row.auto_vacation = enabled
        row.save(update_fields=["auto_vacation", "updated_at"])
    return row


def vacations_sweep(*, now: datetime | None = None, batch: int = 500) -> dict[str, int]:
    """End the vacations that used up their bank, then send the due warnings, in batches
    through the partial indexes. Safe to run concurrently and repeatedly: each row is
    re-checked under its lock."""
    now = now or timezone.now()
    done = {"ended": 0, "warned": 0}
    for key, column, act in (("ended", "runs_out_at", vacation_run_out),
                             ("warned", "warning_due_at", vacation_warn)):
        due = Vacation.objects.filter(**{f"{column}__isnull": False, f"{column}__lte": now})
        last = 0
        while True:
            ids = list(due.filter(user_id__gt=last).order_by("user_id")
                       .values_list("user_id", flat=True)[:batch])
            done[key] += sum(1 for user_id in ids if act(user_id=user_id, now=now))
            if len(ids) < batch:
                break
            last = ids[-1]
    return done
