"""A player's vacation: starting and ending it, the auto-vacation switch, and the sweep that
ends a vacation that used up its bank and warns the player a day before.

The arithmetic is ``games.clocks.vacation``'s; this module keeps the bank on the player's
``Vacation`` row, under its row lock, with the two instants the sweep needs (``runs_out_at``,
``warning_due_at``). Nothing waits on a Celery task alone: the sweep (Celery beat,
``VACATION_SWEEP_SECONDS``) finds the rows whose instant has come through their partial indexes
and re-checks each under its lock, so a vacation ends, and each warning goes out, exactly once
however often or concurrently the sweep runs.

Three functions are the vacation's events, each in the transaction that records it:
``vacation_start`` (the player went on vacation, by hand or, through ``vacation_auto_start``,
instead of timing out), ``vacation_end`` (the player came back by hand) and
``vacation_run_out`` (the bank was used up). Each acts on the player's running matches in that
transaction (``games.services.away``): the start stops the player's seat clocks where
``games.clocks.clock.vacation_applies``, and either end restarts every one stopped for a
vacation at the instant the vacation ended. The vacation row is locked before any match
(``games.services.locking``).
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
from games.models import Match, UserEvent, Vacation
from games.selectors.vacations import vacation_policy
from games.services.away import player_clocks_restart, player_clocks_stop
from games.services.locking import vacations_lock
from games.services.notifications import notify


def _locked(user: User, now: datetime) -> Vacation:
    """The player's row, locked (made with the starting bank if the account has none)."""
    return vacations_lock([user], now)[user.pk]


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

    The event "vacation started": the player's seat clocks stop at that instant in every
    running match where their vacation applies (``games.services.away.player_clocks_stop``). A
    vacation that used up the bank before ``now`` and that the sweep has not ended yet ends
    first, as the sweep would (``vacation_run_out``). Raises ``AlreadyOnVacation`` or
    ``VacationBankEmpty`` (nothing changed)."""
    now = now or timezone.now()
    rules = vacation_policy()
    row = _locked(user, now)
    stored = vacation.load_bank(row.bank)
    now = _not_before(now, stored)
    if vacation.has_run_out(stored, now):
        try:
            vacation.start(rules, vacation.standing(rules, stored, now), now)
        except clock_errors.VacationBankEmpty:
            raise VacationBankEmpty(left_seconds=0) from None
        stored = _run_out(row, stored, now)
    try:
        bank = vacation.start(rules, stored, now)
    except clock_errors.AlreadyOnVacation:
        raise AlreadyOnVacation() from None
    except clock_errors.VacationBankEmpty:
        raise VacationBankEmpty(left_seconds=0) from None
    _store(row, bank)
    player_clocks_stop(user=user, at=now)
    return row


@transaction.atomic
def vacation_auto_start(*, user: User, match: Match, at: datetime) -> Vacation:
    """The player's seat in ``match`` ran out of time at ``at`` and auto-vacation spares it:
    their vacation starts at that instant (``vacation_start``: every applicable match of theirs
    stops, this one included, and no time is charged past the deadline), and they are told
    (``auto_vacation_started``, with the match and when the vacation ends by itself)."""
    row = vacation_start(user=user, now=at)
    bank = vacation.load_bank(row.bank)
    notify(user_ids=[user.pk], type=UserEvent.Type.AUTO_VACATION_STARTED, match=match,
           game=match.game, since=dump_instant(bank.since),
           runs_out_at=dump_instant(vacation.runs_out_at(bank)))
    return row


@transaction.atomic
def vacation_end(*, user: User, now: datetime | None = None) -> Vacation:
    """The player comes back from vacation at ``now``; what is left of the bank earns again.

    The event "vacation ended by hand": the player's seat clocks stopped for a vacation run
    again from ``now`` (``games.services.away.player_clocks_restart``). A vacation that ran out
    before ``now`` and that the sweep has not ended yet ends as the sweep would
    (``vacation_run_out``: at the instant it ran out, the player told). Raises
    ``NotOnVacation`` (nothing changed)."""
    now = now or timezone.now()
    row = _locked(user, now)
    bank = vacation.load_bank(row.bank)
    if not bank.on_vacation:
        raise NotOnVacation()
    now = _not_before(now, bank)
    if vacation.has_run_out(bank, now):
        _run_out(row, bank, now)
        return row
    ended = vacation.end(vacation_policy(), bank, now)
    _store(row, ended)
    player_clocks_restart(user=user, at=ended.as_of)
    return row


@transaction.atomic
def vacation_run_out(*, user_id: int, now: datetime | None = None) -> bool:
    """End the player's vacation if it has used up the bank by ``now``, and tell them; whether
    it did (False: no vacation runs, it has time left, or it was ended already).

    The event "vacation ran out": the vacation ends at ``runs_out_at``, and the player's seat
    clocks stopped for it run again from that instant
    (``games.services.away.player_clocks_restart``), however late the sweep comes."""
    now = now or timezone.now()
    row = Vacation.objects.select_for_update().filter(user_id=user_id).first()
    if row is None:
        return False
    bank = vacation.load_bank(row.bank)
    if not vacation.has_run_out(bank, now):
        return False
    _run_out(row, bank, now)
    return True


def _run_out(row: Vacation, bank: vacation.VacationBank, now: datetime) -> vacation.VacationBank:
    """End the vacation that used up ``bank`` by ``now`` at the instant it ran out: the
    player's clocks run again from then, and they are told. Answers the bank kept."""
    ended = vacation.end(vacation_policy(), bank, now)
    _store(row, ended)
    player_clocks_restart(user=row.user, at=ended.as_of)
    notify(user_ids=[row.user_id], type=UserEvent.Type.VACATION_ENDED,
           since=dump_instant(bank.since), ended_at=dump_instant(ended.as_of))
    return ended


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
