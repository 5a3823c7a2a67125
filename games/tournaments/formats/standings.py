"""Standings with their tie-breaks, and the crosstable.

Players are ordered by points, then by the format's tie-breaks:

- Swiss: Buchholz (the sum of the points of every opponent met, once per meeting; a bye adds
  nothing), then Sonneborn-Berger (for each meeting, the opponent's points times the result
  against them: 1 placed above, 0.5 level, 0 below).
- Round robin: head-to-head (the results among the players level on points only), then
  Sonneborn-Berger; Buchholz is shown but tells nothing there, as everyone meets everyone.

Players level on every tie-break share a rank; their order in the list then follows seeding.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.tournaments.formats.records import Table, scores

SWISS = "swiss"
ROUND_ROBIN = "round_robin"


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    player: int
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    played: int
    byes: int


def standings(players: Sequence[int], tables: Sequence[Table], kind: str) -> list[Standing]:
    """The standings of ``players`` (in seeding order) after ``tables``, for a ``kind``
    (``SWISS`` or ``ROUND_ROBIN``) tournament."""
    points = scores(players, tables)
    buchholz = dict.fromkeys(players, 0.0)
    berger = dict.fromkeys(players, 0.0)
    played = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    for table in tables:
        for player in table.players:
            if player not in points:
                continue
            if table.bye:
                byes[player] += 1
                continue
            played[player] += 1
            for other in table.opponents(player):
                theirs = points.get(other, 0.0)
                buchholz[player] += theirs
                berger[player] += table.against(player, other) * theirs
    head = _head_to_head(players, tables, points) if kind == ROUND_ROBIN else \
        dict.fromkeys(players, 0.0)
    seeding = {player: index for index, player in enumerate(players)}

    def key(player: int) -> tuple[float, ...]:
        if kind == ROUND_ROBIN:
            return (-points[player], -head[player], -berger[player])
        return (-points[player], -buchholz[player], -berger[player])

    ordered = sorted(players, key=lambda player: (key(player), seeding[player]))
    lines: list[Standing] = []
    for index, player in enumerate(ordered):
        same = index > 0 and key(ordered[index - 1]) == key(player)
        rank = lines[-1].rank if same else index + 1
        lines.append(Standing(player=player, rank=rank, points=points[player],
                              buchholz=buchholz[player], sonneborn_berger=berger[player],
                              head_to_head=head[player], played=played[player],
                              byes=byes[player]))
    return lines


def _head_to_head(players: Sequence[int], tables: Sequence[Table],
                  points: dict[int, float]) -> dict[int, float]:
    """Each player's results against the players level with them on points."""
    head = dict.fromkeys(players, 0.0)
    for table in tables:
        if table.bye:
            continue
        for player in table.players:
            if player not in head:
                continue
            for other in table.opponents(player):
                if other in points and points[other] == points[player]:
                    head[player] += table.against(player, other)
    return head


@dataclass(frozen=True)
class Meeting:
    """One cell entry of the crosstable: a round, the opponent and the result against them
    (1, 0.5 or 0; for a bye, the opponent is None and the result the bye's points)."""

    round: int
    opponent: int | None
    result: float


def crosstable(players: Sequence[int], tables: Sequence[Table]) -> dict[int, list[Meeting]]:
    """Each player's meetings, round by round."""
    rows: dict[int, list[Meeting]] = {player: [] for player in players}
    for table in sorted(tables, key=lambda table: table.round):
        for player in table.players:
            if player not in rows:
                continue
            if table.bye:
                rows[player].append(Meeting(table.round, None, table.points_of(player)))
                continue
            rows[player].extend(Meeting(table.round, other, table.against(player, other))
                                for other in table.opponents(player))
    return rows
