"""Coded errors of tournaments and ladders: every refusal names its reason."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, Conflict, NotFound


class TournamentNotFound(NotFound):
    default_message = _("No such tournament.")


class InvalidTournament(ApplicationError):
    """A tournament's settings are not valid (``extra.field`` names the setting)."""

    code = "invalid_tournament"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("These tournament settings are not valid.")


class TournamentFull(Conflict):
    """The tournament has as many players as it takes (``extra.max_players``)."""

    code = "tournament_full"
    default_message = _("This tournament is full.")


class TournamentClosed(Conflict):
    """The tournament takes no entries now (it started, finished or was cancelled)."""

    code = "tournament_closed"
    default_message = _("This tournament takes no entries now.")


class RatingTooLow(Conflict):
    """The player's rating in the game is below the tournament's minimum
    (``extra.min_rating``, ``extra.rating``)."""

    code = "rating_too_low"
    default_message = _("Your rating in this game is below the tournament's minimum.")


class NotEnoughGames(Conflict):
    """The player has played fewer rated games of the game than the tournament asks for
    (``extra.min_games``, ``extra.games_played``)."""

    code = "not_enough_games"
    default_message = _("You have played too few rated games of this game to enter.")


class AlreadyEntered(Conflict):
    """The player (or that bot) is already in the tournament."""

    code = "already_entered"
    default_message = _("You are already in this tournament.")


class NotEntered(Conflict):
    """The player is not in the tournament (or has already withdrawn)."""

    code = "not_entered"
    default_message = _("You are not in this tournament.")


class LeaveNotAllowed(Conflict):
    """Leaving is only before the start; a running tournament is left by withdrawing."""

    code = "leave_not_allowed"
    default_message = _("The tournament has started: withdraw instead.")


class BotsNotAllowed(Conflict):
    """The tournament takes no bots, or only its creator may enter one."""

    code = "bots_not_allowed"
    default_message = _("This tournament takes no bots from you.")


class NotALadder(Conflict):
    """Challenges are made on a running ladder only."""

    code = "not_a_ladder"
    default_message = _("Challenges are made on a running ladder only.")


class ChallengeOutOfReach(Conflict):
    """The challenged player is not above the challenger within the ladder's reach
    (``extra.reach``)."""

    code = "challenge_out_of_reach"
    default_message = _("You may not challenge that player: they are not within reach above "
                        "you.")


class ChallengePending(Conflict):
    """The challenger or the challenged player is already in a challenge that is not over."""

    code = "challenge_pending"
    default_message = _("One of you is already in a challenge that is not over.")

