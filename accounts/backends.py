"""The password check of sign-ins: Django's, except that a closed account that signing in opens
again (disabled, or waiting for its deletion) may pass it. A banned or deleted account may not.
The admin refuses an inactive account after the check all the same; the API's sign-in
(``accounts.services.token_obtain``) opens the account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend

from accounts.services import REOPENABLE


class ReopeningModelBackend(ModelBackend):
    def user_can_authenticate(self, user: Any) -> bool:
        return super().user_can_authenticate(user) or getattr(user, "closure", "") in REOPENABLE
