"""Password rules beyond Django's own validators (see AUTH_PASSWORD_VALIDATORS)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class NotBlankValidator:
    """Refuses a password made only of whitespace (eight spaces pass the length rule), and one
    with fewer than ``min_visible`` characters that are not whitespace."""

    def __init__(self, min_visible: int = 6) -> None:
        self.min_visible = min_visible

    def validate(self, password: str, user: Any = None) -> None:
        visible = sum(1 for char in password if not char.isspace())
        if visible == 0:
            raise ValidationError(_("The password cannot be blank or only whitespace."),
                                  code="password_blank")
        if visible < self.min_visible:
            raise ValidationError(
                f"The password must contain at least {self.min_visible} characters that are "
                "not whitespace.", code="password_mostly_blank")

    def get_help_text(self) -> str:
        return (f"Your password must contain at least {self.min_visible} characters that are "
                "not whitespace.")
