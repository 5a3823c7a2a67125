"""Pieces every API module shares: strict input serializers, a size-bounded JSON parser, the
error envelope's schema, and JSON answers for URLs no view handles."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import pagination, serializers
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.response import Response

from config.exceptions import (
    RequestTooLarge,
    database_unavailable_response,
    envelope,
    is_database_unavailable,
)


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses fields it does not declare and non-object bodies."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"non_field_errors": ["The request body must be a JSON object."]}
            )
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: ["Unknown field."] for name in unknown})
        return super().to_internal_value(data)


# No request needs deeper nesting (a move is about four levels deep); deeper input would only
# reach Python's recursion limit somewhere later.
MAX_JSON_DEPTH = 32


class StrictSerializerSchema(OpenApiSerializerExtension):
    """In the OpenAPI schema a StrictSerializer's object has ``additionalProperties: false``,
    as the serializer refuses fields it does not declare."""

    target_class = StrictSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


class BoundedJSONParser(JSONParser):
    """JSON parser that reads at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes (DRF streams the body
    past Django's own limit) and refuses anything that is not valid UTF-8 JSON, nests deeper
    than MAX_JSON_DEPTH or holds a lone surrogate (``"\\ud800"``), which no later code could
    encode."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge()
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
        except RecursionError:
            raise ParseError("The request body is nested too deeply.") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc
        _check_tree(data)
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _check_tree(data: Any) -> None:
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ParseError("The request body holds an invalid Unicode string.") from None
        elif isinstance(value, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ParseError("The request body is nested too deeply.")
            if isinstance(value, dict):
                stack.extend((key, depth + 1) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)


class CursorPagination(pagination.CursorPagination):
    """DRF's cursor pagination, except that a forged cursor whose position does not fit the
    ordering field answers 404 "Invalid cursor." like any other bad cursor, not a 500. The page
    size is asked for with ``limit``. Declare one with ``cursor_pagination``."""

    page_size_query_param = "limit"

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except (TypeError, ValueError, DjangoValidationError):
            raise NotFound(self.invalid_cursor_message) from None

    @classmethod
    def respond(cls, queryset: Any, request: Any, view: Any,
                render: Callable[[list[Any]], Any]) -> Response:
        """The paginated answer: the page of ``queryset`` the request's cursor and ``limit``
        point at, each row rendered by ``render``, with the next and previous links."""
        paginator = cls()
        page = paginator.paginate_queryset(queryset, request, view=view)
        return paginator.get_paginated_response(render(page))


def cursor_pagination(name: str, *, ordering: tuple[str, ...], page_size: int,
                      max_page_size: int) -> type[CursorPagination]:
    """A cursor paginator class: rows in ``ordering`` (which must end in a unique field),
    ``page_size`` to a page unless ``limit`` asks for another size, at most ``max_page_size``.
    A view names it as its ``pagination_class`` (so the schema shows the paginated envelope)
    and answers with ``respond``."""
    return type(name, (CursorPagination,), {
        "ordering": ordering, "page_size": page_size, "max_page_size": max_page_size})


def schema_serializer(name: str, fields: dict[str, serializers.Field]) -> type:
    """A named output-only serializer class built from a field dict, for the OpenAPI schema."""
    return type(f"{name}Serializer", (serializers.Serializer,), dict(fields))


ErrorSerializer = schema_serializer("Error", {
        "code": serializers.CharField(help_text="Stable machine-readable code."),
        "message": serializers.CharField(help_text="Human-readable explanation."),
        "extra": serializers.DictField(help_text="Details, e.g. `rule` or `fields`."),
    },
)


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an endpoint can answer with."""
    descriptions = {
        400: "Malformed request, validation error, malformed move or invalid options.",
        401: "Missing or invalid credentials.",
        403: "Not allowed.",
        404: "Not found, or not visible to the caller.",
        409: "Conflict: not_your_turn, stale_version, game_over, match_full, ...",
        413: "Request body too large.",
        422: "illegal_move: the move breaks a rule named in extra.rule.",
        429: "Throttled; see Retry-After.",
        503: "service_unavailable: the database cannot be reached for now; see Retry-After.",
    }
    base = {401, 413, 429}
    return {code: OpenApiResponse(ErrorSerializer, description=descriptions[code])
            for code in sorted(base | set(statuses))}


def json_not_found(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("not_found", "Not found."), status=404)


def json_server_error(request: Any) -> JsonResponse:
    # Django calls this while handling the exception (on the request's thread): a database
    # outage that no view handler saw (in a middleware, say) still answers 503.
    exc = sys.exc_info()[1]
    if exc is not None and is_database_unavailable(exc):
        return database_unavailable_response(exc)
    return JsonResponse(envelope("server_error", "Internal server error."), status=500)


def json_bad_request(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("bad_request", "Bad request."), status=400)


def json_permission_denied(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("permission_denied", "Permission denied."), status=403)
