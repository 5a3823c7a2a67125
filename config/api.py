"""Pieces every API module shares: strict input serializers, a size-bounded JSON parser, the
error envelope's schema, and JSON answers for URLs no view handles."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import JsonResponse
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from config.exceptions import RequestTooLarge, envelope


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


class BoundedJSONParser(JSONParser):
    """JSON parser that reads at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes (DRF streams the body
    past Django's own limit) and refuses anything that is not valid UTF-8 JSON."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge()
        try:
            return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not valid JSON: {exc}") from exc


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


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
    }
    base = {401, 413, 429}
    return {code: OpenApiResponse(ErrorSerializer, description=descriptions[code])
            for code in sorted(base | set(statuses))}


def json_not_found(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("not_found", "Not found."), status=404)


def json_server_error(request: Any) -> JsonResponse:
    return JsonResponse(envelope("server_error", "Internal server error."), status=500)


def json_bad_request(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("bad_request", "Bad request."), status=400)


def json_permission_denied(request: Any, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(envelope("permission_denied", "Permission denied."), status=403)
