"""Reads of the accounts app."""

from __future__ import annotations

from typing import Any

from accounts.models import ApiToken, User


def token_list(*, user: User, current: ApiToken | None = None) -> list[dict[str, Any]]:
    """``user``'s tokens, newest first; ``current`` marks the token of the request."""
    return [
        {"id": token.pk, "name": token.name, "prefix": token.prefix,
         "created": token.created, "expires": token.expires,
         "current": current is not None and token.pk == current.pk}
        for token in ApiToken.objects.filter(user=user).order_by("-created", "-pk")
    ]
