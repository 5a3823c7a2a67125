"""What pairing needs to know of the tables already played: who met whom, who had a bye,
and how often each player sat first."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.tournaments.formats.records import Table


def pair_key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


@dataclass
class History:
    """Meetings, byes and seats of the tables played so far."""

    met: Counter[frozenset[int]] = field(default_factory=Counter)
    byes: set[int] = field(default_factory=set)
    # First seats minus other seats, and the seat (0 first, 1 not) of each one's last table.
    balance: Counter[int] = field(default_factory=Counter)
    last_seat: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, tables: Iterable[Table]) -> History:
        history = cls()
        for table in sorted(tables, key=lambda table: table.round):
            if table.bye:
                history.byes.update(table.players)
                continue
            for index, player in enumerate(table.players):
                for other in table.players[index + 1:]:
                    history.met[pair_key(player, other)] += 1
                history.balance[player] += 1 if index == 0 else -1
                history.last_seat[player] = 0 if index == 0 else 1
        return history

    def repeats(self, players: Sequence[int]) -> int:
        """How many pairs of ``players`` have met before."""
        return sum(1 for index, player in enumerate(players) for other in players[index + 1:]
                   if self.met[pair_key(player, other)])


def forbidden_count(players: Sequence[int], forbidden: frozenset[frozenset[int]]) -> int:
    """How many pairs of ``players`` are forbidden to meet."""
    return sum(1 for index, player in enumerate(players) for other in players[index + 1:]
               if pair_key(player, other) in forbidden)
