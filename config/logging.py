"""Log lines: JSON (one object per line, the production default) or plain text (``make run``),
chosen with ``LOG_FORMAT`` (``json`` or ``plain``); the level with ``DJANGO_LOG_LEVEL``.

Every line carries the context ``config.request_id.LogContextFilter`` adds: ``request_id``
(also in the response's ``X-Request-ID`` and in the tasks the request queued), ``user_id`` and
``match_id`` when known, and in a worker the ``task`` and ``task_id``. ``RedactingFilter`` keeps
secrets out of every line whatever a caller logs: API keys (``bp_...``), ``Token``/``Bearer``
credentials and password fields are replaced, and SQL statements (``django.db.backends`` below
WARNING; their parameters carry game state, hidden cards included) are dropped. Nothing in the
project logs a match's state, a view or a request body; the filter is the second line of
defence.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

CONTEXT_FIELDS = ("request_id", "user_id", "match_id", "task", "task_id")
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(message)s"
PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"

REDACTED = "[redacted]"
_SECRETS = [
    # API keys (bp_ and 43 URL-safe characters), wherever they appear, even cut short.
    (re.compile(r"bp_[A-Za-z0-9_\-]{16,}"), "bp_" + REDACTED),
    # Credentials of an Authorization header.
    (re.compile(r"\b(Token|Bearer|Basic)(\s+)[A-Za-z0-9._~+/=\-]{6,}"), r"\1\2" + REDACTED),
    # password=..., "password": "...", 'password': '...'
    (re.compile(r"""(?i)(["']?(?:password|passwd|secret)["']?\s*[:=]\s*)(["']?)[^"'\s,}&]+"""),
     r"\1\2" + REDACTED),
]


def redact(text: str) -> str:
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class RedactingFilter(logging.Filter):
    """Renders each record's message (and traceback) once and redacts secrets in it; drops SQL
    statement logs. Install it on a handler, after ``LogContextFilter``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("django.db.backends") and record.levelno < logging.WARNING:
            return False
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string still gets logged
            message = str(record.msg)
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        # Django adds the request object (its repr has the query string) to its request logs.
        record.__dict__.pop("request", None)
        for key in CONTEXT_FIELDS:
            if not hasattr(record, key):
                setattr(record, key, None)
        return True


class JsonFormatter(_JsonFormatter):
    """One JSON object per line: time, level, logger, message, the context fields and any
    ``extra`` the caller gave (redacted when it is text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("rename_fields", {"asctime": "time", "levelname": "level",
                                            "name": "logger"})
        kwargs.setdefault("json_ensure_ascii", False)
        super().__init__(JSON_FIELDS, *args, **kwargs)

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        for key, value in list(log_data.items()):
            if value is None and key in CONTEXT_FIELDS:
                del log_data[key]
            elif isinstance(value, str) and key != "message":
                log_data[key] = redact(value)
        return log_data


class PlainFormatter(logging.Formatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(PLAIN_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        if getattr(record, "request_id", None) is None:
            record.request_id = "-"
        return super().format(record)


def logging_config(fmt: str = "json", level: str = "INFO") -> dict[str, Any]:
    """The ``LOGGING`` setting: one console handler (stderr) with the context and redaction
    filters and the chosen format."""
    if fmt not in ("json", "plain"):
        raise ValueError(f"LOG_FORMAT must be json or plain, not {fmt!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "context": {"()": "config.request_id.LogContextFilter"},
            "redact": {"()": "config.logging.RedactingFilter"},
        },
        "formatters": {
            "json": {"()": "config.logging.JsonFormatter"},
            "plain": {"()": "config.logging.PlainFormatter"},
        },
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": fmt,
                        "filters": ["context", "redact"]},
        },
        "root": {"handlers": ["console"], "level": level},
        # SQL statements carry game state in their parameters: never below WARNING.
        "loggers": {"django.db.backends": {"level": "WARNING"}},
    }


def handler_for(stream: Any, fmt: str = "json") -> logging.Handler:
    """A handler exactly like the configured console handler, writing to ``stream`` (tests)."""
    from config.request_id import LogContextFilter

    handler = logging.StreamHandler(stream)
    handler.addFilter(LogContextFilter())
    handler.addFilter(RedactingFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else PlainFormatter())
    return handler
