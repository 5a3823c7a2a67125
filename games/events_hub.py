"""Wake-ups for long-polling clients: after a commit, writers publish on a channel per match
and per user; waiting requests listen and then read what is new from the database.

Only "something changed" travels through the hub, never game data: what a client receives is
always read again through the selectors, redacted for that client. With Redis configured
(EVENTS_REDIS_URL, or a redis:// CELERY_BROKER_URL) messages go through Redis pub/sub, so any
process may wake any waiting client; without it waiting clients poll the database.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from django.conf import settings

logger = logging.getLogger(__name__)

PREFIX = "boardpost:"


def match_channel(match_id: object) -> str:
    return f"{PREFIX}match:{match_id}"


def user_channel(user_id: object) -> str:
    return f"{PREFIX}user:{user_id}"


@lru_cache(maxsize=1)
def _redis():
    url = settings.EVENTS_REDIS_URL
    if not url:
        return None
    import redis

    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def publish(*channels: str) -> None:
    """Tell waiting clients of these channels that something changed. Never raises: a lost
    wake-up only delays a client until its wait ends."""
    client = _redis()
    if client is None or not channels:
        return
    try:
        with client.pipeline(transaction=False) as pipe:
            for channel in channels:
                pipe.publish(channel, b"1")
            pipe.execute()
    except Exception:  # noqa: BLE001 - the broker being down must not fail a move
        logger.warning("could not publish wake-ups on %s", channels, exc_info=True)
