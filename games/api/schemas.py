"""The games API's shapes for the OpenAPI schema: a serializer per response shape, derived from
its one declaration in ``games.selectors.shapes``; and the game field and enum of requests,
which read the game registry when used, so a game registered at run time is a valid choice."""

from __future__ import annotations

import types
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints, is_typeddict

from rest_framework import serializers

from config.api import schema_serializer
from games.catalog import engines
from games.selectors import shapes

# --------------------------------------------------------------------------- game slugs


class RegisteredGames(Sequence[str]):
    """The slugs of the registered games, sorted, read from the registry on every use: an
    ``enum`` for ``OpenApiParameter`` that follows games registered after import."""

    def _slugs(self) -> list[str]:
        return sorted(engines())

    def __getitem__(self, index: Any) -> Any:
        return self._slugs()[index]

    def __len__(self) -> int:
        return len(engines())

    def __iter__(self) -> Iterator[str]:
        return iter(self._slugs())


GAME_SLUGS = RegisteredGames()


class GameField(serializers.ChoiceField):
    """The slug of a registered game. The choices are read from the registry when the field is
    built, and DRF builds a serializer's fields afresh for each serializer instance (from the
    declared ones), so for each request validated and each schema generated."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(GAME_SLUGS), **kwargs)


# --------------------------------------------------------------------------- response shapes

_SCALARS: dict[Any, type[serializers.Field]] = {
    int: serializers.IntegerField,
    float: serializers.FloatField,
    bool: serializers.BooleanField,
    str: serializers.CharField,
    datetime: serializers.DateTimeField,
}
_FORMATS: dict[str, type[serializers.Field]] = {"uuid": serializers.UUIDField}
_SERIALIZERS: dict[type, type[serializers.Serializer]] = {}


def serializer_for(shape: type, component: str | None = None) -> type[serializers.Serializer]:
    """The output serializer of a shape: one class per shape, so one schema component, named
    ``component`` or else as the shape."""
    serializer = _SERIALIZERS.get(shape)
    if serializer is None:
        hints = get_type_hints(shape, include_extras=True)
        serializer = schema_serializer(component or shape.__name__, {
            name: _field(hint) for name, hint in hints.items()})
        _SERIALIZERS[shape] = serializer
    elif component is not None and serializer.__name__ != f"{component}Serializer":
        raise ValueError(f"{shape.__name__} already has the component {serializer.__name__}.")
    return serializer


def _field(hint: Any) -> serializers.Field:
    options: dict[str, Any] = {}
    choices: tuple[str, ...] | None = None
    field_format: str | None = None
    while True:
        if get_origin(hint) is Annotated:
            hint, *marks = get_args(hint)
            for mark in marks:
                if isinstance(mark, shapes.Doc):
                    options["help_text"] = mark.text
                elif isinstance(mark, shapes.OneOf):
                    choices = mark.values
                elif isinstance(mark, shapes.Format):
                    field_format = mark.name
                else:
                    raise TypeError(f"Unknown mark {mark!r} on a shape field.")
        elif get_origin(hint) in (Union, types.UnionType) and type(None) in get_args(hint):
            rest = [arg for arg in get_args(hint) if arg is not type(None)]
            if len(rest) != 1:
                raise TypeError(f"Unsupported union {hint!r} in a shape.")
            options["allow_null"] = True
            hint = rest[0]
        else:
            break
    origin = get_origin(hint)
    if is_typeddict(hint):
        return serializer_for(hint)(**options)
    if origin is list:
        (item,) = get_args(hint)
        if is_typeddict(item):
            return serializer_for(item)(many=True, **options)
        return serializers.ListField(child=_field(item), **options)
    if origin is dict:
        return serializers.DictField(**options)
    if hint is Any:
        return serializers.JSONField(**options)
    if choices is not None:
        return serializers.ChoiceField(choices=list(choices), **options)
    if field_format is not None:
        return _FORMATS[field_format](**options)
    if hint in _SCALARS:
        return _SCALARS[hint](**options)
    raise TypeError(f"Unsupported type {hint!r} in a shape.")


PlayerRefSerializer = serializer_for(shapes.PlayerRef)
SeatSerializer = serializer_for(shapes.Seat)
MatchSummarySerializer = serializer_for(shapes.MatchSummary)
MatchDetailSerializer = serializer_for(shapes.MatchDetail)
MoveResultSerializer = serializer_for(shapes.MoveResult)
PreviewSerializer = serializer_for(shapes.MovePreview)
MoveLogEntrySerializer = serializer_for(shapes.MoveLogEntry)
MoveLogSerializer = serializer_for(shapes.MoveLog)
MatchEventsSerializer = serializer_for(shapes.MatchEvents)
UserEventSerializer = serializer_for(shapes.UserEvent)
UserEventFeedSerializer = serializer_for(shapes.UserEventFeed)
GameSerializer = serializer_for(shapes.Game)
# The bot list's component has always been called "Output".
BotSerializer = serializer_for(shapes.Bot, "Output")
