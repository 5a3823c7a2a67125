"""Golden playthroughs: every recorded match of every game, replayed step by step.

The files under ``tests/engines/playthroughs/<game>/`` (format:
:mod:`tests.engines.playthroughs.replay`) hold seeded matches with their initial state, every
step (move, forfeit or system step) with a digest of its events and of the state after it, some
steps' events and views in full, and the final state, outcome and views. A replay must match
exactly, so any change in what an engine does, shows or stores fails here, at the first step that
differs. When the change is intended, regenerate the files (``python -m
tests.engines.playthroughs.make``) and review the diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games.catalog import engines, get_engine
from tests.engines.playthroughs.replay import (
    REGENERATE,
    all_views,
    apply_step,
    canonical,
    decode_views,
    describe,
    digest,
    files,
    step_kind,
)

FILES = files()


def _differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where two JSON values differ (the first few places), for failure messages."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in actual:
                found.append(f"{where}.{key}: missing now")
            elif key not in expected:
                found.append(f"{where}.{key}: new, {json.dumps(actual[key])[:200]}")
            else:
                found.extend(_differences(expected[key], actual[key], f"{where}.{key}"))
        return found[:10]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        found = []
        for index, (old, new) in enumerate(zip(expected, actual, strict=True)):
            found.extend(_differences(old, new, f"{where}[{index}]"))
        return found[:10]
    if expected == actual:
        return []
    return [f"{where or 'value'}: was {json.dumps(expected)[:200]}, now {json.dumps(actual)[:200]}"]


def _check_views(expected: dict[str, Any], actual: list[dict[str, Any]], what: str) -> None:
    for viewer, (old, new) in enumerate(zip(decode_views(expected), actual, strict=True)):
        name = "the spectator" if viewer == len(actual) - 1 else f"seat {viewer}"
        assert new == old, (f"{what}: the view of {name} changed: "
                            f"{_differences(old, new)}\n{REGENERATE}")


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_playthrough(path: Path) -> None:
    doc = json.loads(path.read_text())
    assert doc["game"] == path.parent.name
    engine = get_engine(doc["game"])
    players = doc["players"]
    state = engine.initial_state(num_players=players, config=doc["config"], seed=doc["seed"])
    dumped = canonical(engine.dump(state))
    assert dumped == doc["initial"], (
        f"{path.name}: the initial state changed: {_differences(doc['initial'], dumped)}\n"
        f"{REGENERATE}")

    for index, step in enumerate(doc["steps"]):
        what = f"{path.name}, step {index} ({describe(step)})"
        assert engine.outcome(state) is None, f"{what}: the match was already over\n{REGENERATE}"
        try:
            transition = apply_step(engine, state, step)
        except Exception as error:  # an engine error or a step that no longer fits
            message = f"{what}: {type(error).__name__}: {error}\n{REGENERATE}"
            raise AssertionError(message) from error
        state = transition.state
        events = canonical(list(transition.events))
        dumped = canonical(engine.dump(state))
        if "events" in step:
            assert events == step["events"], (
                f"{what}: the events changed: {_differences(step['events'], events)}\n"
                f"{REGENERATE}")
        assert digest(events, dumped) == step["digest"], (
            f"{what}: the events or the state after the step changed.\nEvents now: "
            f"{json.dumps(events)[:2000]}\nState now: {json.dumps(dumped)[:2000]}\n{REGENERATE}")
        if "views" in step:
            _check_views(step["views"], all_views(engine, state, players), what)

    outcome = engine.outcome(state)
    assert outcome is not None, f"{path.name}: the match is not over after the last step"
    assert canonical(outcome.as_dict()) == doc["outcome"], (
        f"{path.name}: the outcome changed: {outcome.as_dict()}\n{REGENERATE}")
    assert dumped == doc["final_state"], (
        f"{path.name}: the final state changed: {_differences(doc['final_state'], dumped)}\n"
        f"{REGENERATE}")
    assert canonical(engine.dump(engine.load(doc["final_state"]))) == doc["final_state"]
    _check_views(doc["final_views"], all_views(engine, state, players),
                 f"{path.name}, the end")


# --------------------------------------------------------------------------- what the files show

Docs = list[dict[str, Any]]


def _reasons(docs: Docs) -> set[str]:
    return {doc["outcome"]["reason"] for doc in docs}


def _players(docs: Docs) -> set[int]:
    return {doc["players"] for doc in docs}


def _steps(docs: Docs, kind: str) -> list[dict[str, Any]]:
    return [step for doc in docs for step in doc["steps"] if step_kind(step) == kind]


def _moves(docs: Docs) -> list[dict[str, Any]]:
    return [step["move"] for step in _steps(docs, "move")]


# Per game, what the set of files must keep showing, so that a regeneration cannot quietly
# drop a case.
COVERAGE: dict[str, dict[str, Callable[[Docs], bool]]] = {
    "nibble": {
        "every way to win": lambda docs: _reasons(docs) == {
            "majority_of_majorities", "nine_of_a_colour", "three_adjacent_sevens", "decided"},
    },
    "nimble": {
        "2, 3 and 4 players": lambda docs: _players(docs) == {2, 3, 4},
        "turn and race mode": lambda docs: {d["initial"]["mode"] for d in docs} == {"turns",
                                                                                   "race"},
        "a finish, a deadlock and a stalemate": lambda docs: {
            "finished", "deadlock", "stalemate"} <= _reasons(docs),
        "a forfeit in a match that goes on": lambda docs: any(
            step_kind(step) == "forfeit" and not any(
                e["type"] == "match_ended" for e in step["events"])
            for doc in docs for step in doc["steps"]),
        "every kind of move": lambda docs: {m["action"] for m in _moves(docs)} == {
            "flip", "place", "return", "recycle", "end_turn"},
    },
    "nimalia": {
        "1, 2, 3 and 4 players": lambda docs: _players(docs) == {1, 2, 3, 4},
        "4 and 5 rounds": lambda docs: {d["initial"]["rounds"] for d in docs} == {4, 5},
        "a system step to score every round": lambda docs: all(
            sum(step_kind(step) == "system" for step in doc["steps"]) == doc["initial"]["rounds"]
            for doc in docs),
        "take-backs": lambda docs: sum(move == {"undo": True} for move in _moves(docs)) >= 2,
        "a forfeit": lambda docs: bool(_steps(docs, "forfeit")),
        "both tie-breaks": lambda docs: {d["initial"]["tie_break"] for d in docs} == {
            "most_of_one_species", "fewest_covered_squares"},
    },
}


@pytest.mark.parametrize(("game", "feature"),
                         [(g, f) for g, features in COVERAGE.items() for f in features])
def test_playthroughs_cover(game: str, feature: str) -> None:
    docs = [json.loads(path.read_text()) for path in files(game)]
    assert 3 <= len(docs) <= 6, f"{game}: {len(docs)} playthrough files"
    assert COVERAGE[game][feature](docs), f"The {game} playthroughs no longer show {feature}."


def test_every_game_has_playthroughs() -> None:
    """Every registered game, and only those, has playthroughs and says what they must show."""
    assert {path.parent.name for path in FILES} == set(COVERAGE) == set(engines())
