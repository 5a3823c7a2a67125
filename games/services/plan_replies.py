"""Plans played: once a seat's move is recorded, each other seat's plan answers it.

Called by the recording path (``_recording.play``) under the match lock, in the transaction
that records the move (what the move does to each plan is read just before it is recorded, so
a seat whose plan replies at once is not told it is its turn). For every other seat holding a
plan, ``games.kit.plans.plan_after`` says what the move does to it:

- a reply: what is left of the plan is kept (``then``; deleted when empty) and the reply's
  moves are recorded for the planner through ``_recording.play``, each an ordinary move marked
  ``by_plan`` in the log, each answered in turn by the other seat's plan if it holds one;
- a move the plan does not cover: the plan is deleted and the planner is told the move's key,
  as they saw it (a ``plan_not_covered`` feed entry, and a notification of that kind);
- a reply the engine refuses in the real position: the plan is deleted, nothing of it is
  played, and the planner is told (``plan_dropped``, with the refusal's code).

A move the seat makes by hand keeps of its own plan only the openings that start with that move
(a plan made during its turn), pruned, and deletes anything else (``hand_move_left``). Chains of
replies (each seat's plan answering the other's) are bounded by the plans' own limits and,
whatever they hold, by ``MAX_CHAIN`` moves played by plan after one move by hand: a plan whose
reply would go beyond it is dropped (``plan_dropped`` with the cause ``chain_limit``) and the
match waits for its player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from games.kit.plans import (
    HandMove,
    NotCovered,
    PlanStep,
    Reply,
    ReplyRefused,
    dump_plan,
    parse_plan,
    plan_after,
)
from games.kit.protocol import JSON, State, Transition
from games.models import Match, Move, UserEvent
from games.services.locking import LockedMatch
from games.services.notifications import notify
from games.services.plans import plan_advance, plans_clear, seat_plans

# The most moves played by plan, one after another, after one move made by hand.
MAX_CHAIN = 100


class Play(Protocol):
    """The recording path's ``play`` (passed in: the recording path calls this module)."""

    def __call__(self, *, locked: LockedMatch, seat: int, user: Any, payload: Any,
                 chain: int) -> Move: ...


@dataclass(frozen=True)
class Played:
    """A seat's move as it was recorded: the engine's ``move`` played in ``before``, with its
    ``transition``; ``chain``: how many moves were played by plan in a row up to it (0: a move
    by hand); ``play``: how a reply move is recorded (``_recording.play``)."""

    seat: int
    move: Any
    before: State
    transition: Transition[Any]
    chain: int
    play: Play


def plan_steps(locked: LockedMatch, played: Played) -> dict[int, PlanStep]:
    """What ``played`` does to every seat's plan, by seat, read before the move is recorded.
    The mover's own plan gets a ``HandMove``, for the caller to take out (``hand_move_left``)."""
    return {seat: plan_after(locked.engine, played.before, played.seat, played.move,
                             played.transition, seat, parse_plan(row.tree))
            for seat, row in sorted(seat_plans(locked).items())}


def hand_move_left(steps: dict[int, PlanStep], played: Played) -> list[JSON]:
    """Take the mover's own step out of ``steps``: what is left of its plan after its move by
    hand (the openings that start with it, pruned; empty: nothing). A move played by plan
    leaves the plan as its reply's branch left it: ``[]`` is not used then."""
    step = steps.pop(played.seat, None)
    return dump_plan(step.then) if isinstance(step, HandMove) else []


def replying(steps: dict[int, PlanStep], played: Played) -> frozenset[int]:
    """The seats whose plans reply at once with a move: they are not told it is their turn
    (it is over in the same transaction)."""
    return frozenset(seat for seat, step in steps.items()
                     if isinstance(step, Reply) and step.moves
                     and played.chain + len(step.moves) <= MAX_CHAIN)


def plans_answer(locked: LockedMatch, played: Played, steps: dict[int, PlanStep]) -> None:
    """Carry out ``steps`` (``plan_steps``) once ``played`` is recorded."""
    for seat, step in sorted(steps.items()):
        if locked.match.status != Match.Status.ACTIVE or seat not in locked.match.planners:
            return
        _answer(locked, played, seat, step)


def _answer(locked: LockedMatch, played: Played, planner: int, step: PlanStep) -> None:
    if isinstance(step, Reply):
        if played.chain + len(step.moves) > MAX_CHAIN:
            _dropped(locked, planner, step.key, cause="chain_limit")
            return
        plan_advance(locked, planner, dump_plan(step.then))
        _play_reply(locked, played, planner, step.moves)
    elif isinstance(step, NotCovered):
        plans_clear(locked, [planner])
        _tell(locked, planner, UserEvent.Type.PLAN_NOT_COVERED, key=step.key)
    elif isinstance(step, ReplyRefused):
        _dropped(locked, planner, step.key, cause=step.error.code)
    else:  # the planner's own move: not reached, the caller takes it out (hand_move_left)
        plans_clear(locked, [planner])


def _play_reply(locked: LockedMatch, played: Played, planner: int,
                moves: tuple[Any, ...]) -> None:
    """Record the reply's moves for ``planner``, one after another, as moves by plan."""
    user = locked.seat(planner).user
    for index, payload in enumerate(moves):
        if locked.match.status != Match.Status.ACTIVE:
            return
        played.play(locked=locked, seat=planner, user=user, payload=payload,
                    chain=played.chain + index + 1)


def _dropped(locked: LockedMatch, planner: int, key: Any, *, cause: str) -> None:
    plans_clear(locked, [planner])
    _tell(locked, planner, UserEvent.Type.PLAN_DROPPED, key=key, cause=cause)


def _tell(locked: LockedMatch, planner: int, type: str, **data: Any) -> None:
    """A feed entry for the planner alone (the key is the move as they saw it)."""
    seat = locked.seat(planner)
    if seat.user is None or seat.user.is_bot:
        return
    match = locked.match
    notify(user_ids=[seat.user.id], type=type, match=match, game=match.game,
           version=match.version, reachable=locked.reachable(seat), **data)
