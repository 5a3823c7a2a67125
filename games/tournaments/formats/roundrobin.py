"""Round robin: everyone meets everyone.

Two players a table: the circle method. One player stays put while the others turn around
them, so ``n`` players (one more, a bye, when ``n`` is odd) play ``n - 1`` rounds and every
pair meets once; the first seat alternates so nobody sits first more than once more than
second. Three or four a table: a fixed schedule of rounds of tables, built greedily so that
each table brings together as many pairs who have not met yet as it can, until every pair has
shared a table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from games.tournaments.formats.history import pair_key
from games.tournaments.formats.tables import Round, table_sizes

# The most players a round robin takes unless its creator says otherwise.
DEFAULT_MAX_PLAYERS = 10


def circle(players: Sequence[int]) -> list[Round]:
    """The rounds of a two-player round robin of ``players`` (in seeding order)."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[Round] = []
    for number in range(n - 1):
        tables: list[tuple[int, ...]] = []
        bye = None
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            # The fixed player alternates seats by round; among the others the one in the upper
            # half of the ring sits first (as the ring turns, each spends as long in either).
            first = number % 2 == 0 if i == 0 else True
            tables.append((a, b) if first else (b, a))
        rounds.append(Round(tables=tuple(tables), bye=bye))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def schedule(players: Sequence[int], size: int, *, seed: str) -> list[Round]:
    """The rounds of a round robin at tables of up to ``size`` (two: the circle method)."""
    if size == 2:
        return circle(players)
    if len(players) < 2:
        return []
    unmet = {pair_key(a, b) for a, b in combinations(players, 2)}
    rng = random.Random(f"{seed}:schedule")
    rounds: list[Round] = []
    while unmet:
        rounds.append(_covering_round(list(players), size, unmet, rng))
    return rounds


def _covering_round(players: list[int], size: int, unmet: set[frozenset[int]],
                    rng: random.Random) -> Round:
    """One round whose tables meet as many unmet pairs as a greedy choice finds (always at
    least one); the pairs it meets leave ``unmet``."""
    sizes = table_sizes(len(players), size)
    free = list(players)
    rng.shuffle(free)
    tables: list[tuple[int, ...]] = []
    for count in sizes:
        # Start from an unmet pair among the free players, else from anyone.
        start = next((sorted(pair) for pair in sorted(unmet, key=sorted)
                      if pair <= set(free)), [free[0]])
        table = list(start)
        for player in table:
            free.remove(player)
        while len(table) < count:
            best = max(free, key=lambda player: sum(pair_key(player, other) in unmet
                                                    for other in table))
            table.append(best)
            free.remove(best)
        tables.append(tuple(table))
    for seated in tables:
        for a, b in combinations(seated, 2):
            unmet.discard(pair_key(a, b))
    bye = free[0] if free else None
    return Round(tables=tuple(tables), bye=bye)
