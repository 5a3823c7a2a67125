"""Real parts for the notification tests: a local Web Push service that checks the VAPID JWT
and decrypts each payload with the subscription's private key, a local SMTP server (aiosmtpd)
that receives the mails, and Redis for the presence records."""

from __future__ import annotations

import base64
import email
import email.policy
import json
import os
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.conf import settings as django_settings

from games.notify.push import b64url, b64url_decode, generate_keys
from tests.notify.helpers import SWEEP_GRACE

SUBJECT = "mailto:operator@example.org"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --------------------------------------------------------------------------- Web Push


@dataclass
class Device:
    """A browser's push subscription: its endpoint, keys, and the private key to read it."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    def as_json(self, name: str = "") -> dict[str, Any]:
        body: dict[str, Any] = {"endpoint": self.endpoint, "expirationTime": None,
                                "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}
        if name:
            body["name"] = name
        return body


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    claims: dict[str, Any]
    payload: dict[str, Any]


@dataclass
class PushService:
    """What a push service would do with each POST: check the VAPID signature and claims
    (RFC 8292), then (as the device would) decrypt the aes128gcm body (RFC 8291)."""

    port: int
    public_key: str
    devices: dict[str, Device] = field(default_factory=dict)
    received: list[Received] = field(default_factory=list)
    # Statuses to answer, in order, per device path; 201 when none is left.
    answers: dict[str, deque[int]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def device(self) -> Device:
        path = f"/push/{len(self.devices) + 1}-{os.urandom(4).hex()}"
        dev = Device(endpoint=f"http://127.0.0.1:{self.port}{path}",
                     private_key=ec.generate_private_key(ec.SECP256R1()), auth=os.urandom(16))
        self.devices[path] = dev
        return dev

    def answer(self, device: Device, *statuses: int) -> None:
        self.answers[device.endpoint.split(str(self.port), 1)[1]] = deque(statuses)

    def for_device(self, device: Device) -> list[dict[str, Any]]:
        path = device.endpoint.split(str(self.port), 1)[1]
        return [r.payload for r in self.received if r.path == path]

    def handle(self, path: str, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            queued = self.answers.get(path)
            status = queued.popleft() if queued else 201
        device = self.devices.get(path)
        if device is None:
            return 404
        claims = self._check_vapid(headers)
        for name in ("TTL", "Content-Encoding"):
            if name.lower() not in headers:
                self.problems.append(f"no {name} header")
        if headers.get("content-encoding") != "aes128gcm":
            self.problems.append(f"content encoding {headers.get('content-encoding')}")
        plain = http_ece.decrypt(body, private_key=device.private_key, auth_secret=device.auth,
                                 version="aes128gcm")
        if status < 300:
            with self.lock:
                self.received.append(Received(path, headers, claims, json.loads(plain)))
        return status

    def _check_vapid(self, headers: dict[str, str]) -> dict[str, Any]:
        scheme, _, params = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "vapid":
            self.problems.append(f"authorization scheme {scheme!r}")
            return {}
        values = dict(part.strip().split("=", 1) for part in params.split(","))
        if values.get("k") != self.public_key:
            self.problems.append("the k parameter is not the server's public key")
        head, claims_part, signature = values["t"].split(".")
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(),
                                                           b64url_decode(self.public_key))
        raw = b64url_decode(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                   int.from_bytes(raw[32:], "big"))
        try:
            key.verify(der, f"{head}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            self.problems.append("bad VAPID signature")
        header = json.loads(b64url_decode(head))
        claims = json.loads(b64url_decode(claims_part))
        if header.get("alg") != "ES256":
            self.problems.append(f"alg {header.get('alg')}")
        if claims.get("aud") != f"http://127.0.0.1:{self.port}":
            self.problems.append(f"aud {claims.get('aud')}")
        now = time.time()
        if not now < claims.get("exp", 0) <= now + 86400:
            self.problems.append(f"exp {claims.get('exp')}")
        if claims.get("sub") != SUBJECT:
            self.problems.append(f"sub {claims.get('sub')}")
        return dict(claims)


@pytest.fixture
def vapid(settings):
    public, private = generate_keys()
    settings.VAPID_PUBLIC_KEY = public
    settings.VAPID_PRIVATE_KEY = private
    settings.VAPID_SUBJECT = SUBJECT
    # The local push service speaks plain HTTP on 127.0.0.1.
    settings.WEBPUSH_ALLOW_HTTP = True
    return public


@pytest.fixture
def push_service(vapid):
    port = _free_port()
    service = PushService(port=port, public_key=vapid)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length", 0))
            body = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            try:
                status = service.handle(self.path, headers, body)
            except Exception as exc:  # noqa: BLE001 - reported by the test
                service.problems.append(f"{type(exc).__name__}: {exc}")
                status = 400
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield service
    server.shutdown()
    server.server_close()
    assert service.problems == []


# --------------------------------------------------------------------------- SMTP


class MailHandler:
    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.refuse = 0  # the next this many mails are refused with a 451 (try again later)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 Try again later"
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.content,
                                                      policy=email.policy.default))
        return "250 OK"


@pytest.fixture
def smtp(settings):
    handler = MailHandler()
    port = _free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = "http://testserver"
    yield handler
    controller.stop()


def parts(message: email.message.EmailMessage) -> tuple[str, str]:
    """The plain-text and HTML bodies of a mail."""
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    return text.get_content(), html.get_content()


# --------------------------------------------------------------------------- presence


@pytest.fixture(autouse=True)
def _no_presence():
    """Presence and "looked at" records start empty (this test run's Redis database)."""
    url = getattr(django_settings, "EVENTS_REDIS_URL", "")
    if not url:
        yield
        return
    import redis

    client = redis.Redis.from_url(url)

    def clear() -> None:
        for pattern in ("boardpost:presence:*", "boardpost:seen:*"):
            keys = list(client.scan_iter(pattern))
            if keys:
                client.delete(*keys)

    clear()
    yield
    clear()


@pytest.fixture
def sweep_timing(settings):
    """The notification sweep's timing in the tests that run it: a grace of SWEEP_GRACE and a
    lookback of an hour."""
    settings.NOTIFY_SWEEP_GRACE_SECONDS = SWEEP_GRACE
    settings.NOTIFY_SWEEP_LOOKBACK_SECONDS = 3600.0
    settings.NOTIFY_SWEEP_STUCK_SECONDS = 900.0


@pytest.fixture
def eager_retries(monkeypatch):
    """Eager tasks retry in-process at once (the backoff is a worker's), as with errors not
    propagated: Celery re-applies a retried eager task only then."""
    from config.celery_app import app

    monkeypatch.setitem(app.conf, "task_eager_propagates", False)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode()
