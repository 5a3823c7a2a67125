"""Random plans for the plan tests: a line of replies built along a random playout, with the
other seat's other legal moves as sibling branches, and the moves played to build it."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings

from games.kit.plans import MAX_LINE_MOVES, plays_now, waited_for
from games.kit.protocol import JSON, AnyEngine, Seat, Transition, apply_checked, events_for
from games.nibble.engine import NibbleEngine
from games.nimble.engine import NIMBLE
from tests.fourth_game.nim.engine import NimEngine

KEYS = 6  # the other seat's moves along a built line, at most

# The games the property tests play plans in: Nibble, Nimble (two budgets), the test game Nim.
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NIBBLE = NibbleEngine()
CASES = [(NIBBLE, {}), (NIMBLE, {}), (NIMBLE, {"budget": 1}), (NimEngine(), {})]
IDS = ["nibble", "nimble", "nimble-budget-1", "nim"]


@dataclass
class Step:
    """One move of the other seat as it was played, and the planner's reply to it."""

    before: Any
    mover: Seat
    move: Any
    transition: Transition[Any]
    reply: list[JSON] = field(default_factory=list)


def _random_position(engine: AnyEngine, players: int, config: dict[str, Any], seed: str,
                     rng: random.Random, holds: Callable[[Any, Seat], bool],
                     ) -> tuple[Any, list[JSON], Seat] | None:
    """A position taken at random from a random playout among those where ``holds(state,
    seat)`` for some seat: the state, the whole event log up to it, and that seat; ``None`` if
    the playout met none."""
    state = engine.initial_state(num_players=players, config=config, seed=seed)
    log: list[JSON] = []
    found: list[tuple[Any, list[JSON], Seat]] = []
    for _ in range(rng.randrange(1, 80)):
        actors = sorted(engine.actors(state))
        if engine.outcome(state) is not None or not actors:
            break
        found.extend((state, list(log), seat) for seat in range(players) if holds(state, seat))
        seat = rng.choice(actors)
        transition = apply_checked(engine, state, seat,
                                   rng.choice(list(engine.legal_moves(state, seat))))
        state = transition.state
        log.extend(transition.events)
    return rng.choice(found[-12:]) if found else None


def waiting_position(engine: AnyEngine, *, players: int, config: dict[str, Any], seed: str,
                     rng: random.Random) -> tuple[Any, list[JSON], Seat] | None:
    """A random position where one seat waits for another, the log up to it and that seat."""
    return _random_position(engine, players, config, seed, rng,
                            lambda state, seat: waited_for(engine, state, seat) is not None)


def playing_position(engine: AnyEngine, *, players: int, config: dict[str, Any], seed: str,
                     rng: random.Random) -> tuple[Any, list[JSON], Seat] | None:
    """A random position where one seat alone is to act, the log up to it and that seat."""
    return _random_position(engine, players, config, seed, rng,
                            lambda state, seat: plays_now(engine, state, seat))


def built_line(engine: AnyEngine, state: Any, planner: Seat, rng: random.Random, *,
               siblings: bool = True, spent: int = 0) -> tuple[list[JSON], list[Step]]:
    """A plan (JSON) of one line played at random from ``state``, where ``planner`` waits,
    with the other seat's other legal moves beside it as leaves, and the steps played
    (``spent``: the moves of the line already used above it)."""
    plan: list[JSON] = []
    level = plan
    steps: list[Step] = []
    moves = spent
    while len(steps) < KEYS and moves < MAX_LINE_MOVES - 1:
        other = waited_for(engine, state, planner)
        if other is None or engine.outcome(state) is not None:
            break
        legal = list(engine.legal_moves(state, other))
        move = rng.choice(legal)
        transition = apply_checked(engine, state, other, move)
        step = Step(state, other, move, transition)
        branch: JSON = {"on": engine.plan_key(state, other, move, transition, planner),
                        "reply": step.reply, "then": []}
        if siblings:
            level.extend(_leaves(engine, state, other, planner, legal, move, rng))
        level.insert(rng.randrange(len(level) + 1), branch)
        steps.append(step)
        moves += 1
        state, revealed = transition.state, False
        while (planner in engine.actors(state) and engine.outcome(state) is None
               and moves < MAX_LINE_MOVES and not revealed):
            reply = rng.choice(list(engine.legal_moves(state, planner)))
            revealed = engine.move_reveals(state, planner, reply)
            state = apply_checked(engine, state, planner, reply).state
            step.reply.append(engine.dump_move(reply))
            moves += 1
        if revealed:
            break
        level = branch["then"]
    return plan, steps


def _leaves(engine: AnyEngine, state: Any, other: Seat, planner: Seat, legal: list[Any],
            chosen: Any, rng: random.Random) -> list[JSON]:
    """Up to two leaves for other legal moves of ``other`` (different keys from ``chosen``)."""
    chosen_key = engine.plan_key(state, other, chosen,
                                 apply_checked(engine, state, other, chosen), planner)
    found: list[JSON] = []
    for move in rng.sample(legal, min(len(legal), 3)):
        key = engine.plan_key(state, other, move, apply_checked(engine, state, other, move),
                              planner)
        if key != chosen_key and all(leaf["on"] != key for leaf in found):
            found.append({"on": key, "reply": [], "then": []})
    return found[:2]


def history_of(log: list[JSON], planner: Seat) -> list[JSON]:
    """What the planner was shown of the log."""
    return events_for(log, planner)


def built_opening(engine: AnyEngine, state: Any, planner: Seat, rng: random.Random, *,
                  siblings: bool = True) -> tuple[list[JSON], list[Any], list[Step]] | None:
    """A plan of openings (JSON) from ``state``, where ``planner`` plays: its own moves at
    random (none that reveals something) until it waits, then a line as ``built_line`` makes
    it; the planner's moves (engine moves) and the steps of the line. With ``siblings``, an
    opening of another first move with no branches beside it. ``None`` when a revealing move
    is all the planner may make."""
    mine: list[Any] = []
    sibling: list[JSON] = []
    while plays_now(engine, state, planner) and len(mine) < MAX_LINE_MOVES // 2:
        quiet = [move for move in engine.legal_moves(state, planner)
                 if not engine.move_reveals(state, planner, move)]
        if not quiet:
            return None
        move = rng.choice(quiet)
        if not mine and siblings:
            others = [m for m in quiet if engine.dump_move(m) != engine.dump_move(move)]
            if others:
                sibling = [{"mine": [engine.dump_move(rng.choice(others))], "then": []}]
        mine.append(move)
        state = apply_checked(engine, state, planner, move).state
    if not mine:
        return None
    then, steps = built_line(engine, state, planner, rng, siblings=siblings, spent=len(mine))
    opening: JSON = {"mine": [engine.dump_move(move) for move in mine], "then": then}
    plan = [opening, *sibling]
    rng.shuffle(plan)
    return plan, mine, steps
