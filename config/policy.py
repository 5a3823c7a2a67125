"""The Content-Security-Policy header (django-csp), its text built once per process.

django-csp builds the header from ``CONTENT_SECURITY_POLICY`` on every response: a copy of the
settings' directives, a pass over the 32 directives it knows and the text joined anew, about
55 µs of CPU per request, the dearest of the middleware for an API call (``manage.py
stack_costs``; 11 µs with this). The policy of a
response that neither carries a nonce nor changes the policy (``csp_update`` and its kin) is the
same for every such response, so ``CSPMiddleware`` keeps that text per process and sets it;
the web client's pages, whose import map carries a fresh nonce, and the few views that change
the policy have theirs built as django-csp builds it. The kept text is dropped when a test
changes the settings it comes from.
"""

from __future__ import annotations

import http.client
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponseBase

# Settings key -> header name; the report-only policy is built and set like the policy.
POLICIES = (("CONTENT_SECURITY_POLICY", HEADER, False),
            ("CONTENT_SECURITY_POLICY_REPORT_ONLY", HEADER_REPORT_ONLY, True))
# What django-csp shows the debug page without a policy (as it does).
DEBUG_EXEMPT = (http.client.INTERNAL_SERVER_ERROR, http.client.NOT_FOUND)

_kept: dict[bool, str] = {}


def _plain(parts: PolicyParts) -> bool:
    """Whether ``parts`` are the settings' policy alone: no nonce, nothing the view changed."""
    return (parts.config is None and parts.update is None and parts.replace is None
            and parts.nonce is None)


def policy_text(parts: PolicyParts, report_only: bool) -> str:
    """The header's text for ``parts``, as django-csp's ``build_policy`` makes it (the
    settings' own policy from memory after its first use in this process)."""
    if not _plain(parts):
        return build_policy(config=parts.config, update=parts.update, replace=parts.replace,
                            nonce=parts.nonce, report_only=report_only)
    text = _kept.get(report_only)
    if text is None:
        text = _kept[report_only] = build_policy(report_only=report_only)
    return text


def _forget(setting: str = "", **_: Any) -> None:
    if setting in ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"):
        _kept.clear()


setting_changed.connect(_forget, dispatch_uid="boardpost_policy_forget")


class CSPMiddleware(DjangoCSPMiddleware):
    """django-csp's middleware (its nonce, its decorators, its exemptions and prefixes, the
    nonce refused once the header is written), with the settings' policy text kept per
    process (``policy_text``)."""

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        if response.status_code in DEBUG_EXEMPT and settings.DEBUG:
            return response
        for setting, header, report_only in POLICIES:
            parts = self.get_policy_parts(request=request, response=response,
                                          report_only=report_only)
            text = policy_text(parts, report_only)
            if not text or header in response:
                continue
            exempt_attr = "_csp_exempt_ro" if report_only else "_csp_exempt"
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if (getattr(response, exempt_attr, False) is False
                    and not request.path_info.startswith(tuple(prefixes))):
                response[header] = text
        if getattr(request, "_csp_nonce", None) is None:
            request.csp_nonce = CheckableLazyObject(  # type: ignore[attr-defined]
                self._csp_nonce_post_response)
        return response
