"""Throttles: a budget for anonymous callers and for each signed-in user, except that the move
of a player who must act now is never refused."""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle


class PlayerRateThrottle(UserRateThrottle):
    """Per-user budget. Views that set ``throttle_exempt_actor`` let a seat that must act
    through regardless, so a busy client can never be locked out of its own turn."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if super().allow_request(request, view):
            return True
        # Over budget: only now is it worth asking whether the caller must act in this match.
        if getattr(view, "throttle_exempt_actor", False) and request.user.is_authenticated:
            from games.models import Seat

            match_id = view.kwargs.get("match_id")
            seats = Seat.objects.filter(match_id=match_id, user=request.user).values_list(
                "index", "match__actors")
            return any(index in actors for index, actors in seats)
        return False


class LongPollRateThrottle(UserRateThrottle):
    """A per-user budget of its own for the long-poll endpoints. A client that waits for news
    asks again as soon as an answer comes, so during a lively match it asks often; a separate,
    larger budget keeps that from starving its other requests while still stopping a client
    that loops without waiting."""

    scope = "longpoll"


__all__ = ["AnonRateThrottle", "LongPollRateThrottle", "PlayerRateThrottle",
           "ScopedRateThrottle"]
