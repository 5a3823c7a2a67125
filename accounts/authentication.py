"""API token authentication with a short-lived, per-process memory of recent tokens.

Every API request carries a token; looking it up costs a query. A process remembers the users
of tokens it saw in the last few seconds (``TOKEN_CACHE_SECONDS``, default 5), so a busy client
costs one lookup per few seconds instead of one per request. A revoked token or a deactivated
account is refused everywhere within that many seconds (at once by the process that revoked it).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from rest_framework.authentication import TokenAuthentication

_MAX_ENTRIES = 10_000


class CachedTokenAuthentication(TokenAuthentication):
    _lock = threading.Lock()
    _entries: dict[str, tuple[float, Any, Any]] = {}

    def authenticate_credentials(self, key: str):
        ttl = settings.TOKEN_CACHE_SECONDS
        now = time.monotonic()
        entry = self._entries.get(key)
        if entry is not None and entry[0] > now:
            return entry[1], entry[2]
        user, token = super().authenticate_credentials(key)
        if ttl > 0:
            with self._lock:
                if len(self._entries) >= _MAX_ENTRIES:
                    self._entries.clear()
                self._entries[key] = (now + ttl, user, token)
        return user, token

    @classmethod
    def forget(cls, key: str | None = None) -> None:
        """Drop one remembered token (or all of them): revocation in this process."""
        with cls._lock:
            if key is None:
                cls._entries.clear()
            else:
                cls._entries.pop(key, None)
