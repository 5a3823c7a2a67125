"""Pieces every API module shares: strict input serializers, a size-bounded JSON parser, a fast
JSON renderer, the error envelope's schema, and JSON answers for URLs no view handles."""

from __future__ import annotations

import copy
import json
import re
import sys
from base64 import b64decode
from collections.abc import Callable, Sequence
from typing import Any
from urllib import parse

import orjson
from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import JsonResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import pagination, serializers
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from config.exceptions import (
    RequestTooLarge,
    database_unavailable_response,
    envelope,
    error_codes,
    is_database_unavailable,
)
from config.ordering import SortKey, keyset_beyond, keyset_order, position_of, position_values


class StrictSerializer(serializers.Serializer):
    """An input serializer of a JSON body: it refuses non-object bodies, fields it does not
    declare and values of the wrong JSON type (DRF alone would take ``"yes"`` or ``1`` for a
    boolean, ``"2"`` or ``2.0`` for an integer and ``5`` for a string). A query's parameters
    are always text: their serializers are :class:`QuerySerializer`."""

    from_query = False

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields, each made afresh for this serializer (``fresh_field``), as
        DRF's deep copy of them does at a fraction of its cost: every API call with a body or
        a query pays it."""
        return {name: fresh_field(field) for name, field in self._declared_fields.items()}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {"non_field_errors": [_("The request body must be a JSON object.")]}
            )
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise serializers.ValidationError({name: [_("Unknown field.")] for name in unknown})
        wrong = {name: [problem] for name, value in data.items()
                 if (problem := type_problem(self.fields[name], value, self.from_query))}
        if wrong:
            raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


# Arguments a field never changes, shared by its copies as DRF's deep copy shares them (lazy
# texts copy to themselves; validators and patterns are shared by DRF itself).
_IMMUTABLE = (str, bytes, int, float, bool, type(None), Promise)
_SHARED_ARGUMENTS = frozenset({"validators", "regex"})


def fresh_field(field: serializers.Field) -> serializers.Field:
    """A new field made from the arguments ``field`` was declared with, as DRF's
    ``Field.__deepcopy__`` makes it: fields among them (a list's child, a nested serializer)
    made afresh in turn, other values deep-copied, except those nothing changes."""
    def argument(key: Any, value: Any) -> Any:
        if isinstance(value, serializers.Field):
            return fresh_field(value)
        if key in _SHARED_ARGUMENTS or isinstance(value, _IMMUTABLE) \
                or isinstance(value, re.Pattern):
            return value
        return copy.deepcopy(value)

    return field.__class__(*(argument(None, value) for value in field._args),
                           **{key: argument(key, value) for key, value in field._kwargs.items()})


class QuerySerializer(StrictSerializer):
    """The strict serializer of a query string: booleans are ``true`` or ``false``, integers
    are written in decimal digits, and any parameter it does not declare is refused."""

    from_query = True


_DECIMAL = re.compile(r"-?[0-9]{1,40}")


def type_problem(field: serializers.Field, value: Any, from_query: bool) -> str | None:
    """Why ``value`` is not of the JSON type ``field`` takes (None when it is). ``null`` is
    left to the field's ``allow_null``."""
    if value is None:
        return None
    if isinstance(field, serializers.BooleanField):
        ok = value in ("true", "false") if from_query else isinstance(value, bool)
        return None if ok else _("Must be a boolean: true or false.")
    if isinstance(field, serializers.IntegerField):
        if from_query:
            ok = isinstance(value, str) and _DECIMAL.fullmatch(value) is not None
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else _("Must be an integer.")
    if from_query:
        return None
    if isinstance(field, serializers.ChoiceField):
        choices = list(field.choices)
        if choices and all(isinstance(c, int) and not isinstance(c, bool) for c in choices):
            ok = isinstance(value, int) and not isinstance(value, bool)
            return None if ok else _("Must be an integer.")
        return None if isinstance(value, str) else _("Must be a string.")
    if isinstance(field, serializers.FloatField):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok else _("Must be a number.")
    if isinstance(field, serializers.CharField | serializers.DateTimeField):
        return None if isinstance(value, str) else _("Must be a string.")
    return None


# --------------------------------------------------------------------------- cursors

# DRF's cursor: base64 of a query string with the offset ``o``, ``r=1`` for a reverse page and
# the position ``p``.
CURSOR_OFFSET_CUTOFF = 1000
CURSOR_MAX_LENGTH = 1000
INVALID_CURSOR = gettext_lazy(
    "Invalid cursor: pass a `next` or `previous` link's cursor as it is.")


def cursor_problem(encoded: str) -> str | None:
    """Why ``encoded`` is not a cursor this API issues (None when it could be one)."""
    if len(encoded) > CURSOR_MAX_LENGTH:
        return str(INVALID_CURSOR)
    try:
        text = b64decode(encoded.encode("ascii"), validate=True).decode("ascii")
        tokens = parse.parse_qs(text, keep_blank_values=True, strict_parsing=True)
    except (ValueError, UnicodeError):
        return str(INVALID_CURSOR)
    if set(tokens) - {"o", "r", "p"} or any(len(values) != 1 for values in tokens.values()):
        return str(INVALID_CURSOR)
    offset = tokens.get("o", ["0"])[0]
    if not offset.isdigit() or not offset.isascii() or int(offset) > CURSOR_OFFSET_CUTOFF:
        return str(INVALID_CURSOR)
    if tokens.get("r", ["0"])[0] not in ("0", "1"):
        return str(INVALID_CURSOR)
    position = tokens.get("p", [""])[0]
    if not position.isprintable():
        return str(INVALID_CURSOR)
    return None


class CursorField(serializers.CharField):
    """The ``cursor`` query parameter of a paginated list (from a ``next`` or ``previous``
    link); one that this API could not have issued is a validation error."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", CURSOR_MAX_LENGTH)
        kwargs.setdefault("help_text", "From the previous page's `next` or `previous` link.")
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = cursor_problem(value)
        if problem is not None:
            raise serializers.ValidationError(problem)
        return value


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
        if not type(self.target).__dict__.get("__doc__"):
            # The description is the serializer's own docstring, not this base class's.
            schema.pop("description", None)
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
            raise ParseError(_("The request body is nested too deeply.")) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(_("The request body is not valid JSON: %(reason)s")
                             % {"reason": exc}) from exc
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
                raise ParseError(_("The request body holds an invalid Unicode string.")) from None
        elif isinstance(value, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ParseError(_("The request body is nested too deeply."))
            if isinstance(value, dict):
                stack.extend((key, depth + 1) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)


class ORJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, encoding with orjson: the same bytes, several times faster.

    Dates and times go through DRF's own encoder (orjson would write them its own way), as
    does anything else orjson does not know; U+2028 and U+2029 are escaped as DRF escapes them.
    What orjson refuses (an integer beyond 64 bits, say) and indented output (``Accept:
    application/json; indent=4``) are rendered by DRF's renderer itself. Floats below 1e-4 are
    the one difference: orjson writes ``0.00001`` where Python writes ``1e-05`` (the same number
    to any JSON reader)."""

    _encoder = JSONEncoder()
    _options = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS

    def render(self, data: Any, accepted_media_type: str | None = None,
               renderer_context: Any = None) -> bytes:
        if data is None:
            return b""
        if self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            encoded = orjson.dumps(data, default=self._encoder.default, option=self._options)
        except orjson.JSONEncodeError:
            return super().render(data, accepted_media_type, renderer_context)
        if b"\xe2\x80\xa8" in encoded or b"\xe2\x80\xa9" in encoded:
            encoded = encoded.replace(b"\xe2\x80\xa8", b"\\u2028").replace(
                b"\xe2\x80\xa9", b"\\u2029")
        return encoded


class CursorPagination(pagination.CursorPagination):
    """DRF's cursor pagination, except that any cursor this API could not have issued (forged,
    cut, or with a position that does not fit the ordering field) is a 400 validation error of
    the ``cursor`` parameter, never a 500. The page
    size is asked for with ``limit``. Declare one with ``cursor_pagination``."""

    page_size_query_param = "limit"
    offset_cutoff = CURSOR_OFFSET_CUTOFF

    def decode_cursor(self, request: Any) -> Any:
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is not None and cursor_problem(encoded) is not None:
            raise _invalid_cursor()
        try:
            return super().decode_cursor(request)
        except NotFound:
            raise _invalid_cursor() from None

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except (TypeError, ValueError, DjangoValidationError):
            raise _invalid_cursor() from None

    @classmethod
    def respond(cls, queryset: Any, request: Any, view: Any,
                render: Callable[[list[Any]], Any]) -> Response:
        """The paginated answer: the page of ``queryset`` the request's cursor and ``limit``
        point at, each row rendered by ``render``, with the next and previous links."""
        paginator = cls()
        page = paginator.paginate_queryset(queryset, request, view=view)
        return paginator.get_paginated_response(render(page))


def _invalid_cursor() -> serializers.ValidationError:
    return serializers.ValidationError({"cursor": [INVALID_CURSOR]})


class KeysetPagination(CursorPagination):
    """Cursor pagination over a unique key of several fields (``config.ordering``): a cursor
    holds the position of the row a page ended on (every key's value), and the next page
    starts right after it. Unlike DRF's pagination, which seeks on the first field alone and
    counts the rows that share its value, no run of equal values (nor of nulls) is too long to
    page through. ``keys`` is the default order; ``respond`` takes another per request. A
    cursor only carries a position, so a cursor of one order given to another is refused."""

    keys: tuple[SortKey, ...] = ()

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        self.cursor = self.decode_cursor(request)
        offset, reverse, position = self.cursor or (0, False, None)
        queryset = queryset.order_by(*keyset_order(self.keys, reverse))
        if position is not None:
            try:
                values = position_values(position, self.keys, queryset)
            except ValueError:
                raise _invalid_cursor() from None
            queryset = queryset.filter(keyset_beyond(self.keys, values, reverse))
        results = list(queryset[offset:offset + self.page_size + 1])
        self.page = results[:self.page_size]
        following = (self._get_position_from_instance(results[-1], ())
                     if len(results) > len(self.page) else None)
        # As DRF's: a page read backwards is turned round, and its links swap.
        if reverse:
            self.page.reverse()
            self.has_next, self.next_position = position is not None or offset > 0, position
            self.has_previous, self.previous_position = following is not None, following
        else:
            self.has_next, self.next_position = following is not None, following
            self.has_previous, self.previous_position = (position is not None or offset > 0,
                                                         position)
        return self.page

    def _get_position_from_instance(self, instance: Any, ordering: Any) -> str:
        return position_of(instance, self.keys)

    @classmethod
    def respond(cls, queryset: Any, request: Any, view: Any,
                render: Callable[[list[Any]], Any],
                keys: Sequence[SortKey] | None = None) -> Response:
        """As ``CursorPagination.respond``, in the order of ``keys`` (default: the class's)."""
        paginator = cls()
        if keys is not None:
            paginator.keys = tuple(keys)
        page = paginator.paginate_queryset(queryset, request, view=view)
        return paginator.get_paginated_response(render(page))


def keyset_pagination(name: str, *, keys: tuple[SortKey, ...], page_size: int,
                      max_page_size: int) -> type[KeysetPagination]:
    """A keyset paginator class (see ``cursor_pagination``): rows in the order of ``keys``,
    whose last key must be unique."""
    return type(name, (KeysetPagination,), {
        "keys": keys, "page_size": page_size, "max_page_size": max_page_size})


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


ERROR_DESCRIPTIONS = {
    400: "Malformed request, validation error, malformed move or invalid options.",
    401: "Missing or invalid credentials.",
    403: "Not allowed.",
    404: "Not found, or not visible to the caller.",
    406: "The Accept header asks for a media type this endpoint does not serve.",
    409: "Conflict with the current state of the resource.",
    410: "Gone: the resource expired and was deleted.",
    413: "Request body too large.",
    415: "The body is not sent as application/json.",
    422: "illegal_move: the move breaks a rule named in extra.rule.",
    429: "Throttled; see Retry-After.",
    503: "service_unavailable: the database cannot be reached for now; see Retry-After.",
}
# What any API view may answer, whatever it does.
BASE_ERROR_STATUSES = frozenset({401, 406, 413, 429, 503})


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an endpoint can answer with (besides
    ``BASE_ERROR_STATUSES``; 415 is added to every operation that takes a body). The codes of
    each status are filled in from the code registry when the schema is built
    (``error_codes_hook``)."""
    return {code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
            for code in sorted(BASE_ERROR_STATUSES | set(statuses))}


def error_codes_hook(result: dict[str, Any], generator: Any, request: Any,
                     public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation that takes a body may answer 415,
    and each error response lists the codes (from ``config.exceptions.error_codes``) that
    come with its status, as the description and as ``x-error-codes``."""
    by_status: dict[str, list[str]] = {}
    for entry in error_codes():
        by_status.setdefault(str(entry.status), []).append(entry.code)
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.get("responses")
            if not isinstance(responses, dict):
                continue
            if "requestBody" in operation and "415" not in responses:
                responses["415"] = {"content": {"application/json": {"schema": error_ref}},
                                    "description": ERROR_DESCRIPTIONS[415]}
                operation["responses"] = dict(sorted(responses.items()))
                responses = operation["responses"]
            for status_text, response in responses.items():
                content = response.get("content", {}).get("application/json", {})
                if content.get("schema") != error_ref or status_text not in by_status:
                    continue
                codes = by_status[status_text]
                base = ERROR_DESCRIPTIONS.get(int(status_text), response["description"])
                response["description"] = f"{base} Codes: {', '.join(codes)}."
                response["x-error-codes"] = codes
    return result


def json_not_found(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("not_found", _("Not found.")), status=404)


def json_server_error(request: Any) -> JsonResponse:
    # Django calls this while handling the exception (on the request's thread): a database
    # outage that no view handler saw (in a middleware, say) still answers 503.
    exc = sys.exc_info()[1]
    if exc is not None and is_database_unavailable(exc):
        return database_unavailable_response(exc)
    return JsonResponse(envelope("server_error", _("Internal server error.")), status=500)


def json_bad_request(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("bad_request", _("Bad request.")), status=400)


def json_permission_denied(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("permission_denied", _("Permission denied.")), status=403)
