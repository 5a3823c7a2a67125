"""Typed descriptions of a game's JSON: one declaration per shape, read three ways.

A game declares the JSON its engine reads and writes (its move, its view, its compact legal
moves, its events, its outcome) as ``TypedDict`` classes and type expressions in its own
``types.py``, and names them in :class:`GameTypes` on its ``GameSpec``. From those declarations

- :func:`problems` checks a JSON value (the engines check a move's syntax with it, and the tests
  every view, event and outcome the engines write);
- :func:`json_schema` writes the JSON Schema (OpenAPI 3.0 dialect) the API's schema shows, one
  named component per ``TypedDict``;
- the options' schema is derived from the engine's :class:`~games.kit.protocol.Option` tuple,
  which also checks them (:func:`options_schema`).

Supported type expressions: ``int``, ``float``, ``bool``, ``str``, ``None``; ``Literal[...]``
of strings or integers; ``list[X]``; ``tuple[X, ...]`` and ``tuple[X, X]`` (same item type, the
fixed form giving the length); ``dict[str, X]``; unions (``X | None`` is nullable); a
``TypedDict`` (keys are required unless ``NotRequired``; unknown keys are problems); ``Any``;
``Annotated[X, Doc("..."), Range(lo, hi)]``.

Modules declaring ``TypedDict`` classes here must not use ``from __future__ import
annotations``: ``NotRequired`` is read from the evaluated class.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    TypedDict,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

from games.kit.protocol import JSON, MalformedMove, Option

# --------------------------------------------------------------------------- marks


@dataclass(frozen=True)
class Doc:
    """The description of a field or type in the schema."""

    text: str


@dataclass(frozen=True)
class Range:
    """Inclusive bounds of an integer or number."""

    minimum: int | float | None = None
    maximum: int | float | None = None


@dataclass(frozen=True)
class GameTypes:
    """The typed JSON of one game (see the module notes). ``move`` is the move body a client
    sends; ``legal_moves`` the compact legal moves the match detail shows the seat to act;
    ``events`` one ``TypedDict`` per event, each with a ``type: Literal[...]`` key; ``view``
    and ``outcome`` what the engine's ``view`` and ``Outcome.as_dict`` write."""

    move: Any
    view: type
    legal_moves: Any
    events: tuple[type, ...]
    outcome: type

    def event_types(self) -> dict[str, type]:
        """Each event ``TypedDict`` by its ``type`` value."""
        found: dict[str, type] = {}
        for event in self.events:
            (value,) = get_args(_hints(event)["type"])
            found[value] = event
        return found


# --------------------------------------------------------------------------- checking


def problems(tp: Any, value: Any, where: str = "") -> list[str]:
    """What is wrong with ``value`` as a ``tp`` (empty when it conforms), each problem led by
    the JSON path of the part it concerns (``take[0]``)."""
    found: list[str] = []
    _check(tp, value, where, found)
    return found


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A TypedDict's field types, resolved once per class: every move a server parses is
    checked against its game's move types."""
    return get_type_hints(cls, include_extras=True)


def _strip(tp: Any) -> tuple[Any, list[Any]]:
    marks: list[Any] = []
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp, *more = get_args(tp)
            marks.extend(more)
        elif origin in (Required, NotRequired):
            (tp,) = get_args(tp)
        else:
            return tp, marks


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name(tp: Any) -> str:
    return getattr(tp, "__name__", None) or repr(tp)


_KINDS: dict[Any, tuple[str, Callable[[Any], bool]]] = {
    int: ("an integer", _is_int),
    bool: ("a boolean", lambda v: isinstance(v, bool)),
    str: ("a string", lambda v: isinstance(v, str)),
    float: ("a number", lambda v: _is_int(v) or isinstance(v, float)),
}


@dataclass(frozen=True)
class _Shape:
    """A type with its ``Annotated`` marks and ``Required`` wrappers taken off, and what
    ``_check`` asks of it, worked out once per type."""

    tp: Any
    marks: tuple[Any, ...]
    origin: Any
    args: tuple[Any, ...]
    typeddict: bool


_SHAPES: dict[Any, _Shape] = {}


def _shape(tp: Any) -> _Shape:
    try:
        return _SHAPES[tp]
    except KeyError:
        pass
    except TypeError:  # an unhashable type (never in the games' types): worked out each time
        return _shape_of(tp)
    shape = _SHAPES[tp] = _shape_of(tp)
    return shape


def _shape_of(tp: Any) -> _Shape:
    bare, marks = _strip(tp)
    return _Shape(bare, tuple(marks), get_origin(bare), get_args(bare), is_typeddict(bare))


def _check(tp: Any, value: Any, where: str, found: list[str]) -> None:
    shape = _shape(tp)
    tp, origin, args = shape.tp, shape.origin, shape.args
    at = f"{where}: " if where else ""
    if tp is Any:
        return
    if tp is None or tp is type(None):
        if value is not None:
            found.append(f"{at}must be null.")
        return
    if origin in (Union, types.UnionType):
        attempts = [problems(option, value, where) for option in args]
        if not any(not attempt for attempt in attempts):
            shortest = min(attempts, key=len)
            found.extend(shortest if len(args) == 2 and value is not None else
                         [f"{at}matches none of its forms."])
        return
    if origin is Literal:
        if not any(value == a and type(value) is type(a) for a in args):
            found.append(f"{at}must be one of {list(args)}.")
        return
    if shape.typeddict:
        _check_typeddict(tp, value, where, found)
        return
    if origin is list or origin is tuple:
        _check_array(args, origin is tuple, value, where, found)
        return
    if origin is dict:
        if not isinstance(value, Mapping):
            found.append(f"{at}must be an object.")
            return
        item = args[1]
        for key, member in value.items():
            if not isinstance(key, str):
                found.append(f"{at}keys must be strings.")
            _check(item, member, f"{where}.{key}" if where else str(key), found)
        return
    _check_scalar(tp, shape.marks, value, at, found)


def _check_array(args: tuple[Any, ...], fixed: bool, value: Any, where: str,
                 found: list[str]) -> None:
    if not isinstance(value, list | tuple):
        found.append(f"{where + ': ' if where else ''}must be an array.")
        return
    if fixed and not (len(args) == 2 and args[1] is Ellipsis) and len(value) != len(args):
        found.append(f"{where + ': ' if where else ''}must have {len(args)} items.")
        return
    item = args[0]
    for i, member in enumerate(value):
        _check(item, member, f"{where}[{i}]", found)


def _check_scalar(tp: Any, marks: tuple[Any, ...], value: Any, at: str,
                  found: list[str]) -> None:
    if tp not in _KINDS:
        raise TypeError(f"Unsupported type {tp!r} in a game's types.")
    what, test = _KINDS[tp]
    if not test(value):
        found.append(f"{at}must be {what}.")
        return
    for mark in marks:
        if isinstance(mark, Range):
            if mark.minimum is not None and value < mark.minimum:
                found.append(f"{at}must be at least {mark.minimum}.")
            if mark.maximum is not None and value > mark.maximum:
                found.append(f"{at}must be at most {mark.maximum}.")


def _check_typeddict(tp: Any, value: Any, where: str, found: list[str]) -> None:
    at = f"{where}: " if where else ""
    if not isinstance(value, Mapping):
        found.append(f"{at}must be an object.")
        return
    hints = _hints(tp)
    unknown = sorted(set(value) - set(hints))
    for key in unknown:
        found.append(f"{where + '.' if where else ''}{key}: unknown field.")
    for key in sorted(tp.__required_keys__ - set(value)):
        found.append(f"{where + '.' if where else ''}{key}: missing.")
    for key, hint in hints.items():
        if key in value:
            _check(hint, value[key], f"{where}.{key}" if where else key, found)


# --------------------------------------------------------------------------- schema


def component_ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def json_schema(tp: Any, components: dict[str, JSON]) -> JSON:
    """The JSON Schema of ``tp``; each ``TypedDict`` it reaches is added to ``components``
    under its class name (once) and referred to."""
    tp, marks = _strip(tp)
    schema = _schema(tp, components)
    for mark in marks:
        if isinstance(mark, Doc):
            schema = {**schema, "description": mark.text} if "$ref" not in schema else {
                "allOf": [schema], "description": mark.text}
        elif isinstance(mark, Range):
            if mark.minimum is not None:
                schema["minimum"] = mark.minimum
            if mark.maximum is not None:
                schema["maximum"] = mark.maximum
    return schema


def _nullable(schema: JSON) -> JSON:
    if "$ref" in schema:
        return {"allOf": [schema], "nullable": True}
    if "enum" in schema:  # OpenAPI 3.0: a nullable enum lists null among its values
        return {**schema, "enum": [*schema["enum"], None], "nullable": True}
    return {**schema, "nullable": True}


def _schema(tp: Any, components: dict[str, JSON]) -> JSON:
    origin = get_origin(tp)
    if tp is Any:
        return {}
    if origin in (Union, types.UnionType):
        options = [arg for arg in get_args(tp) if arg is not type(None)]
        nullable = len(options) < len(get_args(tp))
        if len(options) == 1:
            schema = json_schema(options[0], components)
        else:
            schema = {"oneOf": [json_schema(option, components) for option in options]}
        return _nullable(schema) if nullable else schema
    if origin is Literal:
        values = list(get_args(tp))
        kind = "string" if all(isinstance(v, str) for v in values) else (
            "boolean" if all(isinstance(v, bool) for v in values) else "integer")
        return {"type": kind, "enum": values}
    if is_typeddict(tp):
        name = tp.__name__
        if name not in components:
            components[name] = {}  # reserve the name first: shapes may nest themselves
            hints = _hints(tp)
            properties = {key: json_schema(hint, components) for key, hint in hints.items()}
            body: JSON = {"type": "object", "properties": properties}
            required = [key for key in hints if key in tp.__required_keys__]
            if required:
                body["required"] = required
            doc = (tp.__doc__ or "").strip()
            if doc and not doc.startswith(f"{name}("):
                body["description"] = " ".join(doc.split())
            components[name] = body
        return component_ref(name)
    if origin is list or origin is tuple:
        args = get_args(tp)
        schema = {"type": "array", "items": json_schema(args[0], components)}
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            schema["minItems"] = schema["maxItems"] = len(args)
        return schema
    if origin is dict:
        return {"type": "object", "additionalProperties": json_schema(get_args(tp)[1],
                                                                       components)}
    scalars = {int: "integer", float: "number", bool: "boolean", str: "string"}
    if tp in scalars:
        return {"type": scalars[tp]}
    raise TypeError(f"Unsupported type {tp!r} in a game's types.")


def options_schema(name: str, options: Sequence[Option]) -> JSON:
    """The schema of a game's match options (``config``), from the engine's own ``Option``
    tuple, which ``normalize_options`` checks them with. Every option may be left out (its
    default applies); a ``json`` option is any JSON value the engine checks itself."""
    properties: JSON = {}
    for option in options:
        kinds: dict[str, JSON] = {"int": {"type": "integer"}, "bool": {"type": "boolean"},
                                  "json": {}}
        kind = kinds.get(option.kind)
        if option.kind == "choice":
            kind = {"type": "string" if all(isinstance(c, str) for c in option.choices)
                    else "integer", "enum": list(option.choices)}
        assert kind is not None, option.kind
        prop: JSON = {**kind, "description": option.description}
        if option.kind == "int" and option.choices:
            prop["enum"] = list(option.choices)
        if option.minimum is not None:
            prop["minimum"] = option.minimum
        if option.maximum is not None:
            prop["maximum"] = option.maximum
        if option.default is None:
            prop["nullable"] = True
        else:
            prop["default"] = option.default
        properties[option.name] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": f"The options of a {name} match; each may be left out."}


# --------------------------------------------------------------------------- shared shapes


class OutcomeJSON(TypedDict):
    """How a finished match ended (``Outcome.as_dict``). A game's outcome type extends it."""

    ranks: Annotated[list[int], Doc("Each seat's place, 1 being best; ties share a rank.")]
    scores: Annotated[list[float], Doc("Each seat's score in the game's own terms.")]
    winners: Annotated[list[int], Doc("The seats ranked 1.")]
    reason: Annotated[str, Doc("How the match ended, a stable code.")]


def check_move(tp: Any, data: Any) -> None:
    """Raise :class:`~games.kit.protocol.MalformedMove` when ``data`` is not of the move type
    ``tp``: the first problem is the message, the top-level field it concerns ``extra.field``.
    Engines call it first in ``parse_move``; the rules' own checks follow."""
    found = problems(tp, data)
    if not found:
        return
    first = found[0]
    field = _FIELD.match(first)
    extra = {"field": field.group(0)} if field and ":" in first else {}
    raise MalformedMove(f"Not a valid move: {first}", **extra)


_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
