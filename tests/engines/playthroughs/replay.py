"""The golden playthrough format, and the one way a recorded step is applied.

A file is one match of one game::

    {
      "game": "nimble",                      engine slug
      "about": "...",                        what the match shows, one sentence
      "players": 3, "seed": "...", "config": {...},   the initial_state arguments
      "initial": {...},                      engine.dump of the initial state
      "steps": [...],                        one entry per step, in order (below)
      "outcome": {...},                      Outcome.as_dict() of the final state
      "final_state": {...},                  engine.dump of the final state
      "final_views": {"spectator": {...}, "seats": [{...}, ...]}
    }

A step is a move, a forfeit or a system step::

    {"seat": 0, "move": {...}, "digest": "..."}      apply_checked(engine, state, seat, move)
    {"forfeit": 2, "digest": "..."}                    engine.forfeit(state, seat)
    {"system": true, "digest": "..."}                  engine.system_step(state)

A move step is recorded only when no system step is due, and a system step exactly when one is
(the server runs system steps as soon as they are due). ``digest`` is a hash of the step's events
and of ``engine.dump`` of the state after it (:func:`digest`), so every step is checked exactly
without storing every state. Some steps also carry ``"events"`` (the step's events, every seat's
private ones included) and ``"views"`` (every viewer's view after the step) in full, for a reader
and for a precise failure message.

Views are stored as the spectator's view plus, per seat, only the keys whose values differ from
it (``you``, ``legal_moves``, a hand); :func:`decode_views` rebuilds them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.kit.protocol import JSON, Engine, State, Transition, apply_checked

HERE = Path(__file__).parent
REGENERATE = (
    "If the engine change is intended, regenerate the files with "
    "`.venv/bin/python -m tests.engines.playthroughs.make` (add --keep-moves to keep the "
    "recorded moves and refresh only what they lead to) and review the diff."
)


def files(game: str | None = None) -> list[Path]:
    """Every playthrough file, or those of one game, sorted."""
    pattern = f"{game}/*.json" if game else "*/*.json"
    return sorted(HERE.glob(pattern))


def canonical(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists, int keys strings)."""
    return json.loads(json.dumps(value))


def digest(events: Sequence[JSON], state: JSON) -> str:
    """A short hash of a step's events and of the dumped state after it."""
    text = json.dumps({"events": events, "state": state}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def all_views(engine: Engine, state: State, players: int) -> list[JSON]:
    """Every seat's view, then the spectator's."""
    return [canonical(engine.view(state, seat)) for seat in [*range(players), None]]


def encode_views(views: Sequence[JSON]) -> JSON:
    """Views as from :func:`all_views`, stored as the spectator's view and per-seat changes."""
    *seats, spectator = views
    deltas = []
    for seat, view in enumerate(seats):
        missing = sorted(set(spectator) - set(view))
        if missing:
            raise ValueError(f"Seat {seat}'s view lacks the spectator's keys {missing}; the "
                             "playthrough format cannot store that.")
        deltas.append({key: value for key, value in view.items()
                       if key not in spectator or spectator[key] != value})
    return {"spectator": spectator, "seats": deltas}


def decode_views(data: Mapping[str, Any]) -> list[JSON]:
    spectator = data["spectator"]
    return [{**spectator, **delta} for delta in data["seats"]] + [spectator]


def step_kind(step: Mapping[str, Any]) -> str:
    if "system" in step:
        return "system"
    if "forfeit" in step:
        return "forfeit"
    return "move"


def apply_step(engine: Engine, state: State, step: Mapping[str, Any]) -> Transition:
    """Apply one recorded step. Raises ``AssertionError`` when the step cannot be what the
    engine does now: a system step that is not due, a move while one is due, a move that
    does not read back as it was written."""
    due = engine.system_step(state)
    kind = step_kind(step)
    if kind == "system":
        assert due is not None, "a system step is recorded here but none is due"
        return due
    assert due is None, f"a system step is due but the recorded step is a {kind}"
    if kind == "forfeit":
        return engine.forfeit(state, step["forfeit"])
    move = engine.parse_move(step["move"])
    assert canonical(engine.dump_move(move)) == step["move"], (
        f"the move {step['move']} reads back as {engine.dump_move(move)}")
    return apply_checked(engine, state, step["seat"], move)


def describe(step: Mapping[str, Any]) -> str:
    kind = step_kind(step)
    if kind == "system":
        return "system step"
    if kind == "forfeit":
        return f"seat {step['forfeit']} forfeits"
    return f"seat {step['seat']} plays {json.dumps(step['move'])}"
