"""Coded errors of the match service."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, Conflict, NotFound


class MatchNotFound(NotFound):
    default_message = _("No such match, or it is not visible to you.")


class PlanSeatNotFound(NotFound):
    """The caller holds no seat of the match, so no plan in it (a spectator is told no more)."""

    default_message = _("You hold no seat in this match, so no plan.")


class StaleVersion(Conflict):
    code = "stale_version"
    default_message = _("The match has moved on; fetch it again.")


class MatchFull(Conflict):
    code = "match_full"
    default_message = _("Every seat of this match is taken.")


class AlreadySeated(Conflict):
    code = "already_seated"
    default_message = _("You already have a seat in this match.")


class MatchNotStarted(Conflict):
    code = "match_not_started"
    default_message = _("The match has not started yet.")


class MatchNotRunning(Conflict):
    code = "game_over"
    default_message = _("The match is over.")


class AbortNotAllowed(Conflict):
    code = "abort_not_allowed"
    default_message = _("A match can be aborted only before anyone has moved.")


class IdempotencyKeyReused(Conflict):
    code = "idempotency_key_reused"
    default_message = _("This Idempotency-Key was already used for a different request.")


class InvalidSeats(ApplicationError):
    code = "invalid_seats"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("The seats are not valid for this match.")


class UnknownGame(ApplicationError):
    code = "unknown_game"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("No such game.")


class NotSeated(ApplicationError):
    code = "permission_denied"
    http_status = status.HTTP_403_FORBIDDEN
    default_message = _("Only seated players may do this.")


class NoInvitation(Conflict):
    code = "no_invitation"
    default_message = _("You have no pending invitation to this match.")


class TooManyBotMatches(Conflict):
    code = "too_many_bot_matches"
    default_message = _("You have too many open or running matches with bots.")


class RematchNotAvailable(Conflict):
    code = "rematch_not_available"
    default_message = _("A rematch can be asked for only once the match has finished.")


class InvalidTimeControl(ApplicationError):
    """A bad time control: an unknown kind or key, or a value out of bounds (`extra.field`).

    ``extra.minimum`` and ``extra.maximum`` give the bounds of a value out of them."""

    code = "invalid_time_control"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("The time control is not valid.")


class VacationBankEmpty(Conflict):
    """No vacation time is left in the bank to start a vacation with."""

    code = "vacation_bank_empty"
    default_message = _("No vacation time is left.")


class AlreadyOnVacation(Conflict):
    """A vacation is already on."""

    code = "already_on_vacation"
    default_message = _("You are already on vacation.")


class NotOnVacation(Conflict):
    """No vacation is on to end."""

    code = "not_on_vacation"
    default_message = _("You are not on vacation.")
