"""Due work: what a match waits for that no person does, kept on its row, and the sweep that
queues it again when it has waited too long.

A match waits on work of its own when a bot must play its turn, when real-time bots act on
their clocks, when the engine has automatic work (nobody may act and the match is not over:
Nimalia scores a round), or when it finished rated and is not rated yet. The recording path
writes ``Match.work_due_at`` in the same transaction as the transition that made such work due
(``mark``) and clears it with the transition that leaves none; the rating clears it too. The
work itself travels as a Celery task queued after commit, and a task can be lost (the broker
was down when it was sent, restarted empty, a worker died holding it). Nothing depends on that
message alone: ``due_work_sweep`` (run by Celery beat) finds the matches whose work has been
due for longer than ``DUE_WORK_GRACE_SECONDS``, works out from the row what they wait for and
queues it again with the version, or the seat's ticket, it is for. A task that arrives twice
finds the match moved on (or the ticket used) and does nothing, so a re-queued task whose
original was not lost after all is harmless.

Real-time bots act in chains: each action queues the next one after the bot's reaction time,
guarded by ``Seat.bot_ticket``. Each such seat keeps ``bot_tick_at``, when its chain last made
progress; the match's mark is the oldest of them, so one stalled chain is found even while the
others run. The sweep restarts a stalled chain with the seat's current ticket: if the chain was
alive after all, whichever of the two ticks runs first uses the ticket and the other does
nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.kit.protocol import AnyEngine
from games.models import Match, RatingChange, Seat
from games.selectors import seat_bot_level
from games.services import scheduling
from games.services.locking import LockedMatch, match_lock

logger = logging.getLogger(__name__)


@dataclass
class Work:
    """What a match waits for that no person does, derived from its row."""

    rate: bool = False
    system_step: bool = False
    # Turn-based: the seats a bot must play now.
    bot_turns: list[int] = field(default_factory=list)
    # Their bot levels, by seat (a deep level's moves go to a queue of their own).
    bot_levels: dict[int, int] = field(default_factory=dict)
    # Real time: the bot seats whose chains of actions run, with their bot levels.
    race: list[tuple[Seat, int]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.rate or self.system_step or bool(self.bot_turns) or bool(self.race)


def work_of(match: Match, seats: Iterable[Seat], engine: AnyEngine, state: Any) -> Work:
    """What ``match`` (``seats`` its seats with their players, ``state`` its current game
    state) waits for."""
    if match.status == Match.Status.FINISHED:
        return Work(rate=match.rated)
    if match.status != Match.Status.ACTIVE or state is None:
        return Work()
    if not engine.actors(state):
        # No seat may act and the match is not over: the engine has automatic work due.
        return Work(system_step=True)
    actors = set(match.actors)
    if engine.is_realtime(state):
        # The chains run for the bot accounts still in play (see match_bot_race_tick).
        return Work(race=[(seat, level) for seat in seats
                          if seat.user is not None and seat.user.is_bot
                          and seat.index in actors
                          and (level := seat_bot_level(seat)) is not None])
    levels = {seat.index: level for seat in seats
              if seat.index in actors and (level := seat_bot_level(seat)) is not None}
    return Work(bot_turns=list(levels), bot_levels=levels)


def mark(match: Match, work: Work, now: datetime | None = None) -> None:
    """Set ``match.work_due_at`` (not saved) for ``work``, due from ``now``: None when the
    match waits only for people; for real-time bots, the oldest progress of their chains (a
    chain never stamped counts from ``now``)."""
    now = now or timezone.now()
    if not work:
        match.work_due_at = None
    elif work.race and not (work.rate or work.system_step or work.bot_turns):
        match.work_due_at = min(seat.bot_tick_at or now for seat, _ in work.race)
    else:
        match.work_due_at = now


def race_chain_progressed(locked: LockedMatch, seat: Seat, now: datetime | None = None) -> None:
    """A real-time bot's chain moved on (its action runs now): stamp the seat and update the
    match's mark. ``seat`` is one of the locked match's seats; both rows are saved."""
    seat.bot_tick_at = now or timezone.now()
    seat.save(update_fields=["bot_tick_at"])
    match = locked.match
    state = locked.state if match.state is not None else None
    mark(match, work_of(match, locked.seats, locked.engine, state), now)
    match.save(update_fields=["work_due_at"])


def work_done(match: Match) -> None:
    """Clear the mark of a match locked with ``match_lock`` whose due work is done."""
    if match.work_due_at is not None:
        match.work_due_at = None
        match.save(update_fields=["work_due_at"])


def grace() -> timedelta:
    """How long due work may wait before the sweep queues it again."""
    return timedelta(seconds=settings.DUE_WORK_GRACE_SECONDS)


def overdue(now: datetime | None = None) -> Any:
    """The matches whose work has waited past the grace period, oldest first (the query the
    partial index ``match_work_due`` serves)."""
    cutoff = (now or timezone.now()) - grace()
    return Match.objects.filter(work_due_at__isnull=False, work_due_at__lte=cutoff) \
        .order_by("work_due_at")


@transaction.atomic
def match_due_work_requeue(*, match_id: UUID | str, now: datetime | None = None) -> str | None:
    """Queue again the work a match has waited on past the grace period, if it still waits;
    returns what was done: "requeued", "cleared" (it waited for nothing any more) or None
    (the match moved on meanwhile, or is gone)."""
    now = now or timezone.now()
    cutoff = now - grace()
    locked = match_lock(match_id=match_id, missing_ok=True)
    if locked is None or locked.match.work_due_at is None or locked.match.work_due_at > cutoff:
        return None
    match = locked.match
    state = locked.state if match.state is not None else None
    work = work_of(match, locked.seats, locked.engine, state)
    if work.rate and RatingChange.objects.filter(match=match).exists():
        work.rate = False
    if not work:
        work_done(match)
        return "cleared"
    match_id = str(match.id)
    if work.rate:
        scheduling.rating_after_commit(match_id=match_id)
    if work.system_step:
        scheduling.system_step_after_commit(match_id=match_id, version=match.version)
    for seat_index in work.bot_turns:
        scheduling.bot_move_after_commit(match_id=match_id, version=match.version,
                                         seat=seat_index, level=work.bot_levels.get(seat_index))
    stalled = [(seat, level) for seat, level in work.race
               if seat.bot_tick_at is None or seat.bot_tick_at <= cutoff]
    for seat, level in stalled:
        # The seat's current ticket: a duplicate of a chain still alive does nothing.
        scheduling.race_tick_after_commit(match_id=match_id, seat=seat.index,
                                          ticket=seat.bot_ticket, level=level)
        seat.bot_tick_at = now
        seat.save(update_fields=["bot_tick_at"])
    mark(match, work, now)
    match.save(update_fields=["work_due_at"])
    logger.info("due work queued again for match %s at version %s", match_id, match.version)
    return "requeued"


def due_work_sweep(*, now: datetime | None = None, limit: int = 1000) -> dict[str, int]:
    """Queue again the work of up to ``limit`` matches that waited past the grace period,
    oldest first (the rest wait for the next run). Safe to run concurrently and repeatedly:
    each match is re-checked under its row lock, and each one queued is stamped, so it is
    queued again only after another grace period."""
    now = now or timezone.now()
    done = {"requeued": 0, "cleared": 0}
    for match_id in list(overdue(now).values_list("id", flat=True)[:limit]):
        result = match_due_work_requeue(match_id=match_id, now=now)
        if result is not None:
            done[result] += 1
    return done
