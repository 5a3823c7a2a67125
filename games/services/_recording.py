"""The one recording path: how a locked match changes, and what follows after commit.

Private to the services. Every transition of a match (a person's move, a bot's, a system step,
a forfeit, a deadline's stalemate) is written by ``record``; a result declared from outside the
game by ``decide``; both end a match through ``_finish``. A change of the clocks alone (a seat's
clock stopped or restarted for its player's vacation) is written by ``clocks_record``. A match
starts through ``start`` and is called off through ``abort``. A seat's move (``play``) is
followed by the plans it sets off (``games.services.plan_replies``), in the same transaction.
Each takes the ``LockedMatch`` of ``match_lock`` in the running transaction and refuses anything
else, so nothing writes a match it has not locked. What each log entry holds is
``games.movelog``'s to say.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.models import User
from config.prepared import Statements, Writes
from games import movelog
from games.clocks.clock import Clocks
from games.exceptions import MatchNotStarted
from games.kit.plans import PlanUnreachable
from games.kit.protocol import Outcome, Transition, apply_checked
from games.models import Match, Move, Seat, UserEvent
from games.selectors.clocks import match_clocks, match_control, seat_calendars
from games.services import due, plan_replies, scheduling
from games.services.clocks import (
    CLOCK_FIELDS,
    clocks_advance,
    clocks_deadline,
    clocks_stop,
    clocks_store,
    seats_away_at_start,
)
from games.services.locking import LockedMatch, lock_held
from games.services.match_end import MatchEnd, match_ended
from games.services.notifications import (
    FeedEntries,
    feed_entries,
    feed_write,
    match_changed,
    notify,
    wake_after_commit,
)
from games.services.plans import plan_advance, plan_store, plans_available, plans_clear

# The log's rows and the match's are written by SQL kept per process (config.prepared): the
# ORM's save would build and compile the same statement on every move.
_MOVE_ROWS = Statements(Move)
_MATCH_ROWS = Statements(Match)
_MOVE_FIELDS = ("match", "seq", "kind", "seat", "user", "payload", "events", "by_plan",
                "created_at")


def _save(match: Match, *fields: str, writes: Writes | None = None) -> None:
    """Write ``fields`` of the locked match (and its ``updated_at``) to its row (with
    ``writes``: when they are written)."""
    if writes is None:
        _MATCH_ROWS.update(match, (*fields, "updated_at"))
    else:
        writes.update(_MATCH_ROWS, match, (*fields, "updated_at"))


def _require_lock(locked: LockedMatch) -> None:
    if not lock_held(locked):
        raise RuntimeError("A match is written only under match_lock, in the same transaction.")


def play(*, locked: LockedMatch, seat: int, user: User | None, payload: Any,
         plan: Any = None, chain: int = 0) -> Move:
    """Parse a seat's move, check it against the current state and record it; the engine's
    coded errors (malformed, not your turn, illegal) leave the match untouched.

    A move by hand (``chain`` 0) prunes the seat's plan to the lines made during its turn that
    start with this move, and deletes it when none does; ``plan``, if given, replaces it: with
    branches, it is checked and kept as the seat's new plan in the position right after the
    move (a refusal raises its coded error, and the caller's transaction records nothing), and
    empty, it only deletes the plan; a move that turns up something hidden takes no plan
    (``plan_unreachable``, reason ``revealed``). Then the other seats' plans answer the move
    (``games.services.plan_replies``); ``chain`` counts the moves played by plan in a row up to
    this one, which is marked ``by_plan`` when above 0."""
    _require_lock(locked)
    engine = locked.engine
    before = locked.state
    move = engine.parse_move(payload)
    transition = apply_checked(engine, before, seat, move)
    if plan and engine.move_reveals(before, seat, move):
        # The position after such a move depends on what the seat does not know: checking a
        # plan there would tell it (a refusal records nothing, like a dry run).
        raise PlanUnreachable("The plan cannot go on after a move that turns up something "
                              "hidden.", path=[], reason="revealed")
    played = plan_replies.Played(seat=seat, move=move, before=before, transition=transition,
                                 chain=chain, play=play)
    steps = plan_replies.plan_steps(locked, played)
    left = plan_replies.hand_move_left(steps, played)
    recorded = record(locked=locked, kind=Move.Kind.MOVE, seat=seat, user=user,
                      payload=engine.dump_move(move), transition=transition,
                      by_plan=chain > 0, quiet=plan_replies.replying(steps, played))
    if chain == 0:
        plan_advance(locked, seat, left if plan is None else [])
    if plan is not None and plan != []:
        plans_available(locked)
        plan_store(locked, seat, plan)
    if locked.match.status == Match.Status.ACTIVE:
        plan_replies.plans_answer(locked, played, steps)
    return recorded


def record(*, locked: LockedMatch, kind: str, seat: int | None, user: User | None,
           payload: dict[str, Any], transition: Transition[Any], by_plan: bool = False,
           quiet: frozenset[int] = frozenset()) -> Move:
    """Append the Move (``by_plan``: a seat's move its plan played), save the snapshot, finish
    the match if it is over (ranks and scores on the seats), write the feed entries and
    schedule what is now due. ``quiet``: seats not told it is their turn (their plans reply
    at once)."""
    _require_lock(locked)
    match, engine = locked.match, locked.engine
    previous_actors = frozenset(match.actors)
    # The log entry, the match row and the feed entries go to the database together, as one
    # statement (config.prepared.Writes): none of them reads another.
    writes = Writes()
    move = _append(match, kind=kind, seat=seat, user=user, payload=payload,
                   events=list(transition.events), by_plan=by_plan, writes=writes)
    _snapshot(locked, transition.state, previous_actors=previous_actors,
              mover=seat if kind == Move.Kind.MOVE else None)
    outcome = engine.outcome(transition.state)
    if outcome is not None:
        # What ends a match reads the log as it now stands.
        writes.write()
        _finish(locked, outcome, ["version", "state", "actors"])
        return move
    # What the match now waits for is written with the transition itself (see games.services.due).
    work = due.work_of(match, locked.seats, engine, locked.state)
    due.mark(match, work)
    # When the set of seats the match waits for grows, a new turn has begun for all of them
    # (in a simultaneous draft the last to place is among them again): each is told.
    newly_to_act = set(match.actors) - quiet if set(match.actors) - previous_actors else set()
    _save(match, "version", "state", "actors", *CLOCK_FIELDS, "work_due_at", writes=writes)
    wake: set[str] = set()
    feed_write(_turn_entries(locked, newly_to_act), writes, wake)
    match_changed(match, wake)
    wake_after_commit(wake)
    _schedule_follow_ups(match, work)
    return move


def decide(*, locked: LockedMatch, outcome: Outcome) -> Move:
    """End a running match with a result declared from outside the game (a staff
    adjudication): a system entry whose payload says so and whose one event is the
    ``match_ended`` of ``outcome``; the game state stays as it was, so a replay of the log
    passes over the entry. Results, feed entries and the rating follow as for any finish."""
    _require_lock(locked)
    match = locked.match
    if match.state is None:
        raise MatchNotStarted()
    move = _append(match, payload=movelog.system_payload(outcome.reason),
                   events=movelog.declared_events(outcome))
    match.actors = []
    match.deadline = None
    _finish(locked, outcome, ["version", "actors"])
    return move


def clocks_record(*, locked: LockedMatch, clocks: Clocks, payload: dict[str, Any]) -> Move:
    """Record a change of the running match's clocks alone (``payload``: a clock-only system
    entry, ``movelog.vacation_payload``): the entry is appended with no event, the game state
    stays, the clocks are stored and the deadline follows them. Watchers are woken, and the
    work the match waits for (a bot's turn, a system step) is queued again for the new
    version."""
    _require_lock(locked)
    match = locked.match
    if match.status != Match.Status.ACTIVE:
        raise MatchNotStarted()
    move = _append(match, payload=payload)
    timing = match_control(match)
    if timing is not None:
        clocks_store(locked, match_clocks(match), clocks, seat_calendars(timing, locked.seats))
    if not locked.engine.is_realtime(locked.state):
        match.deadline = clocks_deadline(locked)
    work = due.work_of(match, locked.seats, locked.engine, locked.state)
    due.mark(match, work)
    _save(match, "version", *CLOCK_FIELDS, "work_due_at")
    match_changed(match)
    _schedule_follow_ups(match, work)
    return move


def _finish(locked: LockedMatch, outcome: Outcome, fields: list[str]) -> None:
    """The match is over with ``outcome``: save it finished (with ``fields`` the caller
    changed, and its clocks stopped), delete its plans, copy the ranks and scores onto the
    seats, tell each person seated, wake the match's watchers and schedule what follows (the
    rating)."""
    match = locked.match
    plans_clear(locked)
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    clocks_stop(locked, now=match.finished_at)
    match.outcome = outcome.as_dict()
    work = due.work_of(match, locked.seats, locked.engine, locked.state)
    due.mark(match, work)
    _save(match, *fields, *CLOCK_FIELDS, "status", "finished_at", "outcome", "work_due_at")
    _record_results(locked.seats, outcome.ranks, outcome.scores)
    match_ended(MatchEnd(locked=locked))
    wake: set[str] = set()
    for seat in locked.seats:
        if seat.user is not None and not seat.user.is_bot and not seat.user.is_deleted:
            notify(user_ids=[seat.user.id], type=UserEvent.Type.MATCH_FINISHED, match=match,
                   game=match.game, rank=seat.rank, reason=outcome.reason, wake=wake,
                   reachable=locked.reachable(seat))
    match_changed(match, wake)
    wake_after_commit(wake)
    _schedule_follow_ups(match, work)


def start(*, locked: LockedMatch, state: Any) -> None:
    """Start a match whose seats have all joined, from its first ``state``."""
    _require_lock(locked)
    match = locked.match
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    # A player on vacation starts with a stopped clock: one entry each, as when it stops later.
    away = seats_away_at_start(locked, now=match.started_at,
                               realtime=locked.engine.is_realtime(state))
    _snapshot(locked, state, previous_actors=frozenset(), away=away)
    for index in away:
        _append(match, payload=movelog.vacation_payload(index, away=True))
    work = due.work_of(match, locked.seats, locked.engine, state)
    if work.race:
        # Every real-time bot's chain of actions starts now.
        race_seats = [seat for seat, _ in work.race]
        for seat in race_seats:
            seat.bot_tick_at = match.started_at
        Seat.objects.bulk_update(race_seats, ["bot_tick_at"])
    due.mark(match, work, match.started_at)
    _save(match, "status", "started_at", "state", "actors", *CLOCK_FIELDS, "work_due_at",
          "version")
    notify(user_ids=human_ids(locked.seats), type=UserEvent.Type.MATCH_STARTED, match=match,
           game=match.game)
    _notify_turns(locked, set(match.actors))
    match_changed(match)
    _schedule_follow_ups(match, work, started=True)


def abort(*, locked: LockedMatch, reason: str, late: frozenset[int] = frozenset()) -> None:
    """Call the match off (``reason``: ``movelog.ABORTED`` by a player or staff, or
    ``movelog.TIMEOUT``: the seats ``late`` ran out of time before anyone moved); never rated.
    Its plans are deleted."""
    _require_lock(locked)
    match = locked.match
    plans_clear(locked)
    match.status = Match.Status.ABORTED
    match.finished_at = timezone.now()
    match.actors = []
    match.deadline = None
    clocks_stop(locked, now=match.finished_at)
    match.outcome = {"reason": reason}
    match.work_due_at = None
    _save(match, "status", "finished_at", "actors", *CLOCK_FIELDS, "outcome", "work_due_at")
    match_ended(MatchEnd(locked=locked, late=late))
    notify(user_ids=human_ids(locked.seats), type=UserEvent.Type.MATCH_ABORTED, match=match,
           game=match.game, reason=reason)
    match_changed(match)


def _append(match: Match, *, payload: dict[str, Any], events: list[Any] | None = None,
            kind: str = Move.Kind.SYSTEM, seat: int | None = None, user: User | None = None,
            by_plan: bool = False, writes: Writes | None = None) -> Move:
    """Append the next entry of the match's log (a system entry unless told; with
    ``writes``: written with them) and move the match's version on to it; the caller saves
    the match."""
    match.version += 1
    # The row lock and the version check make a duplicate seq impossible; the unique
    # constraint on (match, seq) is the last line of defence.
    move = Move(match=match, seq=match.version, kind=kind, seat=seat, user=user,
                payload=payload, events=events or [], by_plan=by_plan)
    if writes is None:
        return _MOVE_ROWS.insert(move, _MOVE_FIELDS)
    writes.insert(_MOVE_ROWS, [move], _MOVE_FIELDS)
    return move


def human_ids(seats: Iterable[Seat]) -> list[int]:
    """The people seated (bots and deleted accounts left out)."""
    return [seat.user.id for seat in seats
            if seat.user is not None and not seat.user.is_bot and not seat.user.is_deleted]


def _snapshot(locked: LockedMatch, state: Any, *, previous_actors: frozenset[int],
              mover: int | None = None, away: Iterable[int] = ()) -> None:
    """Keep ``state`` as the match's snapshot with the seats it waits for, and move the clocks
    on (``mover``: the seat whose move this was, if any; ``away``: seats whose clocks stop
    first for their players' vacations)."""
    match, engine = locked.match, locked.engine
    match.state = engine.dump(state)
    # The answer's view is built from this state, not from loading the snapshot again.
    locked.state_set(state)
    actors = sorted(engine.must_act(state))
    match.actors = actors
    now = timezone.now()
    if actors and engine.is_realtime(state):
        # Real time: the match ends as a stalemate once nobody has acted for a while; the
        # correspondence clocks stand aside.
        match.deadline = now + timedelta(seconds=settings.REALTIME_IDLE_SECONDS)
    else:
        # A new turn begins when the seats the match waits for grow (see games.services.clocks).
        match.deadline = clocks_advance(locked, actors=actors, now=now, mover=mover,
                                        new_turn=bool(set(actors) - previous_actors),
                                        away=away)


def _record_results(seats: Iterable[Seat], ranks: tuple[int, ...],
                    scores: tuple[float, ...]) -> None:
    """Copy the final ranks and scores onto the seat rows."""
    rows = list(seats)
    for seat in rows:
        seat.rank = ranks[seat.index]
        seat.score = scores[seat.index]
    Seat.objects.bulk_update(rows, ["rank", "score"])


def _notify_turns(locked: LockedMatch, seats: Iterable[int]) -> None:
    """A "your turn" entry for each person among ``seats`` who is still in play."""
    feed_write(_turn_entries(locked, seats), Writes())


def _turn_entries(locked: LockedMatch, seats: Iterable[int]) -> list[FeedEntries]:
    """The "your turn" entries (``_notify_turns``), made and not yet written."""
    match = locked.match
    due_seats = set(seats)
    turns = []
    for seat in locked.seats:
        if seat.index in due_seats and seat.user is not None and not seat.user.is_bot \
                and seat.forfeited_at is None:
            entries = feed_entries(user_ids=[seat.user.id], type=UserEvent.Type.YOUR_TURN,
                                   match=match, game=match.game, version=match.version,
                                   deadline=match.deadline, reachable=locked.reachable(seat))
            if entries is not None:
                turns.append(entries)
    return turns


def _schedule_follow_ups(match: Match, work: due.Work, *, started: bool = False) -> None:
    """After commit, enqueue what is now due: bot turns, a system step, the rating update.

    In a real-time match bots act on their own clock: each bot's first action is scheduled at
    the start and every action schedules the next (see ``match_bot_race_tick``). Whatever is
    lost on the way is queued again by the due-work sweep (``games.services.due``)."""
    match_id, version = str(match.id), match.version
    if work.rate:
        scheduling.rating_after_commit(match_id=match_id)
    if work.system_step:
        scheduling.system_step_after_commit(match_id=match_id, version=version)
    for seat in work.bot_turns:
        scheduling.bot_move_after_commit(match_id=match_id, version=version, seat=seat,
                                         level=work.bot_levels.get(seat))
    if started:
        for race_seat, level in work.race:
            scheduling.race_tick_after_commit(match_id=match_id, seat=race_seat.index,
                                              ticket=race_seat.bot_ticket, level=level)
