"""Reads of tournaments: lists, the detail with standings and crosstable, a player's history.

Everything here is public (a tournament's standings and pairings are for everyone to see);
the matches themselves keep their own visibility."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, F, OuterRef, QuerySet, Subquery

from accounts.models import User
from games.tournaments import shapes
from games.tournaments.exceptions import TournamentNotFound
from games.tournaments.formats import standings
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.openings import entries_open
from games.tournaments.records import placing_of, seeding, tables_of


def tournament_get(tournament_id: UUID | str) -> Tournament:
    try:
        return Tournament.objects.select_related("created_by").get(id=tournament_id)
    except (Tournament.DoesNotExist, ValidationError, ValueError):
        raise TournamentNotFound() from None


def tournament_list(*, user: User, game: str | None = None, status: str | None = None,
                    mine: bool = False) -> QuerySet[Tournament]:
    """Tournaments, filtered: by game, by status, only those the caller entered."""
    rows = Tournament.objects.select_related("created_by") \
        .annotate(entrant_count=Count("entries"))
    if game is not None:
        rows = rows.filter(game=game)
    if status is not None:
        rows = rows.filter(status=status)
    if user.is_authenticated:
        rows = rows.annotate(entered=Exists(Entry.objects.filter(tournament=OuterRef("pk"),
                                                                 user=user)))
        if mine:
            rows = rows.filter(entered=True)
    elif mine:
        rows = rows.none()
    return rows


def tournament_summary(tournament: Tournament, user: User) -> shapes.TournamentSummary:
    entrants = getattr(tournament, "entrant_count", None)
    entered = getattr(tournament, "entered", None)
    if entrants is None:
        entrants = Entry.objects.filter(tournament=tournament).count()
    if entered is None:
        entered = user.is_authenticated and Entry.objects.filter(
            tournament=tournament, user=user).exists()
    return {"id": str(tournament.id), "name": tournament.name, "game": tournament.game,
            "format": tournament.format, "status": tournament.status,
            "official": tournament.official, "players_per_match": tournament.players_per_match,
            "starts_at": tournament.starts_at, "entrants": entrants,
            "max_players": tournament.max_players, "rounds": tournament.rounds,
            "current_round": tournament.current_round, "rated": tournament.rated,
            "created_by": tournament.created_by.username, "entered": bool(entered)}


def _kind(tournament: Tournament) -> str:
    return standings.ROUND_ROBIN if tournament.format == Tournament.Format.ROUND_ROBIN \
        else standings.SWISS


TIE_BREAKS = {
    Tournament.Format.SWISS: ["buchholz", "sonneborn_berger"],
    Tournament.Format.ROUND_ROBIN: ["head_to_head", "sonneborn_berger"],
    Tournament.Format.LADDER: [],
}


def tournament_detail(tournament: Tournament, user: User) -> shapes.TournamentDetail:
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("round")
                    .annotate(match_private=F("match__private"))
                    .order_by("round__number", "id"))
    users = {entry.user_id: entry.user for entry in entries}
    for pairing in pairings:
        # A private match is seen by its players alone: nobody else is given its id.
        if getattr(pairing, "match_private", False) and user.id not in pairing.players:
            pairing.match_id = None
    return {"summary": tournament_summary(tournament, user),
            "config": tournament.config, "time_control": tournament.time_control,
            "plans_allowed": tournament.plans_allowed, "bots_allowed": tournament.bots_allowed,
            "min_players": tournament.min_players, "min_rating": tournament.min_rating,
            "min_games": tournament.min_games, "round_days": tournament.round_days,
            "placing_points": list(placing_of(tournament)),
            "challenge_reach": tournament.challenge_reach,
            "challenge_days": tournament.challenge_days,
            "tie_breaks": TIE_BREAKS[Tournament.Format(tournament.format)],
            "standings": _standings(tournament, entries, pairings),
            "crosstable": _crosstable(tournament, entries, pairings, users),
            "rounds_played": _rounds(tournament, pairings, users),
            "challenges": [_pairing(pairing, users) for pairing in reversed(pairings)
                           if pairing.round_id is None],
            "me": _me(entries, pairings, user),
            "can_join": _can_join(tournament, entries, user)}


def _standings(tournament: Tournament, entries: Sequence[Entry],
               pairings: Sequence[Pairing]) -> list[shapes.Standing]:
    by_user = {entry.user_id: entry for entry in entries}
    lines = standings.standings(seeding(entries), tables_of(tournament, pairings),
                                _kind(tournament))
    if tournament.format == Tournament.Format.LADDER:
        lines.sort(key=lambda line: (by_user[line.player].position is None,
                                     by_user[line.player].position or 0))
    return [{"rank": index + 1 if tournament.format == Tournament.Format.LADDER else line.rank,
             "player": _ref(by_user[line.player].user), "points": line.points,
             "buchholz": line.buchholz, "sonneborn_berger": line.sonneborn_berger,
             "head_to_head": line.head_to_head, "played": line.played, "byes": line.byes,
             "withdrawn": by_user[line.player].withdrawal or None,
             "position": by_user[line.player].position}
            for index, line in enumerate(lines)]


def _ref(user: User) -> Any:
    return {"username": user.username, "is_bot": user.is_bot}


def _crosstable(tournament: Tournament, entries: Sequence[Entry], pairings: Sequence[Pairing],
                users: dict[int, User]) -> list[shapes.CrosstableRow]:
    rows = standings.crosstable(seeding(entries), tables_of(tournament, pairings))
    return [{"player": users[player].username,
             "meetings": [{"round": meeting.round,
                           "opponent": users[meeting.opponent].username
                           if meeting.opponent in users else None,
                           "result": meeting.result} for meeting in meetings]}
            for player, meetings in rows.items()]


def _name(users: dict[int, User], player: int) -> str:
    user = users.get(player)
    return user.username if user is not None else str(player)


def _pairing(pairing: Pairing, users: dict[int, User]) -> shapes.Pairing:
    return {"id": pairing.id, "players": [_name(users, player) for player in pairing.players],
            "match": str(pairing.match_id) if pairing.match_id else None,
            "bye_points": pairing.bye_points, "ranks": pairing.ranks, "void": pairing.void,
            "ended_at": pairing.ended_at, "expires_at": pairing.expires_at}


def _rounds(tournament: Tournament, pairings: Sequence[Pairing],
            users: dict[int, User]) -> list[shapes.TournamentRound]:
    by_round: dict[int, list[Pairing]] = {}
    for pairing in pairings:
        if pairing.round_id is not None:
            by_round.setdefault(pairing.round_id, []).append(pairing)
    return [{"number": row.number, "started_at": row.started_at, "ends_at": row.ends_at,
             "finished_at": row.finished_at,
             "pairings": [_pairing(pairing, users) for pairing in by_round.get(row.id, [])]}
            for row in tournament.round_set.order_by("number")]


def _me(entries: Iterable[Entry], pairings: Sequence[Pairing],
        user: User) -> shapes.MyEntry | None:
    mine = next((entry for entry in entries if entry.user_id == user.id), None) \
        if user.is_authenticated else None
    if mine is None:
        return None
    running = [pairing for pairing in pairings if pairing.ended_at is None
               and pairing.match_id is not None and user.id in pairing.players]
    return {"withdrawn": mine.withdrawal or None, "late": mine.late, "position": mine.position,
            "final_rank": mine.final_rank,
            "next_match": str(running[-1].match_id) if running else None}


def _can_join(tournament: Tournament, entries: Sequence[Entry], user: User) -> bool:
    if not user.is_authenticated or user.is_guest:
        return False
    if any(entry.user_id == user.id for entry in entries):
        return False
    if tournament.max_players is not None and len(entries) >= tournament.max_players:
        return False
    return entries_open(tournament)


def player_tournaments(player: User, viewer: User) -> QuerySet[Tournament]:
    """The tournaments ``player`` entered, newest start first, each with their final place
    and withdrawal (for their page's tournament history)."""
    theirs = Entry.objects.filter(tournament=OuterRef("pk"), user=player)
    return tournament_list(user=viewer).filter(entries__user=player).annotate(
        player_rank=Subquery(theirs.values("final_rank")[:1]),
        player_withdrawal=Subquery(theirs.values("withdrawal")[:1]))


def history_entry(tournament: Tournament, viewer: User) -> shapes.TournamentHistoryEntry:
    return {"tournament": tournament_summary(tournament, viewer),
            "final_rank": getattr(tournament, "player_rank", None),
            "withdrawn": getattr(tournament, "player_withdrawal", None) or None}
