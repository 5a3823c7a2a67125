"""The move log's encoding: what each entry of a match's log says, written and read here alone.

A match's log (``Move`` rows, seq 1 to the match's version) is the source of truth; the match row
is a snapshot of it. Entries are of three kinds:

- a seat's move (``move``): the game's move as the engine dumps it; the row's ``by_plan``
  marks one the seat's plan played (``games.services.plan_replies``), replayed like any other;
- a forfeit (``forfeit``): the seat that left, with ``{"reason": ...}`` (``RESIGNED``,
  ``TIMEOUT``, ``BANNED``, ``DISQUALIFIED``), and ``"unrated": true`` on a timeout that made
  the match unrated (the player was already in a run of timeouts, ``TIMEOUT_RUN``);
- a system entry (``system``), written by the server: the engine's automatic step (payload
  ``{}``), the stall guard of a real-time match (``IDLE``: ends it as a stalemate), a result
  declared by staff or a tournament (``ADJUDICATED``, ``SETTLED``: the game state stays; the
  entry's one event is the ``match_ended`` that declares the outcome), or a seat's clock
  stopped or restarted for its player's vacation (``VACATION``: ``{"reason": "vacation",
  "seat": i, "away": true|false}``; only the clocks change, the game state stays and the entry
  has no event).

The recording path (``games.services._recording``) writes entries through ``system_payload``,
``forfeit_payload``, ``vacation_payload`` and ``declared_events``; the reads (the board picture
of a past position, the replay check) replay them through ``state_at``.
"""

from __future__ import annotations

from typing import Any

from games.kit.protocol import Engine, EngineError, Outcome, State, apply_checked
from games.models import Match, Move

# System entries: a real-time match nobody touched for a while ends as a stalemate.
IDLE = "idle"
# System entries and outcomes: a result declared by staff (games.services.moderation), or by
# a tournament for a match whose players had all withdrawn from it (SETTLED).
ADJUDICATED = "adjudicated"
SETTLED = "settled"
DECLARED = frozenset({ADJUDICATED, SETTLED})
# System entries: a seat's clock stopped for its player's vacation, or restarted on their
# return (games.services.away); the game state stays.
VACATION = "vacation"
# Forfeits: the player gave up, let the deadline pass, was banned, or was disqualified from
# the tournament the match belongs to.
RESIGNED = "resigned"
TIMEOUT = "timeout"
BANNED = "banned"
DISQUALIFIED = "disqualified"
# Why a match created rated ends unrated (``Match.unrated_reason``): a player timed out of it
# while in a run of timeouts without a move anywhere since the first (only that one is rated).
TIMEOUT_RUN = "timeout_run"
# Outcomes of a match called off: by a player or staff, or at a deadline before any move
# (``TIMEOUT``).
ABORTED = "aborted"

# The one event of a declared result's entry.
MATCH_ENDED = "match_ended"


class ReplayBroken(RuntimeError):
    """The move log does not replay through the rules: a server bug, never the caller's."""


def system_payload(reason: str | None = None) -> dict[str, Any]:
    """The payload of a system entry: ``{}`` for the engine's automatic step, else the
    ``reason`` (``IDLE`` or ``ADJUDICATED``)."""
    return {} if reason is None else {"reason": reason}


def vacation_payload(seat: int, *, away: bool) -> dict[str, Any]:
    """The payload of a clock-only system entry: seat ``seat``'s clock stopped for its
    player's vacation (``away``) or restarted on their return."""
    return {"reason": VACATION, "seat": seat, "away": away}


def forfeit_payload(reason: str, *, unrated: bool = False) -> dict[str, Any]:
    """The payload of a forfeit: why the seat left, and whether the forfeit made the match
    unrated (a timeout in a run, ``TIMEOUT_RUN``)."""
    return {"reason": reason, "unrated": True} if unrated else {"reason": reason}


def entry_reason(move: Move) -> str | None:
    """The reason a system entry or a forfeit gives; None for the engine's step or a move."""
    payload = move.payload if isinstance(move.payload, dict) else {}
    reason = payload.get("reason")
    return reason if isinstance(reason, str) else None


def declared_events(outcome: Outcome) -> list[dict[str, Any]]:
    """The events of a declared result's system entry: the one ``match_ended``."""
    return [{"type": MATCH_ENDED, **outcome.as_dict()}]


def declared_outcome(move: Move | None) -> dict[str, Any] | None:
    """The outcome a declared result's entry states (its ``match_ended`` without the type),
    or None when ``move`` is no such entry."""
    if move is None or move.kind != Move.Kind.SYSTEM or entry_reason(move) not in DECLARED:
        return None
    if not move.events:
        return None
    return {key: value for key, value in move.events[0].items() if key != "type"}


def state_at(match: Match, engine: Engine, seq: int) -> State:
    """The state after move ``seq``: the match's first state from its seed, then the log's
    moves, system steps and forfeits up to ``seq`` through the engine, as they were recorded."""
    if not 0 <= seq <= match.version:
        raise ValueError(f"Match {match.id} has positions 0 to {match.version}, not {seq}.")
    state = engine.initial_state(num_players=match.num_players, config=match.config,
                                 seed=match.seed)
    moves = (Move.objects.filter(match=match, seq__lte=seq).order_by("seq")
             .only("seq", "kind", "seat", "payload"))
    for move in moves:
        try:
            state = replayed(engine, state, move)
        except (EngineError, ValueError, KeyError, TypeError) as exc:
            raise ReplayBroken(f"Move {move.seq} of match {match.id} does not replay: "
                               f"{exc}") from exc
    return state


def replayed(engine: Engine, state: State, move: Move) -> State:
    """The state after one log entry, from the state before it."""
    if move.kind == Move.Kind.SYSTEM:
        return _system_replayed(engine, state, entry_reason(move))
    if move.kind not in (Move.Kind.MOVE, Move.Kind.FORFEIT):
        raise ValueError(f"unknown move kind {move.kind!r}")
    seat = move.seat
    if seat is None:
        raise ValueError(f"a {move.kind} without a seat")
    if move.kind == Move.Kind.MOVE:
        return apply_checked(engine, state, seat, engine.parse_move(move.payload)).state
    return engine.forfeit(state, seat).state


def _system_replayed(engine: Engine, state: State, reason: str | None) -> State:
    if reason == IDLE:
        return engine.end_stalemate(state).state  # type: ignore[attr-defined]
    if reason in DECLARED or reason == VACATION:
        return state
    transition = engine.system_step(state)
    if transition is None:
        raise ValueError("a system step was recorded where none was due")
    return transition.state
