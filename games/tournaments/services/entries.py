"""Entering a tournament, leaving it before the start, withdrawing from it."""

from __future__ import annotations

from uuid import UUID

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.exceptions import GuestNotAllowed
from accounts.models import User
from games.catalog import game as game_spec
from games.models import Rating
from games.ratings import DISPLAY_BASE
from games.tournaments.exceptions import (
    AlreadyEntered,
    BotsNotAllowed,
    InvalidTournament,
    LeaveNotAllowed,
    NotEnoughGames,
    NotEntered,
    RatingTooLow,
    TournamentClosed,
    TournamentFull,
)
from games.tournaments.models import Entry, Pairing, Tournament
from games.tournaments.openings import entries_open
from games.tournaments.records import placing_of
from games.tournaments.services.due import advance_locked
from games.tournaments.services.locking import tournament_lock
from games.tournaments.services.withdrawal import entry_withdraw, ladder_compact


@transaction.atomic
def tournament_join(*, user: User, tournament_id: UUID | str,
                    bot_level: int | None = None) -> Entry:
    """Enter the tournament (``bot_level``: its creator enters that level's bot, where bots
    are allowed). Each refusal is coded: closed, full, rating too low, too few games, already
    in. A late entrant of a Swiss has a half-point bye for the round under way; a ladder's new
    player starts at the bottom."""
    if user.is_guest:
        raise GuestNotAllowed(_("Guests cannot enter tournaments; sign up first."))
    tournament = tournament_lock(tournament_id)
    player = _entrant(user, tournament, bot_level)
    if not entries_open(tournament):
        raise TournamentClosed()
    if Entry.objects.filter(tournament=tournament, user=player).exists():
        raise AlreadyEntered()
    entered = Entry.objects.filter(tournament=tournament).count()
    if tournament.max_players is not None and entered >= tournament.max_players:
        raise TournamentFull(max_players=tournament.max_players)
    rating = _rating_checked(player, tournament)
    entry = Entry(tournament=tournament, user=player, seed_rating=rating)
    if tournament.format == Tournament.Format.LADDER:
        entry.position = Entry.objects.filter(tournament=tournament,
                                              position__isnull=False).count() + 1
    entry.late = tournament.status == Tournament.Status.RUNNING and \
        tournament.format == Tournament.Format.SWISS
    entry.save()
    if entry.late:
        current = tournament.round_set.get(number=tournament.current_round)
        Pairing.objects.create(tournament=tournament, round=current, players=[player.id],
                               bye_points=placing_of(tournament)[0] / 2, ranks=[0],
                               ended_at=timezone.now(), counted=True)
    return entry


def _entrant(user: User, tournament: Tournament, bot_level: int | None) -> User:
    """Who enters: the caller, or the bot its creator enters."""
    if bot_level is None:
        return user
    if not tournament.bots_allowed or tournament.created_by_id != user.id:
        raise BotsNotAllowed()
    bot = User.objects.filter(is_bot=True, bot_game=tournament.game,
                              bot_level=bot_level).first() \
        if bot_level in game_spec(tournament.game).levels else None
    if bot is None:
        raise InvalidTournament(_("No bot of that level plays this game."), field="bot_level")
    return bot


def _rating_checked(player: User, tournament: Tournament) -> int:
    """The player's rating in the game (a new player's when none), checked against the
    tournament's minimums (bots are not held to them)."""
    row = Rating.objects.filter(user=player, game=tournament.game).first()
    rating = row.display if row is not None else DISPLAY_BASE
    played = row.games_played if row is not None else 0
    if player.is_bot:
        return rating
    if tournament.min_rating is not None and rating < tournament.min_rating:
        raise RatingTooLow(min_rating=tournament.min_rating, rating=rating)
    if tournament.min_games is not None and played < tournament.min_games:
        raise NotEnoughGames(min_games=tournament.min_games, games_played=played)
    return rating


def _entry_of(tournament: Tournament, user: User) -> Entry:
    entry = Entry.objects.select_related("user").filter(tournament=tournament, user=user) \
        .first()
    if entry is None or entry.withdrawn_at is not None:
        raise NotEntered()
    return entry


@transaction.atomic
def tournament_leave(*, user: User, tournament_id: UUID | str) -> None:
    """Take back one's entry before the start."""
    tournament = tournament_lock(tournament_id)
    entry = _entry_of(tournament, user)
    if tournament.status != Tournament.Status.ENTRY:
        raise LeaveNotAllowed()
    entry.delete()
    if tournament.format == Tournament.Format.LADDER:
        ladder_compact(tournament)


@transaction.atomic
def tournament_withdraw(*, user: User, tournament_id: UUID | str) -> Entry:
    """Withdraw from a running tournament: no more pairings (a ladder takes the player off).
    Matches under way go on; any whose players have all withdrawn is settled at once."""
    tournament = tournament_lock(tournament_id)
    entry = _entry_of(tournament, user)
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentClosed(_("Only a running tournament is withdrawn from; before the "
                                 "start, leave it."))
    entry_withdraw(tournament, entry, Entry.Withdrawal.WITHDREW)
    advance_locked(tournament, timezone.now())
    return entry
