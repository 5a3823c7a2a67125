"""What a tournament remembers of each finished table, and what a placing is worth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# Points per placing when the tournament sets none: a win for two players; BGA's spread for
# larger tables.
DEFAULT_PLACING_POINTS: dict[int, tuple[float, ...]] = {
    2: (1.0, 0.0),
    3: (4.0, 2.0, 0.0),
    4: (6.0, 4.0, 2.0, 0.0),
}


@dataclass(frozen=True)
class Table:
    """One finished table of a round (or a bye): the players in seat order, each one's rank
    at the table (0 is first; equal ranks are a tie) and the tournament points each earned.
    A bye has one player and no opponent."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    points: tuple[float, ...]
    bye: bool = False

    def opponents(self, player: int) -> tuple[int, ...]:
        return tuple(other for other in self.players if other != player)

    def points_of(self, player: int) -> float:
        return self.points[self.players.index(player)]

    def against(self, player: int, other: int) -> float:
        """``player``'s result against ``other`` at this table: 1 placed above, 0.5 level,
        0 below."""
        mine = self.ranks[self.players.index(player)]
        theirs = self.ranks[self.players.index(other)]
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def placing_points(ranks: Sequence[int], placing: Sequence[float]) -> tuple[float, ...]:
    """The points each seat earns for its rank (0 first; equal ranks tie). ``placing`` is the
    points of each place at a full table; a smaller table gives its last place the last value.
    Tied seats share the points of the places they fill, evenly."""
    size = len(ranks)
    values = list(placing[:size - 1]) + [placing[-1]] if size < len(placing) else list(placing)
    order = sorted(range(size), key=lambda seat: ranks[seat])
    points = [0.0] * size
    place = 0
    while place < size:
        level = ranks[order[place]]
        tied = [seat for seat in order[place:] if ranks[seat] == level]
        share = sum(values[place:place + len(tied)]) / len(tied)
        for seat in tied:
            points[seat] = share
        place += len(tied)
    return tuple(points)


def finished_table(round: int, players: Sequence[int], ranks: Sequence[int],
                   placing: Sequence[float]) -> Table:
    """The record of a table that played out with these ranks."""
    return Table(round=round, players=tuple(players), ranks=tuple(ranks),
                 points=placing_points(ranks, placing))


def bye(round: int, player: int, points: float) -> Table:
    """A bye worth ``points`` (a full bye: a win's worth; a late entrant's: half of it)."""
    return Table(round=round, players=(player,), ranks=(0,), points=(points,), bye=True)


def scores(players: Sequence[int], tables: Sequence[Table]) -> dict[int, float]:
    """Each player's points so far."""
    total = dict.fromkeys(players, 0.0)
    for table in tables:
        for player, points in zip(table.players, table.points, strict=True):
            if player in total:
                total[player] += points
    return total
