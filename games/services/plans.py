"""A seat's plan in a match (conditional moves): saved, read and deleted by its owner.

The tree and its checks are ``games.kit.plans``'s; this module keeps a checked plan as the
seat's one ``Plan`` row, under the match lock. A plan is saved in the position the match is at
now (the caller says which version it planned from: another answers ``plan_stale``): branches
while its seat waits for the other seat's move, openings (its own moves first) during its own
turn; or, with a move (``match_move_submit`` with a plan), in the position right after that
move. Saving no branches deletes the plan. The match's
``planners`` field names the seats holding one. How plans are played when the other seat moves
is ``games.services.plan_replies``'s.

Nothing here changes the match's version nor its ``updated_at``: nobody else can tell that a
plan was saved, changed or deleted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.db import transaction

from accounts.models import User
from games.exceptions import PlanSeatNotFound
from games.kit.plans import (
    PlanStale,
    PlansUnavailable,
    dump_plan,
    parse_plan,
    plan_checked,
)
from games.kit.protocol import JSON, events_for
from games.models import Match, Move, Plan, Seat
from games.services.locking import LockedMatch, match_lock


@dataclass(frozen=True)
class PlanView:
    """A seat's plan as its owner reads it: the tree (empty: no plan) and the match's version
    it was made for or last advanced at (None without a plan), with the match's version now."""

    tree: list[JSON]
    plan_version: int | None
    version: int


@transaction.atomic
def plan_get(*, user: User, match_id: UUID | str) -> PlanView:
    """The caller's plan for the match (``PlanSeatNotFound`` if they hold no seat
    of it)."""
    locked = match_lock(match_id=match_id, user=user)
    seat = _planner_seat(locked, user)
    return _view(locked.match, _plan_row(locked.match, seat.index))


@transaction.atomic
def plan_save(*, user: User, match_id: UUID | str, tree: Any,
              expected_version: int) -> PlanView:
    """Check the caller's plan in the match's current position (``expected_version``: the
    version it was made for) and keep it in place of any plan they held; an empty tree
    deletes it. Refusals are ``games.kit.plans``'s coded errors and change nothing."""
    locked = match_lock(match_id=match_id, user=user)
    seat = _planner_seat(locked, user)
    plans_available(locked)
    match = locked.match
    if expected_version != match.version:
        raise PlanStale("The match has moved on since this plan was made.", path=[],
                        expected_version=expected_version, version=match.version)
    plan_store(locked, seat.index, tree)
    return _view(match, _plan_row(match, seat.index))


@transaction.atomic
def plan_delete(*, user: User, match_id: UUID | str) -> PlanView:
    """Delete the caller's plan for the match, if they hold one."""
    locked = match_lock(match_id=match_id, user=user)
    seat = _planner_seat(locked, user)
    plans_clear(locked, [seat.index])
    return _view(locked.match, None)


def plans_available(locked: LockedMatch) -> None:
    """``plans_unavailable`` unless the match runs and was created with plans allowed (the
    game's own rule, real time included, is ``plan_checked``'s)."""
    match = locked.match
    if match.status != Match.Status.ACTIVE or not match.plans_allowed:
        raise PlansUnavailable("Plans do not apply to this match.", path=[])


def plan_store(locked: LockedMatch, seat: int, tree: Any) -> None:
    """Check ``tree`` as ``seat``'s plan in the locked match's current position, from what
    that seat was shown, and keep it (or delete the seat's plan when it has no branches)."""
    engine = locked.engine
    checked = plan_checked(engine, locked.state, seat, parse_plan(tree),
                           history=seat_history(locked.match, seat))
    if not checked:
        plans_clear(locked, [seat])
        return
    version = locked.match.version
    Plan.objects.update_or_create(
        match=locked.match, seat=seat,
        defaults={"tree": dump_plan(checked), "made_at_version": version,
                  "advanced_at_version": version})
    _planners_set(locked, {*locked.match.planners, seat})


def plan_advance(locked: LockedMatch, seat: int, tree: list[JSON]) -> None:
    """Keep what is left of ``seat``'s plan once a reply of it was played, or once its seat
    moved by hand (an empty ``tree``: the plan is spent, or cleared, and deleted)."""
    if not tree:
        plans_clear(locked, [seat])
        return
    Plan.objects.filter(match=locked.match, seat=seat).update(
        tree=tree, advanced_at_version=locked.match.version)


def plans_clear(locked: LockedMatch, seats: Iterable[int] | None = None) -> None:
    """Delete the plans of ``seats`` (None: every seat's, as when the match ends)."""
    match = locked.match
    gone = set(match.planners) if seats is None else set(seats)
    if not gone & set(match.planners):
        return
    Plan.objects.filter(match=match, seat__in=sorted(gone)).delete()
    _planners_set(locked, set(match.planners) - gone)


def seat_plans(locked: LockedMatch) -> dict[int, Plan]:
    """The plans held in the locked match, by seat (no query when nobody holds one)."""
    if not locked.match.planners:
        return {}
    return {plan.seat: plan for plan in Plan.objects.filter(match=locked.match)}


def seat_history(match: Match, seat: int) -> list[JSON]:
    """The events ``seat`` was shown over the whole move log, in order."""
    history: list[JSON] = []
    for events in (Move.objects.filter(match=match).order_by("seq")
                   .values_list("events", flat=True)):
        history.extend(events_for(events, seat))
    return history


def _planners_set(locked: LockedMatch, seats: set[int]) -> None:
    match = locked.match
    match.planners = sorted(seats)
    # The field alone: neither the version nor updated_at (the ETag) changes.
    Match.objects.filter(pk=match.pk).update(planners=match.planners)


def _planner_seat(locked: LockedMatch, user: User) -> Seat:
    seat = locked.seat_of(user)
    if seat is None or seat.joined_at is None or seat.is_bot:
        raise PlanSeatNotFound()
    return seat


def _plan_row(match: Match, seat: int) -> Plan | None:
    if seat not in match.planners:
        return None
    return Plan.objects.filter(match=match, seat=seat).first()


def _view(match: Match, plan: Plan | None) -> PlanView:
    if plan is None:
        return PlanView(tree=[], plan_version=None, version=match.version)
    return PlanView(tree=plan.tree, plan_version=plan.advanced_at_version,
                    version=match.version)
