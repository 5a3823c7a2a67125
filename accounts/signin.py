"""Sign-in lockouts (django-axes) answered the API's way.

Axes counts wrong passwords per account and per client address (``accounts.clientip``), for the
API token endpoint and the admin login alike, and refuses further sign-ins for a cool-off time
once either reaches the limit. Its middleware then calls ``lockout_response``: a 429 with the
usual error envelope (code ``too_many_attempts``) and ``Retry-After``.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, JsonResponse

from config.exceptions import declare_error_code, envelope

LOCKED_OUT_CODE = "too_many_attempts"
declare_error_code(429, LOCKED_OUT_CODE, "Too many failed sign-ins for the account or from the "
                   "address; `Retry-After` says when to try again.")


def retry_after_seconds(request: HttpRequest | None = None) -> int:
    cool_off = get_cool_off(request)
    return max(1, math.ceil(cool_off.total_seconds())) if cool_off else 3600


def lockout_response(request: HttpRequest, original_response: Any = None,
                     credentials: Any = None) -> JsonResponse:
    wait = retry_after_seconds(request)
    response = JsonResponse(envelope(
        LOCKED_OUT_CODE,
        "Too many failed sign-ins for this account or from this address; try again later.",
        {"retry_after": wait}), status=429)
    response["Retry-After"] = str(wait)
    return response
