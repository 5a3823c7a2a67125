"""Domain errors and the API's single error envelope.

Every non-2xx body is ``{"code": "...", "message": "...", "extra": {...}}``; clients switch on
``code``. Domain errors (``ApplicationError``) carry their status; other coded errors (an app's
errors raised below the web layer, such as the game engines') get theirs from the map their app
registers with ``register_error_status``; DRF's own errors are reshaped into the same envelope.

A database that cannot be reached (``django.db.OperationalError`` / ``InterfaceError``: refused,
closed by the server, too many clients, no pooled connection free in time; a connection that
PgBouncer left with a stray answer after a PostgreSQL restart) is answered
``503 service_unavailable`` with ``Retry-After``, whichever view it interrupts: DRF views through
``api_exception_handler``, other views (the async long-poll views) through
``DatabaseUnavailableMiddleware``, and the rest through the 500 handler (``config.api``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, InternalError, OperationalError, connections
from django.http import Http404, JsonResponse
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response

from config import replica
from config.database import outage_log

# --------------------------------------------------------------------------- the code registry


@dataclass(frozen=True)
class ErrorCode:
    """One code the API may answer, at one HTTP status, with what it means."""

    status: int
    code: str
    description: str


_ERROR_CODES: dict[tuple[int, str], ErrorCode] = {}


def declare_error_code(http_status: int, code: str, description: str) -> None:
    """List ``code`` among the API's answers at ``http_status`` (docs/api.md's table and the
    OpenAPI schema read this registry). Declaring the same pair again keeps the first
    description."""
    _ERROR_CODES.setdefault((http_status, code), ErrorCode(http_status, code, description))


def error_codes() -> list[ErrorCode]:
    """Every declared code, by status then code. Codes are declared by the modules that raise
    them, so this is complete once the URL configuration (and with it every view) is loaded."""
    return [_ERROR_CODES[key] for key in sorted(_ERROR_CODES)]


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n\n")[0].replace("\n", " ").strip()


# The envelope's codes that come from the framework rather than from an app's errors.
for _status, _code, _text in [
    (400, "validation_error", "A parameter or body field is missing, unknown or of the wrong "
                              "type or value; `extra.fields` names each with its problems."),
    (400, "malformed_json", "The body is not valid UTF-8 JSON, or nests too deeply."),
    (400, "bad_request", "The request could not be read at all (for example a bad Host)."),
    (401, "not_authenticated", "No credentials were sent."),
    (401, "authentication_failed", "The token or the username and password are wrong, or the "
                                   "token expired."),
    (403, "permission_denied", "The caller may not do this."),
    (404, "not_found", "No such resource, or it is not visible to the caller."),
    (405, "method_not_allowed", "The endpoint does not take this HTTP method."),
    (406, "not_acceptable", "The `Accept` header asks for a media type the endpoint does not "
                            "serve."),
    (413, "request_too_large", "The request body is too large."),
    (415, "unsupported_media_type", "The body is not sent as `application/json`."),
    (429, "throttled", "Too many requests; `extra.retry_after` and `Retry-After` say when to "
                       "try again. A player who must act is never throttled on that move."),
    (503, "service_unavailable", "The database cannot be reached for now; "
                                 "`extra.retry_after` and `Retry-After` say when to retry."),
]:
    declare_error_code(_status, _code, _text)


class ApplicationError(Exception):
    """A coded domain error. Subclasses set ``code``, ``http_status`` and a default message;
    each subclass is declared in the code registry (unless defined with ``listed=False``, for
    a base class that is never raised itself)."""

    code = "application_error"
    http_status = status.HTTP_400_BAD_REQUEST
    # Messages are for people, in the caller's language: a subclass's default is marked with
    # gettext_lazy, a message given when raising with gettext (the raise happens inside the
    # view, where the caller's language is active). The code never changes with the language.
    default_message: Any = gettext_lazy("The request could not be completed.")

    def __init_subclass__(cls, *, listed: bool = True, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if listed:
            declare_error_code(cls.http_status, cls.code,
                               _first_line(cls.__doc__) or cls.default_message)

    def __init__(self, message: str | None = None, **extra: Any) -> None:
        self.message: Any = message or self.default_message
        self.extra = extra
        super().__init__(self.message)


class NotFound(ApplicationError):
    code = "not_found"
    http_status = status.HTTP_404_NOT_FOUND
    default_message = gettext_lazy("Not found.")


class Conflict(ApplicationError, listed=False):
    code = "conflict"
    http_status = status.HTTP_409_CONFLICT


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"
    default_detail = gettext_lazy("The request body is too large.")


class CodedError(Protocol):
    """What the envelope reads from an error: a stable code, a message and extra fields."""

    code: str
    message: str
    extra: Mapping[str, Any]


# Exception class -> (HTTP status by code, status for any other code). Filled by the apps at
# start-up (their AppConfig.ready), so this module needs to know none of them.
_REGISTERED_STATUS: dict[type[Exception], tuple[dict[str, int], int]] = {}
# Exception class -> what its message says in the active language (for errors raised below the
# web layer, such as the engines', whose messages are English).
_REGISTERED_MESSAGE: dict[type[Exception], Callable[[Any], str]] = {}


def register_error_status(exception_class: type[Exception], status_by_code: Mapping[str, int],
                          *, default: int = status.HTTP_400_BAD_REQUEST,
                          message: Callable[[Any], str] | None = None) -> None:
    """Answer ``exception_class`` and its subclasses with the envelope, at the status their
    ``code`` maps to (``default`` for a code not in the map). The class's instances must have
    ``code``, ``message`` and ``extra`` (see ``CodedError``). Each code of the map is declared
    in the code registry, described by the first line of the docstring of the subclass that
    has it. ``message``, if given, makes the envelope's message of such an error in the active
    language (the default is the error's own ``message``)."""
    _REGISTERED_STATUS[exception_class] = (dict(status_by_code), default)
    if message is not None:
        _REGISTERED_MESSAGE[exception_class] = message
    docs: dict[str, str] = {}
    pending = [exception_class]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        code = cls.__dict__.get("code")
        if isinstance(code, str):
            docs.setdefault(code, _first_line(cls.__doc__))
    for code, http_status in status_by_code.items():
        declare_error_code(http_status, code, docs.get(code) or code.replace("_", " "))


def registered_status(exc: Exception) -> int | None:
    """The status registered for ``exc``'s class (or the nearest base class), else None."""
    for cls in type(exc).__mro__:
        if cls in _REGISTERED_STATUS:
            by_code, default = _REGISTERED_STATUS[cls]
            return by_code.get(getattr(exc, "code", ""), default)
    return None


# DRF default codes renamed to the envelope's vocabulary.
DRF_CODE_NAMES = {
    "parse_error": "malformed_json",
    "unsupported_media_type": "unsupported_media_type",
    "not_acceptable": "not_acceptable",
    "method_not_allowed": "method_not_allowed",
}


def registered_message(exc: Exception) -> str:
    """``exc``'s message in the active language (see ``register_error_status``)."""
    for cls in type(exc).__mro__:
        if cls in _REGISTERED_MESSAGE:
            return _REGISTERED_MESSAGE[cls](exc)
    return str(getattr(exc, "message", exc))


def envelope(code: str, message: Any, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    # str(): a lazily translated message becomes text in the active language here.
    return {"code": code, "message": str(message), "extra": extra or {}}


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


# --------------------------------------------------------------------------- database outages

SERVICE_UNAVAILABLE = "service_unavailable"


def is_database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be used at all (not a bad query): a lost,
    refused or timed-out connection, the server refusing work, or a connection left holding an
    answer nobody asked for; a retry may succeed."""
    if isinstance(exc, OperationalError | InterfaceError):
        return True
    return isinstance(exc, InternalError) and _stray_answer(exc.__cause__)


def _stray_answer(cause: BaseException | None) -> bool:
    """psycopg's own complaint, with no SQLSTATE from any server, that a command got more
    answers than it asked for ("received 2 results from command 'BEGIN'"): PgBouncer passes
    on the error of a server connection that a PostgreSQL restart ended to an idle client
    connection, and the client's next command reads it. The connection, not the query, is at
    fault; a server's own internal error (SQLSTATE XX000) is not this."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg comes with the PostgreSQL settings
        return False
    return (isinstance(cause, psycopg.InternalError) and cause.sqlstate is None
            and "results from command" in str(cause))


def retry_after_seconds() -> int:
    return int(getattr(settings, "DB_RETRY_AFTER_SECONDS", 3))


def database_unavailable(exc: BaseException) -> tuple[dict[str, Any], dict[str, str]]:
    """The 503 envelope and headers for a database outage. Logs the outage (once per outage,
    not per request) and drops this thread's broken connections, so the next request connects
    afresh (or takes a checked connection from the pool)."""
    outage_log.record(exc)
    _drop_broken_connections(exc)
    seconds = retry_after_seconds()
    body = envelope(SERVICE_UNAVAILABLE,
                    _("The service is temporarily unavailable. Retry in %(seconds)d seconds.")
                    % {"seconds": seconds},
                    {"retry_after": seconds})
    return body, {"Retry-After": str(seconds)}


def _drop_broken_connections(exc: BaseException) -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue  # not connected, or an atomic block's exit deals with it
        if conn.alias == replica.REPLICA and conn.errors_occurred:
            replica.HEALTH.failed(exc)  # the next reads go to the primary
        try:
            conn.close_if_unusable_or_obsolete()
        except Exception:  # noqa: BLE001 - closing a dead connection may fail too
            conn.connection = None


def database_unavailable_response(exc: BaseException) -> JsonResponse:
    """The 503 answer for views outside DRF."""
    body, headers = database_unavailable(exc)
    return JsonResponse(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=headers)


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Answers a database outage that escapes any view (the async long-poll views included)
    with the 503 envelope instead of Django's 500. Sync and async capable."""

    def process_exception(self, request: Any, exception: Exception) -> JsonResponse | None:
        if is_database_unavailable(exception):
            return database_unavailable_response(exception)
        return None


# --------------------------------------------------------------------------- the DRF handler

def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    # Imported here: rest_framework.views loads the configured parsers, which import this module.
    from rest_framework.views import exception_handler, set_rollback

    if is_database_unavailable(exc):
        set_rollback()
        body, headers = database_unavailable(exc)
        return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers=headers)
    http_status = exc.http_status if isinstance(exc, ApplicationError) else registered_status(exc)
    if http_status is not None:
        set_rollback()
        coded = cast(CodedError, exc)
        text = coded.message if isinstance(exc, ApplicationError) else registered_message(exc)
        return Response(envelope(coded.code, text, dict(coded.extra)), status=http_status)
    exc = _to_drf(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = envelope("validation_error", _("Validation error."),
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
