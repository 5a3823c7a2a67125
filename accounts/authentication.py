"""API token authentication with a short-lived, per-process memory of recent tokens.

A request sends ``Authorization: Token <key>``; the key is looked up by its digest
(``accounts.models.ApiToken``), and refused once the token has expired or its account is
inactive. Looking a token up costs a query, so a process remembers the users of tokens it saw
in the last few seconds (``TOKEN_CACHE_SECONDS``, default 5): a busy client costs one lookup per
few seconds instead of one per request. A revoked token or a deactivated account is refused
everywhere within that many seconds (at once by the process that revoked it); an expired token
is refused at its expiry time.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from accounts.models import ApiToken, token_digest
from config.i18n import activate_user_language
from config.prepared import Prepared

_MAX_ENTRIES = 10_000

# A token with its user by the key's digest, built and compiled once per process
# (config.prepared): every process looks each busy client's token up every few seconds.
_TOKEN_QUERY = Prepared(lambda digest: ApiToken.objects.select_related("user").filter(
    digest=digest), stand_in="0" * 64)


class CachedTokenAuthentication(TokenAuthentication):
    model = ApiToken
    _lock = threading.Lock()
    # key -> (monotonic time the memory ends, user, token)
    _entries: dict[str, tuple[float, Any, Any]] = {}

    def authenticate(self, request: Any) -> tuple[Any, Any] | None:
        # The caller is known from here on: answer in their own language, if they chose one.
        result = super().authenticate(request)
        if result is not None:
            activate_user_language(request, result[0])
        return result

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        now = time.monotonic()
        entry = self._entries.get(key)
        if entry is not None and entry[0] > now:
            return entry[1], entry[2]
        rows = _TOKEN_QUERY.rows(token_digest(key))
        if not rows:
            raise AuthenticationFailed(_("Invalid token."))
        token = rows[0]
        remaining = None
        if token.expires is not None:
            remaining = (token.expires - timezone.now()).total_seconds()
            if remaining <= 0:
                raise AuthenticationFailed(_("Token has expired."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        ttl = float(settings.TOKEN_CACHE_SECONDS)
        if remaining is not None:
            ttl = min(ttl, remaining)
        if ttl > 0:
            with self._lock:
                if len(self._entries) >= _MAX_ENTRIES:
                    self._entries.clear()
                self._entries[key] = (now + ttl, token.user, token)
        return token.user, token

    @classmethod
    def forget(cls, key: str | None = None) -> None:
        """Drop one remembered token (or all of them): revocation in this process."""
        with cls._lock:
            if key is None:
                cls._entries.clear()
            else:
                cls._entries.pop(key, None)

    @classmethod
    def forget_tokens(cls, tokens: list[ApiToken] | Any) -> None:
        """Drop the remembered entries of these tokens (whose keys are not stored)."""
        ids = {token.pk for token in tokens}
        if not ids:
            return
        with cls._lock:
            for key in [key for key, entry in cls._entries.items() if entry[2].pk in ids]:
                del cls._entries[key]
