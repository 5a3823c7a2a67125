"""A tournament's rows as the pure formats read them: its players in seeding order and its
finished tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.tournaments.formats import records
from games.tournaments.formats.records import DEFAULT_PLACING_POINTS, Table
from games.tournaments.models import Entry, Pairing, Tournament


def placing_of(tournament: Tournament) -> tuple[float, ...]:
    """The points per placing of a full table."""
    stored = tournament.placing_points
    if isinstance(stored, list) and stored:
        return tuple(float(value) for value in stored)
    return DEFAULT_PLACING_POINTS[tournament.players_per_match]


def seeding(entries: Iterable[Entry]) -> list[int]:
    """The entrants' user ids in seeding order: rating when they entered, then who entered
    first."""
    ordered = sorted(entries, key=lambda entry: (-entry.seed_rating, entry.joined_at, entry.id))
    return [entry.user_id for entry in ordered]


def tables_of(tournament: Tournament, pairings: Sequence[Pairing], *,
              running: bool = False) -> list[Table]:
    """The finished tables and byes of ``pairings`` (void ones count for nobody). With
    ``running``, the tables still being played are there too, worth nothing yet: pairing
    must know who has met already."""
    placing = placing_of(tournament)
    found: list[Table] = []
    for pairing in pairings:
        number = pairing.round.number if pairing.round is not None else 0
        players = [int(player) for player in pairing.players]
        if pairing.is_bye:
            found.append(records.bye(number, players[0], float(pairing.bye_points or 0.0)))
        elif pairing.ranks is not None and not pairing.void:
            found.append(records.finished_table(number, players, pairing.ranks, placing))
        elif running and pairing.ended_at is None:
            found.append(Table(round=number, players=tuple(players),
                               ranks=tuple(0 for _ in players),
                               points=tuple(0.0 for _ in players)))
    return found
