"""The client's address, as far as this server can trust it.

``TRUSTED_PROXY_COUNT`` (DRF's ``NUM_PROXIES``) says how many reverse proxies sit in front of
Django. With none, the socket's address (``REMOTE_ADDR``) is the client's and X-Forwarded-For
is ignored, so a client cannot choose the address it is counted under. With N proxies, each
appends the address it received from to X-Forwarded-For, and the N-th entry from the right is
the client's. Throttles, sign-in lockouts and their logs all use this one answer: it is DRF's
own throttle identity, so the two can never disagree.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import BaseThrottle


def client_ip(request: Any) -> str:
    """The client address of ``request`` (a Django ``HttpRequest`` or a DRF ``Request``)."""
    return str(BaseThrottle().get_ident(request) or "")
