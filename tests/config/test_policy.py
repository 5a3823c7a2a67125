"""The Content-Security-Policy header (config.policy): the settings' policy, kept per process, is
exactly django-csp's; pages with a nonce and views that change the policy get theirs built as
django-csp builds them; a change of the settings is seen at once."""

from __future__ import annotations

import pytest
from csp.exceptions import CSPNonceError
from csp.middleware import PolicyParts
from csp.utils import build_policy
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import override_settings

from config import policy
from config.policy import CSPMiddleware

pytestmark = pytest.mark.django_db


def test_the_kept_text_is_django_csp_s_and_built_once():
    policy._kept.clear()
    text = policy.policy_text(PolicyParts(), report_only=False)
    assert text == build_policy()
    assert policy._kept[False] is text
    assert policy.policy_text(PolicyParts(), report_only=False) is text


def test_a_nonce_or_a_change_is_built_as_django_csp_builds_it():
    parts = PolicyParts(nonce="abc123", update={"style-src": ["'unsafe-inline'"]})
    assert policy.policy_text(parts, report_only=False) == build_policy(
        nonce="abc123", update={"style-src": ["'unsafe-inline'"]})
    assert "'nonce-abc123'" in policy.policy_text(PolicyParts(nonce="abc123"), False)


def test_an_api_answer_has_the_settings_policy(client_for, alice):
    response = client_for(alice).get("/api/me")
    assert response["Content-Security-Policy"] == build_policy()
    assert "'nonce-" not in response["Content-Security-Policy"]
    assert "Content-Security-Policy-Report-Only" not in response


def test_the_api_docs_keep_their_own_change_of_the_policy(client_for, alice):
    docs = Client().get("/api/docs")["Content-Security-Policy"]
    assert "style-src 'self' 'unsafe-inline'" in docs
    assert "'unsafe-inline'" not in client_for(alice).get("/api/me")["Content-Security-Policy"]


def test_a_change_of_the_settings_is_seen_at_once(client_for, alice):
    client = client_for(alice)
    client.get("/api/me")
    changed = {"DIRECTIVES": {"default-src": ["'none'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=changed,
                           CONTENT_SECURITY_POLICY_REPORT_ONLY={
                               "DIRECTIVES": {"default-src": ["'self'"]},
                               "EXCLUDE_URL_PREFIXES": ["/api/games"]}):
        response = client.get("/api/me")
        assert response["Content-Security-Policy"] == "default-src 'none'"
        assert response["Content-Security-Policy-Report-Only"] == "default-src 'self'"
        assert "Content-Security-Policy-Report-Only" not in client.get("/api/games")
    assert client.get("/api/me")["Content-Security-Policy"] == build_policy()


def test_the_nonce_cannot_be_read_once_the_header_is_written():
    request = RequestFactory().get("/api/me")
    middleware = CSPMiddleware(lambda request: None)
    middleware.process_request(request)
    response = middleware.process_response(request, HttpResponse("ok"))
    assert response["Content-Security-Policy"] == build_policy()
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)
