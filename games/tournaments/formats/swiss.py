"""Swiss pairing: a set number of rounds, each pairing players of close scores.

Two players a table: a maximum-weight matching (networkx's blossom algorithm) over the players
still in, with one extra vertex for the bye when their number is odd. Each edge's cost ranks,
from most to least important: a second bye, a forbidden pair, a repeat pairing, the bye going
to anyone but the lowest-ranked player without one, the difference of the two scores, a pair
that both want the same seat, and the distance from the Dutch system's ideal partner (the top
half of a score group against the bottom half). The costs are whole numbers weighted so that
each level outweighs every level below it together, so the matching with the least cost is
the best pairing in that order. The first seat then goes to whoever has had it less often.

Three or four players a table: the field in standing order is cut into tables as even as the
size allows, leaders together, then players are swapped between neighbouring tables while a
swap lowers the forbidden pairs and repeat meetings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import networkx as nx

from games.tournaments.formats.history import History, forbidden_count, pair_key
from games.tournaments.formats.records import Table, scores
from games.tournaments.formats.tables import Round, table_sizes

BYE = -1
# Fields up to this size are paired in one matching over every possible pair. A larger field
# is cut, in standing order, into blocks of this many players (the last one takes the rest),
# each paired that way: the pairs the matching would make are between close places anyway,
# and the matching's time grows with the cube of the field.
BLOCK = 64


def standing_order(players: Sequence[int], points: dict[int, float]) -> list[int]:
    """``players`` (given in seeding order) by points, then seeding."""
    seeding = {player: index for index, player in enumerate(players)}
    return sorted(players, key=lambda player: (-points[player], seeding[player]))


def pair_two(players: Sequence[int], tables: Sequence[Table], *, round: int, seed: str,
             forbidden: frozenset[frozenset[int]] = frozenset()) -> Round:
    """Pair ``players`` (those still in, in seeding order) for ``round`` of a two-player
    Swiss whose finished tables are ``tables``; ``forbidden``: pairs kept apart where the field
    allows."""
    history = History.of(tables)
    points = scores(players, tables)
    order = standing_order(players, points)
    if len(order) < 2:
        return Round(tables=(), bye=order[0] if order else None)
    matching: list[tuple[int, int]] = []
    for block in _blocks(order):
        matching.extend(_best_matching(block, _Costs(block, points, history, forbidden)))
    pairs: list[tuple[int, ...]] = []
    bye = None
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairs.append(_seated(a, b, history, order, seed, round))
    rank = {player: index for index, player in enumerate(order)}
    pairs.sort(key=lambda pair: min(rank[player] for player in pair))
    return Round(tables=tuple(pairs), bye=bye)


class _Costs:
    """The cost of each edge, level by level (see the module's docstring)."""

    def __init__(self, order: list[int], points: dict[int, float], history: History,
                 forbidden: frozenset[frozenset[int]]) -> None:
        self.order, self.points, self.history, self.forbidden = order, points, history, forbidden
        self.rank = {player: index for index, player in enumerate(order)}
        # Each score group's size, and each player's place in their group.
        self.group_size: dict[float, int] = {}
        self.place: dict[int, int] = {}
        for player in order:
            self.place[player] = self.group_size.get(points[player], 0)
            self.group_size[points[player]] = self.place[player] + 1
        n, half = len(order), len(order) // 2 + 1
        spread = int(round(2 * (max(points.values()) - min(points.values())))) if points else 0
        most_met = max(history.met.values(), default=0)
        # The largest total each level can reach over a whole matching, lowest level first:
        # fold, seat, score, bye rank, repeat, forbidden. A level's weight is the product of
        # (total + 1) over every level below it; a second bye outweighs them all.
        maxima = [half * (n + 1), half, half * spread * spread, n, half * most_met, half]
        self.weight: list[int] = []
        weight = 1
        for maximum in maxima:
            self.weight.append(weight)
            weight *= maximum + 1
        self.weight.append(weight)

    def pair(self, a: int, b: int) -> int:
        key = pair_key(a, b)
        forbidden = 1 if key in self.forbidden else 0
        repeats = self.history.met[key]
        diff = int(round(2 * abs(self.points[a] - self.points[b])))
        same_seat = 1 if self._wants(a) * self._wants(b) > 0 else 0
        w = self.weight
        return (forbidden * w[5] + repeats * w[4] + diff * diff * w[2] + same_seat * w[1]
                + self._fold(a, b) * w[0])

    def bye(self, player: int) -> int:
        again = 1 if player in self.history.byes else 0
        # The bye goes to the lowest-ranked player without one: cost by places from the bottom.
        from_bottom = len(self.order) - 1 - self.rank[player]
        return again * self.weight[6] + from_bottom * self.weight[3]

    def _wants(self, player: int) -> int:
        """+1 wants the first seat, -1 the other, 0 either."""
        balance = self.history.balance[player]
        return -1 if balance > 0 else 1 if balance < 0 else 0

    def _fold(self, a: int, b: int) -> int:
        if self.points[a] != self.points[b]:
            return 0
        ideal = self.group_size[self.points[a]] // 2
        return abs(abs(self.place[a] - self.place[b]) - ideal)


def _blocks(order: list[int]) -> list[list[int]]:
    """The field cut into blocks of ``BLOCK`` players, the last one taking the rest."""
    count = max(1, len(order) // BLOCK)
    cuts = [index * BLOCK for index in range(count)] + [len(order)]
    return [order[cuts[index]:cuts[index + 1]] for index in range(count)]


def _best_matching(order: list[int], costs: _Costs) -> list[tuple[int, int]]:
    """The matching of least total cost among those that seat everyone (the bye vertex too,
    when the number is odd)."""
    edges = [(a, b, costs.pair(a, b)) for i, a in enumerate(order) for b in order[i + 1:]]
    if len(order) % 2:
        edges.extend((player, BYE, costs.bye(player)) for player in order)
    top = max(cost for _, _, cost in edges) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((a, b, top - cost) for a, b, cost in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(pair), max(pair)) for pair in matching)


def _seated(a: int, b: int, history: History, order: list[int], seed: str,
            round: int) -> tuple[int, int]:
    """The pair in seat order: the first seat to whoever has sat first less often, then to
    whoever sat second last time, then by lot."""
    balance_a, balance_b = history.balance[a], history.balance[b]
    if balance_a != balance_b:
        return (a, b) if balance_a < balance_b else (b, a)
    last_a, last_b = history.last_seat.get(a), history.last_seat.get(b)
    if last_a is not None and last_b is not None and last_a != last_b:
        return (a, b) if last_a == 1 else (b, a)
    lot = random.Random(f"{seed}:{round}:{min(a, b)}:{max(a, b)}").random() < 0.5
    return (a, b) if lot else (b, a)


def pair_tables(players: Sequence[int], tables: Sequence[Table], *, round: int, size: int,
                seed: str, forbidden: frozenset[frozenset[int]] = frozenset(),
                smallest: int = 2) -> Round:
    """Seat ``players`` (those still in, in seeding order) at tables of up to ``size`` for
    ``round`` of a multiplayer Swiss: players of close scores together, as few repeat meetings
    and forbidden pairs as neighbouring swaps find. A player left over has a bye."""
    history = History.of(tables)
    order = standing_order(players, scores(players, tables))
    sizes = table_sizes(len(order), size, smallest)
    bye = None
    if sum(sizes) < len(order):
        without = [player for player in reversed(order) if player not in history.byes]
        bye = (without or list(reversed(order)))[0]
        order.remove(bye)
    seated: list[list[int]] = []
    start = 0
    for count in sizes:
        seated.append(order[start:start + count])
        start += count
    _improve(seated, history, forbidden)
    rng = random.Random(f"{seed}:{round}")
    return Round(tables=tuple(_seat_order(table, history, rng) for table in seated), bye=bye)


def _clash(table: list[int], history: History, forbidden: frozenset[frozenset[int]]) -> int:
    return forbidden_count(table, forbidden) * (len(table) ** 2 + 1) + history.repeats(table)


def _improve(seated: list[list[int]], history: History,
             forbidden: frozenset[frozenset[int]]) -> None:
    """Swap players between neighbouring tables while a swap lowers their clashes."""
    for _ in range(4 * len(seated) + 4):
        changed = False
        for index in range(len(seated) - 1):
            upper, lower = seated[index], seated[index + 1]
            before = _clash(upper, history, forbidden) + _clash(lower, history, forbidden)
            best: tuple[int, int, int] | None = None
            for i in range(len(upper)):
                for j in range(len(lower)):
                    upper[i], lower[j] = lower[j], upper[i]
                    after = _clash(upper, history, forbidden) + _clash(lower, history, forbidden)
                    upper[i], lower[j] = lower[j], upper[i]
                    if after < before and (best is None or after < best[0]):
                        best = (after, i, j)
            if best is not None:
                _, i, j = best
                upper[i], lower[j] = lower[j], upper[i]
                changed = True
        if not changed:
            return


def _seat_order(table: list[int], history: History, rng: random.Random) -> tuple[int, ...]:
    """The table in seat order: fewest first seats first, ties by lot."""
    lots = {player: rng.random() for player in sorted(table)}
    return tuple(sorted(table, key=lambda player: (history.balance[player], lots[player])))
