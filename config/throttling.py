"""Throttles: a budget for anonymous callers and for each signed-in user, except that the move
of a player who must act now is never refused.

The counters live in the default cache. On Redis (CACHE_URL=redis://...) that is
``config.cache.FallbackRedisCache``: while Redis is away the budgets are counted in each
process's memory instead, so an outage neither fails nor stalls a request and a caller still
gets at most one budget per process (the anonymous one keeps slowing down password guessing).
On Redis each budget costs one round trip a request (``config.throttle_log``)."""

from __future__ import annotations

import hashlib
from typing import Any

from rest_framework import throttling

from config.throttle_log import OneTripThrottle


class AnonRateThrottle(throttling.AnonRateThrottle, OneTripThrottle):
    """DRF's budget for anonymous callers, per client address."""


class UserRateThrottle(throttling.UserRateThrottle, OneTripThrottle):
    """DRF's budget per signed-in user (per client address for anonymous callers)."""


class ScopedRateThrottle(throttling.ScopedRateThrottle, OneTripThrottle):
    """DRF's budget per view scope and caller."""


class PlayerRateThrottle(UserRateThrottle):
    """Per-user budget. A view may let some requests through regardless by defining
    ``throttle_exempt(request) -> bool`` (the match move view does, for a seat that must act,
    so a busy client can never be locked out of its own turn).

    Guests (accounts made without signing up) count against a smaller budget of their own
    (scope ``guest_user``)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if getattr(request.user, "is_guest", False):
            self.scope = "guest_user"
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)
        if super().allow_request(request, view):
            return True
        # Over budget: only now is it worth asking the view whether this request is exempt.
        exempt = getattr(view, "throttle_exempt", None)
        if exempt is not None and request.user.is_authenticated:
            return bool(exempt(request))
        return False


class LongPollRateThrottle(UserRateThrottle):
    """A per-user budget of its own for the long-poll endpoints. A client that waits for news
    asks again as soon as an answer comes, so during a lively match it asks often; a separate,
    larger budget keeps that from starving its other requests while still stopping a client
    that loops without waiting."""

    scope = "longpoll"


class FieldRateThrottle(OneTripThrottle):
    """A budget per value of one body field (``field``, compared without case), counted per
    client address too unless ``per_address`` is off. Requests without the field in the body are
    left to the other throttles."""

    field = "username"
    per_address = True

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        # An unreadable body raises its coded error (malformed_json) here, as the view would.
        data = request.data
        value = data.get(self.field) if isinstance(data, dict) else None
        if not isinstance(value, str) or not value:
            return None
        digest = hashlib.sha256(value.strip().lower().encode("utf-8", "replace")).hexdigest()
        ident = f"{self.get_ident(request)}:{digest[:32]}" if self.per_address else digest[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class SignUpNameRateThrottle(FieldRateThrottle):
    """Sign-ups (and guest conversions) per client address *and* chosen username (scope
    ``register_name``).

    A school, an office or a café puts many people behind one address, so the per-address
    budget (scope ``register``) is generous; this one is small and stops one client from
    hammering one name (retrying a refused password, racing for a name) without holding back
    the other people behind the same address. Requests without a username in the body are
    left to the other throttles."""

    scope = "register_name"


class AddressScopedRateThrottle(ScopedRateThrottle):
    """A view's scoped budget counted per client address even for a signed-in caller (DRF's
    ScopedRateThrottle counts a signed-in caller by account)."""

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


__all__ = ["AddressScopedRateThrottle", "AnonRateThrottle", "FieldRateThrottle",
           "LongPollRateThrottle",
           "PlayerRateThrottle", "ScopedRateThrottle", "SignUpNameRateThrottle"]
