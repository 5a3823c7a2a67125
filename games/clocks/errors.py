"""The coded errors of the clocks.

Each error has a stable ``code`` clients switch on, a ``field`` naming the input at fault (or
``None``) and an ``extra`` dict of details (bounds, the seat), like the engines' errors. A
function that raises one has changed nothing: every value here is immutable, and a transition
builds its result only once every check has passed.
"""

from __future__ import annotations

from typing import Any


class ClockError(Exception):
    """A coded error of the clock arithmetic."""

    code = "clock_error"

    def __init__(self, message: str, *, field: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.extra: dict[str, Any] = extra

    def as_dict(self) -> dict[str, Any]:
        """The error envelope: ``{"code", "message", "extra"}``, the field inside ``extra``."""
        extra = dict(self.extra)
        if self.field is not None:
            extra["field"] = self.field
        return {"code": self.code, "message": self.message, "extra": extra}


class InvalidTimeControl(ClockError):
    """A time control of an unknown kind, with an unknown key, or a value out of its bounds."""

    code = "invalid_time_control"


class InvalidTimeZone(ClockError):
    """A weekend pause asked for in a time zone that is not a known IANA name."""

    code = "invalid_time_zone"


class InvalidClockState(ClockError):
    """Stored clock or vacation state that does not parse, or a seat the match does not have."""

    code = "invalid_clock_state"


class TimeWentBack(ClockError):
    """An instant earlier than the one the state was last counted at."""

    code = "time_went_back"


class NotOnTurn(ClockError):
    """A move or a stop for a seat whose clock has no turn running."""

    code = "not_on_turn"


class VacationNotAllowed(ClockError):
    """A vacation asked for in a match that forbids it."""

    code = "vacation_not_allowed"


class VacationBankEmpty(ClockError):
    """A vacation asked for with no vacation time left."""

    code = "vacation_bank_empty"


class AlreadyOnVacation(ClockError):
    """A vacation started while one runs."""

    code = "already_on_vacation"


class NotOnVacation(ClockError):
    """A vacation ended while none runs."""

    code = "not_on_vacation"


class InvalidVacationPolicy(ClockError):
    """Vacation settings out of bounds (a negative amount, a start above the cap)."""

    code = "invalid_vacation_settings"
