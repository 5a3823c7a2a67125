"""The password check of sign-ins for a closed account that signing in opens again (disabled, or
waiting for its deletion). Django's ModelBackend, first in AUTHENTICATION_BACKENDS, refuses
every inactive account; this one, after it, lets such a closed account through with its right
password (a banned or deleted account never). The admin refuses an inactive account after the
check all the same; the API's sign-in (``accounts.services.token_obtain``) opens the account."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend

from accounts.models import User
from accounts.services import REOPENABLE


class ReopeningModelBackend(ModelBackend):
    def authenticate(self, request: Any, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> User | None:
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        user = User.objects.filter(username=username, closure__in=REOPENABLE).first()
        if user is not None and user.check_password(password):
            return user
        return None

    def user_can_authenticate(self, user: Any) -> bool:
        return getattr(user, "closure", "") in REOPENABLE
