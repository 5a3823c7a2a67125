"""Every write to a match: one transaction, the match row locked, one recording path.

Humans, bots and the system all change a match through ``transition_record``; it appends the
Move, saves the new snapshot and schedules, after commit, whatever is now due.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from accounts.models import User
from games.catalog import get_engine
from games.exceptions import (
    AbortNotAllowed,
    AlreadySeated,
    IdempotencyKeyReused,
    InvalidSeats,
    MatchFull,
    MatchNotRunning,
    MatchNotStarted,
    NoInvitation,
    NotSeated,
    StaleVersion,
)
from games.kit.protocol import (
    Engine,
    Transition,
    apply_checked,
    events_for,
    is_realtime,
    seats_to_act,
)
from games.models import IdempotencyRecord, Match, Move, Seat, UserEvent
from games.selectors import (
    game_engine,
    match_access,
    match_detail,
    match_seats,
    seat_bot_level,
    seat_of,
)
from games.services.locking import match_lock
from games.services.notifications import match_changed, notify, wake_after_commit


@dataclass(frozen=True)
class SeatSpec:
    """How a seat is filled at creation: by the creator, an invited user, a bot, or left open."""

    kind: str  # "me" | "user" | "bot" | "open"
    username: str | None = None
    level: int | None = None


# --------------------------------------------------------------------------- create / join


@transaction.atomic
def match_create(*, user: User, game: str, players: int | None = None,
                 config: dict[str, Any] | None = None, seats: list[SeatSpec] | None = None,
                 rated: bool = True, turn_seconds: int | None = None) -> Match:
    engine = game_engine(game)
    if seats is None:
        count = players or engine.min_players
        seats = [SeatSpec("me")] + [SeatSpec("open")] * (count - 1)
    count = len(seats)
    if players is not None and players != count:
        raise InvalidSeats("players must equal the number of seats given.")
    if not engine.min_players <= count <= engine.max_players:
        raise InvalidSeats(f"{engine.name} is played by {engine.min_players} to "
                           f"{engine.max_players} players.")
    kinds = [spec.kind for spec in seats]
    if kinds.count("me") > 1:
        raise InvalidSeats("At most one seat can be yours (kind 'me').")
    if "me" not in kinds and set(kinds) != {"bot"}:
        raise InvalidSeats("Take a seat yourself (kind 'me'), or fill every seat with bots "
                           "to watch them play.")
    seed = secrets.token_hex(16)
    # Validates the options (InvalidConfig) before anything is written; kept for the start.
    initial = engine.initial_state(num_players=count, config=config or {}, seed=seed)
    seat_users = _resolve_seat_users(user=user, game=game, seats=seats)
    filled = [u.id for u in seat_users if u is not None]
    # A bot filling several seats plays itself: such a match is never rated.
    rated = rated and count > 1 and len(filled) == len(set(filled))
    match = Match.objects.create(
        game=game, config=config or {}, num_players=count, rated=rated,
        created_by=user, seed=seed, turn_seconds=turn_seconds,
    )
    now = timezone.now()
    Seat.objects.bulk_create([
        Seat(match=match, index=index, user=seat_user, is_bot=spec.kind == "bot",
             joined_at=now if spec.kind in ("me", "bot") else None)
        for index, (spec, seat_user) in enumerate(zip(seats, seat_users, strict=True))
    ])
    invited = [u.id for spec, u in zip(seats, seat_users, strict=True) if spec.kind == "user"]
    notify(user_ids=invited, type=UserEvent.Type.INVITED, match=match, game=game,
           by=user.username)
    _start_if_full(match, initial)
    return match


def _resolve_seat_users(*, user: User, game: str, seats: list[SeatSpec]) -> list[User | None]:
    resolved: list[User | None] = []
    for index, spec in enumerate(seats):
        if spec.kind == "me":
            resolved.append(user)
        elif spec.kind == "open":
            resolved.append(None)
        elif spec.kind == "user":
            invited = User.objects.filter(username=spec.username, is_active=True).first()
            if invited is None or invited.is_bot:
                raise InvalidSeats(f"Seat {index}: no player called {spec.username!r}.",
                                   seat=index)
            resolved.append(invited)
        elif spec.kind == "bot":
            bot = User.objects.filter(is_bot=True, bot_game=game, bot_level=spec.level).first()
            if bot is None:
                raise InvalidSeats(f"Seat {index}: no level {spec.level} bot for {game}.",
                                   seat=index)
            resolved.append(bot)
        else:
            raise InvalidSeats(f"Seat {index}: unknown kind {spec.kind!r}.", seat=index)
    people = [u.id for u in resolved if u is not None and not u.is_bot]
    if len(people) != len(set(people)):
        raise InvalidSeats("A player can hold only one seat of a match.")
    return resolved


@transaction.atomic
def match_join(*, user: User, match_id: UUID) -> Match:
    """Take an open seat, or accept the seat one was invited to."""
    match = match_lock(match_id=match_id, user=user)
    if match.status != Match.Status.OPEN:
        raise MatchFull("This match is not open for joining.")
    mine = seat_of(match, user)
    if mine is not None:
        if mine.joined_at is not None:
            raise AlreadySeated()
        mine.joined_at = timezone.now()
        mine.save(update_fields=["joined_at"])
    else:
        free = next((seat for seat in match_seats(match) if seat.is_open), None)
        if free is None:
            raise MatchFull()
        free.user = user
        free.joined_at = timezone.now()
        free.save(update_fields=["user", "joined_at"])
    match.save(update_fields=["updated_at"])
    _start_if_full(match)
    return match


@transaction.atomic
def match_decline(*, user: User, match_id: UUID) -> Match:
    """Turn down an invitation: the seat opens for anyone to join, and the host is told."""
    match = match_lock(match_id=match_id, user=user)
    seat = seat_of(match, user)
    if seat is None or seat.joined_at is not None or match.status != Match.Status.OPEN:
        raise NoInvitation()
    seat.user = None
    seat.save(update_fields=["user"])
    match.save(update_fields=["updated_at"])
    notify(user_ids=[match.created_by_id], type=UserEvent.Type.INVITATION_DECLINED,
           match=match, game=match.game, by=user.username, seat=seat.index)
    match_changed(match)
    return match


def _start_if_full(match: Match, initial: Any = None) -> None:
    """Start the match once every seat has joined (``initial``: its first state, if known)."""
    seats = match_seats(match)
    if any(seat.joined_at is None for seat in seats):
        return
    engine = get_engine(match.game)
    state = initial if initial is not None else engine.initial_state(
        num_players=match.num_players, config=match.config, seed=match.seed)
    match.status = Match.Status.ACTIVE
    match.started_at = timezone.now()
    _snapshot(match, engine, state, previous_actors=frozenset())
    match.save(update_fields=["status", "started_at", "state", "actors", "deadline",
                              "updated_at"])
    newly_to_act = set(match.actors)
    people = _human_ids(match)
    notify(user_ids=people, type=UserEvent.Type.MATCH_STARTED, match=match, game=match.game)
    _notify_turns(match, newly_to_act)
    match_changed(match)
    _schedule_follow_ups(match, engine, state, started=True)


# --------------------------------------------------------------------------- moves


def request_fingerprint(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


@transaction.atomic
def match_move_submit(*, user: User, match_id: UUID, move: Any,
                      expected_version: int | None = None,
                      idempotency_key: str | None = None) -> dict[str, Any]:
    """Validate a seat's move through the engine and record it; returns the caller's answer.

    A retry with the same Idempotency-Key returns the first answer and records nothing."""
    match = match_lock(match_id=match_id, user=user)
    if idempotency_key:
        fingerprint = request_fingerprint(move, expected_version)
        record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if record is not None:
            if record.match_id != match.id or record.fingerprint != fingerprint:
                raise IdempotencyKeyReused()
            return record.body
    seat = _acting_seat(match, user)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)
    engine = get_engine(match.game)
    parsed = engine.parse_move(move)
    transition = apply_checked(engine, engine.load(match.state), seat.index, parsed)
    recorded = transition_record(match=match, engine=engine, kind=Move.Kind.MOVE,
                                  seat=seat.index, user=user, payload=engine.dump_move(parsed),
                                  transition=transition)
    body = {"seq": recorded.seq, "events": events_for(recorded.events, seat.index),
            "match": match_detail(match, user)}
    if idempotency_key:
        try:
            with transaction.atomic():
                # Stored as the API renders it, so a replay answers the very same body.
                IdempotencyRecord.objects.create(
                    user=user, key=idempotency_key, match=match, fingerprint=fingerprint,
                    status_code=201, body=json.loads(json.dumps(body, cls=JSONEncoder)))
        except IntegrityError:
            # The same key raced in on another match: refuse it (the move rolls back).
            raise IdempotencyKeyReused() from None
    return body


@transaction.atomic
def match_move_preview(*, user: User, match_id: UUID, move: Any,
                       expected_version: int | None = None) -> dict[str, Any]:
    """A dry run: the view the move would lead to, or the coded error that forbids it."""
    match = match_access(user=user, match_id=match_id)
    seat = _acting_seat(match, user)
    if expected_version is not None and expected_version != match.version:
        raise StaleVersion(current_version=match.version)
    engine = get_engine(match.game)
    transition = apply_checked(engine, engine.load(match.state), seat.index,
                               engine.parse_move(move))
    view = None
    if engine.outcome(transition.state) is None:
        # A final view shows what only the real end may reveal (the seed, hidden cards); for a
        # move that would end the match the events carry the result instead.
        view = engine.view(transition.state, seat.index)
        view.pop("legal_moves", None)
    return {"legal": True, "events": events_for(transition.events, seat.index), "view": view}


def _acting_seat(match: Match, user: User) -> Seat:
    seat = seat_of(match, user)
    if seat is None or seat.joined_at is None:
        raise NotSeated()
    if match.status == Match.Status.OPEN:
        raise MatchNotStarted()
    if match.status != Match.Status.ACTIVE:
        raise MatchNotRunning()
    return seat


# --------------------------------------------------------------------------- leaving


@transaction.atomic
def match_resign(*, user: User, match_id: UUID) -> Match:
    match = match_lock(match_id=match_id, user=user)
    seat = _acting_seat(match, user)
    if seat.forfeited_at is not None:
        raise MatchNotRunning("You have already left this match.")
    seat_forfeit(match=match, seat=seat, reason="resigned")
    return match


def seat_forfeit(*, match: Match, seat: Seat, reason: str) -> None:
    """Record that a seat left (resigned or timed out); the caller holds the row lock."""
    engine = get_engine(match.game)
    transition = engine.forfeit(engine.load(match.state), seat.index)
    seat.forfeited_at = timezone.now()
    seat.forfeit_reason = reason
    seat.save(update_fields=["forfeited_at", "forfeit_reason"])
    transition_record(match=match, engine=engine, kind=Move.Kind.FORFEIT, seat=seat.index,
                       user=seat.user, payload={"reason": reason}, transition=transition)


@transaction.atomic
def match_abort(*, user: User, match_id: UUID) -> Match:
    """Call a match off before anyone has moved; it is never rated."""
    match = match_lock(match_id=match_id, user=user)
    seat = seat_of(match, user)
    if seat is None or seat.joined_at is None:
        raise NotSeated()
    if match.status not in (Match.Status.OPEN, Match.Status.ACTIVE):
        raise MatchNotRunning()
    if match.moves.filter(kind=Move.Kind.MOVE).exists():
        raise AbortNotAllowed()
    match_abort_locked(match=match, reason="aborted")
    return match


def match_abort_locked(*, match: Match, reason: str) -> None:
    match.status = Match.Status.ABORTED
    match.finished_at = timezone.now()
    match.actors = []
    match.deadline = None
    match.outcome = {"reason": reason}
    match.save(update_fields=["status", "finished_at", "actors", "deadline", "outcome",
                              "updated_at"])
    notify(user_ids=_human_ids(match), type=UserEvent.Type.MATCH_ABORTED, match=match,
           game=match.game, reason=reason)
    match_changed(match)


# --------------------------------------------------------------------------- system steps


@transaction.atomic
def match_system_step_run(*, match_id: UUID, expected_version: int) -> bool:
    """Apply the engine's due automatic work (e.g. Nimalia's round scoring) if the match is
    still at ``expected_version``; returns whether anything was recorded."""
    match = Match.objects.select_for_update(of=("self",)).filter(id=match_id).first()
    if match is None or match.status != Match.Status.ACTIVE or match.version != expected_version:
        return False
    engine = get_engine(match.game)
    transition = engine.system_step(engine.load(match.state))
    if transition is None:
        return False
    transition_record(match=match, engine=engine, kind=Move.Kind.SYSTEM, seat=None, user=None,
                       payload={}, transition=transition)
    return True


# --------------------------------------------------------------------------- the write path


def transition_record(*, match: Match, engine: Engine, kind: str, seat: int | None,
                       user: User | None, payload: dict[str, Any],
                       transition: Transition) -> Move:
    """The single write path: append the Move, save the snapshot, schedule what is due."""
    previous_actors = frozenset(match.actors)
    match.version += 1
    # The row lock and the version check make a duplicate seq impossible; the unique
    # constraint on (match, seq) is the last line of defence.
    move = Move.objects.create(match=match, seq=match.version, kind=kind, seat=seat, user=user,
                               payload=payload, events=list(transition.events))
    state = transition.state
    _snapshot(match, engine, state, previous_actors=previous_actors)
    fields = ["version", "state", "actors", "deadline", "updated_at"]
    outcome = engine.outcome(state)
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.outcome = outcome.as_dict()
        fields += ["status", "finished_at", "outcome"]
    match.save(update_fields=fields)
    # When the set of seats the match waits for grows, a new turn has begun for all of them
    # (in a simultaneous draft the last to place is among them again).
    newly_to_act = set(match.actors) if set(match.actors) - previous_actors else set()
    wake: set[str] = set()
    if outcome is not None:
        _record_results(match, outcome.ranks, outcome.scores)
        for seat in match_seats(match):
            if seat.user_id is not None and not seat.user.is_bot:
                notify(user_ids=[seat.user_id], type=UserEvent.Type.MATCH_FINISHED, match=match,
                       game=match.game, rank=seat.rank, reason=outcome.reason, wake=wake)
    else:
        _notify_turns(match, newly_to_act, wake)
    match_changed(match, wake)
    wake_after_commit(wake)
    _schedule_follow_ups(match, engine, state)
    return move


def _snapshot(match: Match, engine: Engine, state: Any, *, previous_actors: frozenset) -> None:
    match.state = engine.dump(state)
    actors = sorted(seats_to_act(engine, state))
    match.actors = actors
    if actors and is_realtime(engine, state):
        # Real time: the match ends as a stalemate once nobody has acted for a while.
        match.deadline = timezone.now() + timedelta(seconds=settings.REALTIME_IDLE_SECONDS)
    elif not actors or match.turn_seconds is None:
        match.deadline = None
    elif set(actors) - previous_actors or match.deadline is None:
        match.deadline = timezone.now() + timedelta(seconds=match.turn_seconds)


def _record_results(match: Match, ranks: tuple[int, ...],
                    scores: tuple[float, ...]) -> None:
    """Copy the final ranks and scores onto the seat rows."""
    seats = match_seats(match)
    for seat in seats:
        seat.rank = ranks[seat.index]
        seat.score = scores[seat.index]
    Seat.objects.bulk_update(seats, ["rank", "score"])


def _human_ids(match: Match) -> list[int]:
    return [seat.user_id for seat in match_seats(match)
            if seat.user_id is not None and not seat.user.is_bot]


def _notify_turns(match: Match, seats: set[int], wake: set[str] | None = None) -> None:
    """A "your turn" entry for each person among ``seats`` who is still in play."""
    for seat in match_seats(match):
        if seat.index in seats and seat.user_id is not None and not seat.user.is_bot \
                and seat.forfeited_at is None:
            notify(user_ids=[seat.user_id], type=UserEvent.Type.YOUR_TURN, match=match,
                   game=match.game, version=match.version, deadline=match.deadline, wake=wake)


def _schedule_follow_ups(match: Match, engine: Engine, state: Any, *,
                         started: bool = False) -> None:
    """After commit, enqueue what is now due: bot turns, a system step, the rating update.

    In a real-time match bots act on their own clock: each bot's first action is scheduled at
    the start and every action schedules the next (see ``match_bot_race_tick``)."""
    from games import tasks

    match_id, version = str(match.id), match.version
    if match.status == Match.Status.FINISHED:
        if match.rated:
            tasks.schedule_rating(match_id)
        return
    if not engine.actors(state):
        # No seat may act and the match is not over: the engine has automatic work due.
        transaction.on_commit(lambda: tasks.run_system_step.delay(match_id, version))
        return
    realtime = is_realtime(engine, state)
    actors = set(match.actors)
    for seat in match_seats(match):
        level = seat_bot_level(seat)
        if level is None:
            continue
        index = seat.index
        if realtime:
            if started:
                transaction.on_commit(lambda index=index, level=level: tasks.schedule_race_tick(
                    match_id, index, 0, level))
        elif index in actors:
            transaction.on_commit(
                lambda index=index: tasks.play_bot_turn.delay(match_id, version, index))
