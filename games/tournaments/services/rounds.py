"""A tournament's start, its rounds and its end.

Each round is paired by the tournament's format (``games.tournaments.formats``) from its
entrants still in, in seeding order, and the tables played so far; each table becomes a match
created with its players seated and started at once (``match_create_seated``), through the
one recording path like any match."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from games.selectors import game_engine
from games.services.matches import match_create_seated
from games.tournaments.formats import roundrobin, standings, swiss
from games.tournaments.formats.tables import Round as Pairs
from games.tournaments.models import Entry, Pairing, Round, Tournament
from games.tournaments.records import placing_of, seeding, tables_of
from games.tournaments.services.avoiding import avoided_pairs
from games.tournaments.services.telling import tell_finished, tell_match


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).select_related("user"))


def tournament_start(tournament: Tournament, now: datetime) -> None:
    """Start the locked tournament at its start time: with too few players it is cancelled;
    a ladder simply opens; otherwise the first round begins (a round robin fixes its whole
    schedule first)."""
    entries = entries_of(tournament)
    if len(entries) < tournament.min_players:
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = now
        tell_finished(tournament, entries)
        return
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    if tournament.format == Tournament.Format.LADDER:
        return
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        rounds = roundrobin.schedule(seeding(entries), tournament.players_per_match,
                                     seed=tournament.seed)
        tournament.schedule = [[list(table) for table in pairs.tables] for pairs in rounds]
        tournament.rounds = len(rounds)
    round_start(tournament, entries, now)


def round_start(tournament: Tournament, entries: Sequence[Entry], now: datetime) -> Round:
    """Pair and start the locked tournament's next round."""
    number = tournament.current_round + 1
    ends_at = now + timedelta(days=tournament.round_days) if tournament.round_days else None
    row = Round.objects.create(tournament=tournament, number=number, started_at=now,
                               ends_at=ends_at)
    pairs = _paired(tournament, entries, number)
    by_id = {entry.user_id: entry for entry in entries}
    for table in pairs.tables:
        seated = [by_id[player] for player in table]
        match = match_create_seated(
            created_by=seated[0].user, players=[entry.user for entry in seated],
            game=tournament.game, config=tournament.config,
            time_control=tournament.time_control, rated=tournament.rated,
            plans=tournament.plans_allowed)
        Pairing.objects.create(tournament=tournament, round=row, players=list(table),
                               match=match)
        tell_match(tournament, seated, match, number)
    if pairs.bye is not None:
        Pairing.objects.create(tournament=tournament, round=row, players=[pairs.bye],
                               bye_points=placing_of(tournament)[0], ranks=[0], ended_at=now,
                               counted=True)
    tournament.current_round = number
    return row


def _paired(tournament: Tournament, entries: Sequence[Entry], number: int) -> Pairs:
    """Who plays whom in round ``number``, among the entrants still in."""
    order = seeding(entry for entry in entries if entry.active)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return _scheduled(tournament, set(order), number)
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("round"))
    tables = tables_of(tournament, pairings, running=True)
    forbidden = avoided_pairs(order)
    if tournament.players_per_match == 2:
        return swiss.pair_two(order, tables, round=number, seed=tournament.seed,
                              forbidden=forbidden)
    return swiss.pair_tables(order, tables, round=number, size=tournament.players_per_match,
                             seed=tournament.seed, forbidden=forbidden,
                             smallest=max(2, game_engine(tournament.game).min_players))


def _scheduled(tournament: Tournament, still_in: set[int], number: int) -> Pairs:
    """Round ``number`` of the round robin's fixed schedule: each table played by those of
    its players still in, when at least two are."""
    tables = (tournament.schedule or [])[number - 1]
    kept = [tuple(player for player in table if player in still_in) for table in tables]
    return Pairs(tables=tuple(table for table in kept if len(table) >= 2))


def round_over(tournament: Tournament, now: datetime) -> bool:
    """Whether the current round has ended: every match over, or its days are up."""
    row = tournament.round_set.filter(number=tournament.current_round).first()
    if row is None:
        return True
    if not Pairing.objects.filter(round=row, ended_at__isnull=True).exists():
        return True
    return row.ends_at is not None and row.ends_at <= now


def all_played(tournament: Tournament) -> bool:
    return not Pairing.objects.filter(tournament=tournament, ended_at__isnull=True).exists()


def tournament_finish(tournament: Tournament, now: datetime) -> None:
    """End the locked tournament: each entrant's final place, and each is told it."""
    entries = final_places_set(tournament)
    Round.objects.filter(tournament=tournament, finished_at__isnull=True).update(finished_at=now)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tell_finished(tournament, entries)


def final_places_set(tournament: Tournament) -> list[Entry]:
    """Each entrant's final place in the standings (saved); returns the entries."""
    entries = entries_of(tournament)
    pairings = list(Pairing.objects.filter(tournament=tournament).select_related("round"))
    kind = standings.ROUND_ROBIN if tournament.format == Tournament.Format.ROUND_ROBIN \
        else standings.SWISS
    lines = standings.standings(seeding(entries), tables_of(tournament, pairings), kind)
    rank = {line.player: line.rank for line in lines}
    for entry in entries:
        entry.final_rank = rank.get(entry.user_id)
    Entry.objects.bulk_update(entries, ["final_rank"])
    return entries
