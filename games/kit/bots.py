"""What every bot policy is: a pure function from what a seat may see to a move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeGuard, TypeVar

from games.kit.learn import gettext_noop

# policy(view, seat, rng) -> move, where ``view`` is exactly ``engine.view(state, seat)`` (the
# bot never sees hidden cards or the seed) and the move is the game's JSON move.
Policy = Callable[[dict[str, Any], int, random.Random], dict[str, Any]]

# A policy that remembers what its seat has seen is marked with :func:`remembers` and is then
# called as ``policy(view, seat, rng, history=events)``: every event of the match so far that
# the seat was shown (``games.kit.protocol.events_for``), oldest first. That is what a person at
# the table could remember, and no more.
_HISTORY_ATTRIBUTE = "uses_history"


class HistoryPolicy(Protocol):
    """A policy that is also given the events its seat was shown. It is still a
    :data:`Policy`: called without them, it plays as one that remembers nothing."""

    def __call__(self, view: dict[str, Any], seat: int, rng: random.Random, *,
                 history: Sequence[dict[str, Any]] = ()) -> dict[str, Any]: ...


RememberingT = TypeVar("RememberingT", bound=HistoryPolicy)


def remembers(policy: RememberingT) -> RememberingT:
    """Mark ``policy`` as one to call with its seat's history."""
    setattr(policy, _HISTORY_ATTRIBUTE, True)
    return policy


def uses_history(policy: Policy) -> TypeGuard[HistoryPolicy]:
    """Whether ``policy`` is to be called with its seat's history."""
    return bool(getattr(policy, _HISTORY_ATTRIBUTE, False))


DESCRIPTIONS: dict[int, str] = {
    1: gettext_noop("Plays uniformly at random among the legal moves."),
    2: gettext_noop("Greedy: picks the move a casual player would find best right now."),
    3: gettext_noop("Searches ahead under a fixed budget (at most two seconds a move)."),
    4: gettext_noop("Searches much deeper under a bigger fixed budget (at most 3 s a move), "
                    "for strong players."),
}

# Real-time matches (a Nimble race): seconds a bot waits before each action, by level. Slow
# enough that a person can beat levels 1 and 2 to the stacks.
REACTION_SECONDS: dict[int, float] = {1: 3.0, 2: 2.0, 3: 1.2, 4: 1.0}

# Levels whose moves may think for seconds: their moves go to a queue of their own (see
# ``games.services.scheduling``), so they never hold up a quick bot or a round's scoring.
DEEP_LEVELS = frozenset({4})
