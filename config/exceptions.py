"""Domain errors and the API's single error envelope.

Every non-2xx body is ``{"code": "...", "message": "...", "extra": {...}}``; clients switch on
``code``. Domain errors (``ApplicationError``) and engine errors (``EngineError``) map to their
status here; DRF's own errors are reshaped into the same envelope.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from games.kit.protocol import EngineError


class ApplicationError(Exception):
    """A coded domain error. Subclasses set ``code``, ``http_status`` and a default message."""

    code = "application_error"
    http_status = status.HTTP_400_BAD_REQUEST
    default_message = "The request could not be completed."

    def __init__(self, message: str | None = None, **extra: Any) -> None:
        self.message = message or self.default_message
        self.extra = extra
        super().__init__(self.message)


class NotFound(ApplicationError):
    code = "not_found"
    http_status = status.HTTP_404_NOT_FOUND
    default_message = "Not found."


class Conflict(ApplicationError):
    code = "conflict"
    http_status = status.HTTP_409_CONFLICT


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = "The request body is too large."


# Engine error code -> HTTP status.
ENGINE_ERROR_STATUS = {
    "malformed_move": status.HTTP_400_BAD_REQUEST,
    "invalid_config": status.HTTP_400_BAD_REQUEST,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "game_over": status.HTTP_409_CONFLICT,
    "illegal_move": status.HTTP_422_UNPROCESSABLE_ENTITY,
}

# DRF default codes renamed to the envelope's vocabulary.
DRF_CODE_NAMES = {
    "parse_error": "malformed_json",
    "unsupported_media_type": "unsupported_media_type",
    "not_acceptable": "not_acceptable",
    "method_not_allowed": "method_not_allowed",
}


def envelope(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "extra": extra or {}}


def _to_drf(exc: Exception) -> Exception:
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(exc.messages)
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, RequestDataTooBig):
        # DRF reads request.body for JSON, so Django's own size check fires before our parser.
        return RequestTooLarge()
    return exc


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Imported here: rest_framework.views loads the configured parsers, which import this module.
    from rest_framework.views import exception_handler, set_rollback

    if isinstance(exc, (ApplicationError, EngineError)):
        set_rollback()
        http_status = getattr(exc, "http_status", None) or ENGINE_ERROR_STATUS.get(exc.code, 400)
        return Response(envelope(exc.code, exc.message, dict(exc.extra)), status=http_status)
    exc = _to_drf(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = envelope("validation_error", "Validation error.",
                                 {"fields": _plain(exc.detail)})
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        code = DRF_CODE_NAMES.get(code, code)
        extra: dict[str, Any] = {}
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            extra["retry_after"] = int(exc.wait) + 1
        response.data = envelope(code, str(exc.detail), extra)
    return response


def _plain(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {key: _plain(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_plain(value) for value in detail]
    return str(detail)
