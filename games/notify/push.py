"""Web Push (RFC 8030) with VAPID (RFC 8292) and encrypted payloads (RFC 8291, aes128gcm),
through pywebpush.

VAPID_PRIVATE_KEY is the application server's P-256 private key as 32 raw bytes in base64url,
VAPID_PUBLIC_KEY its public key (65 bytes, uncompressed point, base64url: what a browser's
``pushManager.subscribe`` takes as ``applicationServerKey``), VAPID_SUBJECT a ``mailto:`` or
``https:`` contact for push services. ``generate_keys`` makes a pair (``make run`` keeps one
under var/).
"""

from __future__ import annotations

import base64
import json
import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings

logger = logging.getLogger(__name__)

# Seconds a push service may hold a message for a device that is offline.
TTL_SECONDS = 24 * 3600
TIMEOUT_SECONDS = 10.0


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def generate_keys() -> tuple[str, str]:
    """A new VAPID key pair: (public, private), each base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(serialization.Encoding.X962,
                                           serialization.PublicFormat.UncompressedPoint)
    return b64url(public), b64url(private)


def public_key() -> str:
    return str(getattr(settings, "VAPID_PUBLIC_KEY", "") or "")


def configured() -> bool:
    return bool(public_key() and getattr(settings, "VAPID_PRIVATE_KEY", ""))


@lru_cache(maxsize=2)
def _vapid(private: str) -> Any:
    from py_vapid import Vapid  # type: ignore[import-untyped]

    return Vapid.from_raw(private.encode("ascii"))


def valid_client_key(p256dh: str) -> bool:
    """Whether ``p256dh`` is a P-256 public key (uncompressed point, base64url)."""
    try:
        raw = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except (ValueError, TypeError):
        return False
    return len(raw) == 65


@dataclass(frozen=True)
class Outcome:
    """How one push went: ``ok``; ``gone`` (404/410: the subscription no longer exists);
    ``retry`` (the push service or the network may do better later); otherwise refused."""

    status: int | None
    ok: bool = False
    gone: bool = False
    retry: bool = False


def send(*, endpoint: str, p256dh: str, auth: str, payload: dict[str, Any],
         urgency: str = "normal", topic: str | None = None,
         ttl: int = TTL_SECONDS) -> Outcome:
    """Encrypt ``payload`` (JSON) for the subscription and POST it to its push service."""
    import requests
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    headers: dict[str, str | int | float] = {"Urgency": urgency}
    if topic:
        headers["Topic"] = topic
    try:
        response: Any = webpush(
            subscription_info={"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=ttl, timeout=TIMEOUT_SECONDS, headers=headers)
    except WebPushException as exc:
        code = exc.response.status_code if exc.response is not None else None
        if code in (404, 410):
            return Outcome(code, gone=True)
        return Outcome(code, retry=code is None or code == 429 or code >= 500)
    except requests.RequestException as exc:
        logger.info("push service unreachable: %s", type(exc).__name__)
        return Outcome(None, retry=True)
    return Outcome(response.status_code, ok=True)
