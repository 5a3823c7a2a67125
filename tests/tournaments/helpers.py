"""Making tournaments and playing their matches in the database-backed tests."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games.catalog import get_engine
from games.models import Match
from games.services import match_move_submit, match_resign
from games.tournaments.models import Pairing, Tournament
from games.tournaments.services.creation import Settings, tournament_create
from games.tournaments.services.due import tournament_advance
from games.tournaments.services.entries import tournament_join

DAY = 86400


def settings_for(**changes: Any) -> Settings:
    values: dict[str, Any] = {
        "name": "Winter Swiss", "game": "nibble", "format": "swiss",
        "starts_at": timezone.now() + timedelta(hours=2),
        "time_control": {"kind": "per_move", "turn_seconds": 2 * DAY}, "rounds": 3}
    values.update(changes)
    return Settings(**values)


def tournament_with(creator, players, **changes: Any) -> Tournament:
    tournament = tournament_create(user=creator, settings=settings_for(**changes))
    for player in players:
        tournament_join(user=player, tournament_id=tournament.id)
    return tournament


def started(tournament: Tournament) -> Tournament:
    tournament_advance(tournament_id=tournament.id, now=tournament.starts_at)
    tournament.refresh_from_db()
    return tournament


def running_pairings(tournament: Tournament) -> list[Pairing]:
    return list(Pairing.objects.filter(tournament=tournament, ended_at__isnull=True,
                                       match__isnull=False).select_related("match"))


def win(pairing: Pairing, users_by_id, winner_seat: int = 0) -> None:
    """Settle a two-player pairing's match: the other seat resigns after the first move."""
    match = pairing.match
    match.refresh_from_db()
    loser = users_by_id[pairing.players[1 - winner_seat]]
    if match.status == Match.Status.ACTIVE:
        seat = match.actors[0]
        engine = get_engine(match.game)
        move = engine.dump_move(engine.legal_moves(engine.load(match.state), seat)[0])
        match_move_submit(user=users_by_id[pairing.players[seat]], match_id=match.id, move=move)
        match_resign(user=loser, match_id=match.id)
