"""Throttles: a budget for anonymous callers and for each signed-in user, except that the move
of a player who must act now is never refused.

The counters live in the default cache. On Redis (CACHE_URL=redis://...) that is
``config.cache.FallbackRedisCache``: while Redis is away the budgets are counted in each
process's memory instead, so an outage neither fails nor stalls a request and a caller still
gets at most one budget per process (the anonymous one keeps slowing down password guessing)."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle


class PlayerRateThrottle(UserRateThrottle):
    """Per-user budget. A view may let some requests through regardless by defining
    ``throttle_exempt(request) -> bool`` (the match move view does, for a seat that must act,
    so a busy client can never be locked out of its own turn)."""

    def allow_request(self, request: Any, view: Any) -> bool:
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


__all__ = ["AnonRateThrottle", "LongPollRateThrottle", "PlayerRateThrottle",
           "ScopedRateThrottle"]
