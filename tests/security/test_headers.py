"""Security headers: a Content-Security-Policy with no inline script allowed (the web client's
import map carries the response's nonce), and Django's own headers."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    parsed = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            parsed[words[0]] = words[1:]
    return parsed


@pytest.mark.parametrize("path", ["/", "/signin", "/lobby"])
def test_the_web_client_has_a_strict_csp_and_its_import_map_the_nonce(path):
    response = Client().get(path)
    assert response.status_code == 200
    policy = directives(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["style-src"] == ["'self'"]
    script = policy["script-src"]
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    nonces = [source for source in script if source.startswith("'nonce-")]
    assert len(nonces) == 1
    nonce = nonces[0][len("'nonce-"):-1]
    html = response.content.decode()
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html)
    assert inline == [f' type="importmap" nonce="{nonce}"'], inline
    # A fresh nonce for every response.
    assert directives(Client().get(path))["script-src"] != script


def test_the_web_client_sends_the_other_security_headers():
    response = Client().get("/")
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_api_answers_carry_the_policy_too(api_client):
    response = api_client.get("/api/games")
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_api_docs_load_their_script_from_a_url():
    response = Client().get("/api/docs")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    policy = directives(response)
    assert "'unsafe-inline'" not in policy["script-src"]
    script = re.search(r'<script src="(/api/docs\?[^"]+)"', html)
    assert script is not None
    loaded = Client().get(script.group(1).replace("&amp;", "&"))
    assert loaded.status_code == 200 and "SwaggerUIBundle" in loaded.content.decode()


def test_https_headers_when_served_securely(settings):
    settings.SECURE_HSTS_SECONDS = 31536000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_HSTS_PRELOAD = True
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = Client().get("/api/games")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    secure = Client().get("/api/games", HTTP_X_FORWARDED_PROTO="https")
    assert secure["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload")
