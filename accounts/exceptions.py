"""Coded errors of the accounts service."""

from django.utils.translation import gettext_lazy as _
from rest_framework import status

from config.exceptions import ApplicationError, Conflict, NotFound


class UsernameTaken(ApplicationError):
    code = "username_taken"
    http_status = status.HTTP_409_CONFLICT
    default_message = _("That username is taken.")


class InvalidPassword(ApplicationError):
    code = "invalid_password"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("The password is not acceptable.")


class InvalidCredentials(ApplicationError):
    code = "authentication_failed"
    http_status = status.HTTP_401_UNAUTHORIZED
    default_message = _("Wrong username or password.")


class PlayerNotFound(NotFound):
    default_message = _("No such player.")


class TokenNotFound(NotFound):
    default_message = _("No such token.")


class NotAGuest(Conflict):
    code = "not_a_guest"
    default_message = _("Only a guest account can be converted; this one is signed up already.")


class GuestNotAllowed(ApplicationError):
    code = "guest_not_allowed"
    http_status = status.HTTP_403_FORBIDDEN
    default_message = _("Guests cannot do this; sign up (keeping your matches) first.")


class WrongPassword(ApplicationError):
    """The current password sent with the change is wrong."""

    code = "wrong_password"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("That is not your current password.")


class InvalidResetLink(ApplicationError):
    """The password reset link is wrong, was used already or has expired."""

    code = "invalid_reset_link"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("This link does not work any more: ask for a new one.")
class CannotFollowSelf(ApplicationError):
    code = "cannot_follow_self"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("You cannot follow yourself.")


class CannotBlockSelf(ApplicationError):
    code = "cannot_block_self"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = _("You cannot block yourself.")


class NotAcceptingInvitations(ApplicationError):
    """The player is not accepting invitations (or rematch offers) from the caller;
    `extra.seat` names the seat when the match asked for several."""

    code = "not_accepting_invitations"
    http_status = status.HTTP_403_FORBIDDEN
    default_message = _("This player is not accepting invitations.")


class PlayerBlocked(Conflict):
    """The caller blocked this player (for games): unblock them to invite them or to sit with
    them; `extra.seat` names the seat when there are several."""

    code = "player_blocked"
    default_message = _("You blocked this player; unblock them first.")
