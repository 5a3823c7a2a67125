"""Checking stored matches against their move logs: every match's log, replayed through the
engine from the match's seed, must give the stored state, version, seats to act and outcome.

The log is the source of truth and the match row a snapshot of it, so a mismatch means a lost
or damaged row (a partial restore, a hand edit in SQL, a bug in a recording path). The
``replay_check`` management command runs this over a whole database, for example right after a
backup is restored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from games.catalog import engines
from games.models import Match, Move
from games.movelog import DECLARED, ReplayBroken, declared_outcome, state_at


@dataclass(frozen=True)
class ReplayProblem:
    match_id: str
    game: str
    problem: str


def _plain(data: Any) -> Any:
    """JSON as stored (tuples become lists, keys strings), to compare a dump with a row."""
    return json.loads(json.dumps(data, sort_keys=True))


def match_replay_problem(match: Match) -> str | None:
    """What is wrong with ``match`` against its log, or None when the replay agrees."""
    seqs = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    if seqs != list(range(1, match.version + 1)):
        return f"the log holds seqs {_span(seqs)}, the match is at version {match.version}"
    if match.state is None:
        return None if match.version == 0 else "no state, but moves were recorded"
    engine = engines().get(match.game)
    if engine is None:
        return f"unknown game {match.game!r}"
    try:
        state = state_at(match, engine, match.version)
    except ReplayBroken as exc:
        return str(exc)
    if _plain(engine.dump(state)) != _plain(match.state):
        return "the replayed state differs from the stored one"
    if match.status == Match.Status.ACTIVE:
        if sorted(engine.must_act(state)) != sorted(match.actors):
            return (f"the replay waits for seats {sorted(engine.must_act(state))}, the match for "
                    f"{sorted(match.actors)}")
        if engine.outcome(state) is not None:
            return "the replay is over, the match still active"
    elif match.status == Match.Status.FINISHED:
        stored = match.outcome or {}
        if stored.get("reason") in DECLARED:
            last = Move.objects.filter(match=match, seq=match.version).first()
            if declared_outcome(last) != _plain(stored):
                return "the adjudicated outcome differs from the log's declaration"
        else:
            outcome = engine.outcome(state)
            if outcome is None:
                return "the match is finished, the replay is not"
            if _plain(outcome.as_dict()) != _plain(stored):
                return "the replayed outcome differs from the stored one"
    return None


def _span(seqs: list[int]) -> str:
    if not seqs:
        return "none"
    return f"{seqs[0]}..{seqs[-1]} ({len(seqs)} entries)"


def replay_problems(*, game: str | None = None,
                    match_ids: list[str] | None = None) -> Iterator[tuple[Match, str | None]]:
    """Each match (of ``game``, or the given ids), oldest first, with its problem or None."""
    matches = Match.objects.order_by("created_at", "id")
    if game is not None:
        matches = matches.filter(game=game)
    if match_ids is not None:
        matches = matches.filter(id__in=match_ids)
    for match in matches.iterator(chunk_size=200):
        yield match, match_replay_problem(match)
