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
from games.api.timecontrols import time_control_components, type_time_controls
from games.catalog import engines, games
from games.kit.jsontypes import GameTypes, component_ref, json_schema, options_schema
from games.kit.registry import GameSpec
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
PlanAnswerSerializer = serializer_for(shapes.PlanAnswer)
MatchEventsSerializer = serializer_for(shapes.MatchEvents)
UserEventSerializer = serializer_for(shapes.UserEvent)
UserEventFeedSerializer = serializer_for(shapes.UserEventFeed)
GameSerializer = serializer_for(shapes.Game)
GameRulesSerializer = serializer_for(shapes.GameRules)
GameTutorialSerializer = serializer_for(shapes.GameTutorial)
# The bot list's component has always been called "Output".
BotSerializer = serializer_for(shapes.Bot, "Output")


# --------------------------------------------------------------------------- per-game types

# The generic fields of the response shapes and the per-game type each becomes.
_GAME_FIELDS = {"config": "Config", "view": "View", "legal_moves": "LegalMoves",
                "outcome": "Outcome"}


def _component_name(spec: GameSpec, part: str) -> str:
    return f"{spec.name.replace(' ', '')}{part}"


def _game_components(spec: GameSpec, types: GameTypes, components: dict[str, Any]) -> None:
    """Add the named components of one game: ``<Game>Config``, ``<Game>Move``, ``<Game>View``,
    ``<Game>LegalMoves``, ``<Game>Outcome`` and ``<Game>Event`` (its events, one of them by
    ``type``)."""
    components[_component_name(spec, "Config")] = options_schema(spec.name,
                                                                 spec.engine.options)
    for part, tp in (("Move", types.move), ("View", types.view),
                     ("LegalMoves", types.legal_moves), ("Outcome", types.outcome)):
        name = _component_name(spec, part)
        schema = json_schema(tp, components)
        if schema != component_ref(name):
            components[name] = schema
    move = components[_component_name(spec, "Move")]
    _discriminate_move(move, components)
    events = types.event_types()
    refs = {value: json_schema(event, components) for value, event in events.items()}
    components[_component_name(spec, "Event")] = {
        "oneOf": list(refs.values()),
        "discriminator": {"propertyName": "type",
                          "mapping": {value: ref["$ref"] for value, ref in refs.items()}},
        "description": f"An event of a {spec.name} match, by its type.",
    }


def _discriminate_move(move: dict[str, Any], components: dict[str, Any]) -> None:
    """A move that is one of several objects sharing a string-valued key (Nimble's
    ``action``) is discriminated on that key."""
    variants = move.get("oneOf")
    if not variants or not all("$ref" in v for v in variants):
        return
    bodies = [components[v["$ref"].rsplit("/", 1)[1]] for v in variants]
    shared = set.intersection(*(set(b.get("required", [])) for b in bodies))
    for key in sorted(shared):
        enums = [b["properties"][key].get("enum") for b in bodies]
        if all(enums):
            mapping = {value: v["$ref"] for v, values in zip(variants, enums, strict=True)
                       for value in values}
            move["discriminator"] = {"propertyName": key, "mapping": mapping}
            return


def _nullable_ref(name: str) -> dict[str, Any]:
    return {"allOf": [component_ref(name)], "nullable": True}


def _untyped_components(spec: GameSpec, components: dict[str, Any]) -> None:
    """The components of a game that declares no types: its options (from the engine's
    ``Option`` tuple, as for every game) and free-form JSON for the rest."""
    components[_component_name(spec, "Config")] = options_schema(spec.name,
                                                                 spec.engine.options)
    free = f"{spec.name} does not declare the types of its JSON."
    for part in ("Move", "View", "Outcome", "Event"):
        components[_component_name(spec, part)] = {
            "type": "object", "additionalProperties": {}, "description": free}
    components[_component_name(spec, "LegalMoves")] = {"description": free}


def _by_game(shape: str, typed: list[GameSpec],
             components: dict[str, Any]) -> None:
    """Turn the shape's component into one of a variant per game, told apart by ``game``: each
    variant is the shape with ``game`` fixed to the slug and its generic fields typed."""
    base = components.get(shape)
    if base is None or "properties" not in base:
        return
    mapping = {}
    for spec in typed:
        variant = {**base, "properties": dict(base["properties"])}
        props = variant["properties"]
        props["game"] = {"type": "string", "enum": [spec.slug]}
        for field, part in _GAME_FIELDS.items():
            if field not in props:
                continue
            current = props[field]
            if field == "config":
                props[field] = {**component_ref(_component_name(spec, part))}
            elif field == "outcome":
                props[field] = {"oneOf": [component_ref(_component_name(spec, part)),
                                          component_ref("MatchCalledOff")],
                                "nullable": True, "description": (
                                    "How the match ended; null while it runs.")}
            else:
                ref = _nullable_ref(_component_name(spec, part))
                if "description" in current:
                    ref["description"] = current["description"]
                props[field] = ref if current.get("nullable") else component_ref(
                    _component_name(spec, part))
        name = f"{_component_name(spec, shape)}"
        variant["description"] = f"{shape} of a {spec.name} match."
        components[name] = variant
        mapping[spec.slug] = component_ref(name)["$ref"]
    components[shape] = {
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "game", "mapping": mapping},
    }


def _any_of(names: list[str], nullable: bool = False) -> dict[str, Any]:
    # anyOf, not oneOf: two games may have events of one form (a forfeit), and nothing in
    # these answers names the game.
    schema: dict[str, Any] = {"anyOf": [component_ref(name) for name in names]}
    if nullable:
        schema["nullable"] = True
    return schema


def _requests_by_game(typed: list[GameSpec], moves: list[str],
                      components: dict[str, Any]) -> None:
    """The request bodies: a match's options are its game's (one of a variant per game, told
    apart by ``game``), and a move is any of the games' moves."""
    create = components.get("MatchCreateRequest")
    if create is not None and "properties" in create:
        mapping = {}
        for spec in typed:
            variant = {**create, "properties": {
                **create["properties"], "game": {"type": "string", "enum": [spec.slug]},
                "config": component_ref(_component_name(spec, "Config"))}}
            variant["description"] = f"Create a {spec.name} match."
            name = _component_name(spec, "MatchCreateRequest")
            components[name] = variant
            mapping[spec.slug] = component_ref(name)["$ref"]
        components["MatchCreateRequest"] = {
            "oneOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": "game", "mapping": mapping}}
    move_input = components.get("MoveInputRequest", {}).get("properties", {})
    if "move" in move_input:
        move_input["move"] = {**_any_of(moves), "description": (
            "A move of the match's game, e.g. {\"take\": [[0, 0]]} (Nibble).")}
    plans = {"type": "array", "items": {"oneOf": [component_ref("PlanBranch"),
                                                  component_ref("PlanOpening")]}}
    for shape, field in (("MoveInputRequest", "plan"), ("PlanInputRequest", "plan"),
                         ("PlanAnswer", "plan")):
        props = components.get(shape, {}).get("properties", {})
        if field in props:
            nullable = {"nullable": True} if props[field].get("nullable") else {}
            props[field] = {**plans, **nullable,
                            "description": props[field].get("description", "")}


def _plan_branch(moves: list[str]) -> dict[str, Any]:
    """The schema of one branch of a plan (``games.kit.plans``)."""
    return {
        "type": "object", "required": ["on"], "additionalProperties": False,
        "properties": {
            "on": {"description": (
                "The other seat's move this branch answers, as the planner will see it: a "
                "Nibble take itself; a Nimble action, a flip with the card it showed "
                "(`{\"action\": \"flip\", \"card\": ...}`). Any JSON; the server answers "
                "the form it keeps.")},
            "reply": {"type": "array", "items": _any_of(moves), "description": (
                "The planner's moves, played at once in order (empty while the other seat is "
                "still to act).")},
            "then": {"type": "array", "items": component_ref("PlanBranch"), "description": (
                "The branches that follow the reply.")}},
        "description": "A branch of a plan: the other seat's move (`on`), the planner's "
                       "reply, and the branches after it (docs/plans.md)."}


def _plan_opening(moves: list[str]) -> dict[str, Any]:
    """The schema of one opening of a plan made during the planner's own turn."""
    return {
        "type": "object", "required": ["mine"], "additionalProperties": False,
        "properties": {
            "mine": {"type": "array", "minItems": 1, "items": _any_of(moves), "description": (
                "The planner's own next moves, to make by hand in order (none that turns up "
                "something hidden, such as a Nimble flip).")},
            "then": {"type": "array", "items": component_ref("PlanBranch"), "description": (
                "The branches that follow once these moves are made and the planner waits.")}},
        "description": "An opening of a plan saved during the planner's own turn: its own "
                       "next moves, then the branches; a move by hand keeps the openings that "
                       "start with it (docs/plans.md). A plan's root holds branches or "
                       "openings, never both."}


def _move_log_note() -> dict[str, Any]:
    """The schema of a log entry's payload that is not a move (``games.movelog``)."""
    return {
        "type": "object", "properties": {"reason": {"type": "string"}, "unrated": {
            "type": "boolean", "description": (
                "A timeout's forfeit that made the match unrated: the player was already in a "
                "run of timeouts without moving anywhere (only its first is rated).")},
            "seat": {"type": "integer", "description": (
                "A vacation's entry (reason `vacation`): the seat whose clock stopped or "
                "restarted.")},
            "away": {"type": "boolean", "description": (
                "A vacation's entry: true when the seat's clock stopped for its player's "
                "vacation, false when it runs again on their return.")}},
        "additionalProperties": False,
        "description": "The payload of a log entry that is not a move: a forfeit's or an idle "
                       "end's reason, a vacation's stop or restart of a seat's clock (only the "
                       "clocks change), or nothing (a system step)."}


def game_types_hook(result: dict[str, Any], generator: Any, request: Any,
                    public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the per-game components of every registered game
    that declares its types (``GameSpec.types``), read when the schema is built, and the
    generic fields of the response shapes typed with them. Shapes with a ``game`` field
    (match summaries and details) become one of a variant per game, discriminated on
    ``game``; the move log's payloads and events, a move's events and a dry run's view and
    events become any of the games' types. A game registered without types (``types=None``)
    takes part with free-form components."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    specs = [spec for _, spec in sorted(games().items())]
    for spec in specs:
        if spec.types is None:
            _untyped_components(spec, components)
        else:
            _game_components(spec, spec.types, components)
    names = {part: [_component_name(spec, part) for spec in specs]
             for part in ("View", "Move", "Event")}
    components["GameEvent"] = {**_any_of(names["Event"]), "description": (
        "An event of the match's game (its `type` tells the events of one game apart).")}
    components["MoveLogNote"] = _move_log_note()
    components["PlanBranch"] = _plan_branch(names["Move"])
    components["PlanOpening"] = _plan_opening(names["Move"])
    components["MatchCalledOff"] = {
        "type": "object", "required": ["reason"], "additionalProperties": False,
        "properties": {"reason": {"type": "string", "enum": ["aborted", "timeout"]}},
        "description": "The outcome of a match called off before it ended: aborted by a "
                       "player before anyone moved, or timed out before it started."}
    time_control_components(components)
    for shape in ("MatchSummary", "MatchDetail"):
        type_time_controls(components.get(shape, {}))
        _by_game(shape, specs, components)
    _requests_by_game(specs, names["Move"], components)
    event_list = {"type": "array", "items": component_ref("GameEvent")}
    for shape, fields in (("MoveResult", ("events",)), ("MovePreview", ("events", "view")),
                          ("MoveLogEntry", ("events", "payload"))):
        props = components.get(shape, {}).get("properties", {})
        for field in fields:
            if field not in props:
                continue
            description = props[field].get("description")
            if field == "events":
                new = dict(event_list)
            elif field == "view":
                new = _any_of(names["View"], nullable=True)
            else:
                new = _any_of([*names["Move"], "MoveLogNote"], nullable=True)
            if description:
                new["description"] = description
            props[field] = new
    return result
