"""Time controls at the API's edge: the request field that takes them, and their schema.

A match's ``time_control`` comes in one of two forms:

- the form of ``games.clocks.control``: ``{"kind": "per_move", "turn_seconds": N}`` or
  ``{"kind": "bank", "initial_seconds": N, "increment_seconds": N, "maximum_seconds": N}``,
  each with ``weekend_pause`` and ``vacation_allowed``. The field passes it on as it is: the
  service parses it, and a bad kind, key or value is ``invalid_time_control`` (with
  ``extra.field``);
- the older form, still taken: ``{"days_per_turn": 1|2|3|5|7|14}`` or ``{"hours_per_turn":
  1-72}``, a per-move control of that many days or hours; anything else in it is a
  ``validation_error`` on ``time_control``, as it always was.

Answers carry the control in the first form (``TimeControl``: one of ``PerMoveTimeControl`` and
``BankTimeControl`` by ``kind``). ``time_control_components`` adds those components, and the
requests' own, to the schema (``games.api.schemas.game_types_hook`` calls it).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.api import StrictSerializer
from games.clocks import control
from games.kit.jsontypes import component_ref

DAYS_PER_TURN = (1, 2, 3, 5, 7, 14)
MAX_HOURS_PER_TURN = 72


class OlderTimeControlSerializer(StrictSerializer):
    days_per_turn = serializers.ChoiceField(choices=DAYS_PER_TURN, required=False)
    hours_per_turn = serializers.IntegerField(min_value=1, max_value=MAX_HOURS_PER_TURN,
                                              required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if len(attrs) != 1:
            raise serializers.ValidationError(
                {"non_field_errors": ["Give exactly one of days_per_turn or hours_per_turn."]})
        return attrs


def _older_form(data: dict[str, Any]) -> dict[str, Any]:
    older = OlderTimeControlSerializer(data=data)
    if not older.is_valid():
        raise serializers.ValidationError(older.errors)
    values = older.validated_data
    seconds = (values["days_per_turn"] * 86400 if "days_per_turn" in values
               else values["hours_per_turn"] * 3600)
    return {"kind": control.PER_MOVE, "turn_seconds": seconds}


@extend_schema_field({"allOf": [component_ref("TimeControlRequest")]})
class TimeControlField(serializers.Field):
    """A match's time control: the clocks' form (a JSON object with ``kind``), handed on as it
    is, or the older ``days_per_turn`` / ``hours_per_turn``, turned into the per-move form."""

    default_error_messages = {
        "not_an_object": "A time control is a JSON object: a kind (per_move or bank) with its "
                         "values, or days_per_turn or hours_per_turn.",
    }

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.fail("not_an_object")
        if "kind" in data:
            return dict(data)
        return _older_form(data)

    def to_representation(self, value: Any) -> Any:
        return value


# --------------------------------------------------------------------------- schema

_FLAGS = {
    "weekend_pause": {"type": "boolean", "description": (
        "The seat's clock does not run from Saturday 00:00 to Monday 00:00 in its player's "
        "time zone (the one of the notification settings; UTC without one).")},
    "vacation_allowed": {"type": "boolean", "description": (
        "A player's vacation stops the seat's clock.")},
}


def _seconds(low: int, high: int, text: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": low, "maximum": high, "description": text}


def _per_move() -> dict[str, Any]:
    return {"kind": {"type": "string", "enum": [control.PER_MOVE]},
            "turn_seconds": _seconds(control.MIN_TURN, control.MAX_TURN, (
                "Every turn gets this many seconds of running time; left-over time is not "
                "kept.")),
            **_FLAGS}


def _bank() -> dict[str, Any]:
    return {"kind": {"type": "string", "enum": [control.BANK]},
            "initial_seconds": _seconds(control.MIN_TURN, control.MAX_TURN, (
                "The bank each seat starts with.")),
            "increment_seconds": _seconds(0, control.MAX_INCREMENT, (
                "Added to the seat's bank after each of its turns (default 0).")),
            "maximum_seconds": _seconds(control.MIN_TURN, control.MAX_BANK, (
                "The most the bank ever holds: from initial_seconds up to 60 days (default "
                "initial_seconds).")),
            **_FLAGS}


def _object(properties: dict[str, Any], required: list[str], text: str) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False, "description": text}


def _one_of_kind(names: dict[str, str], text: str) -> dict[str, Any]:
    return {"oneOf": [component_ref(name) for name in names.values()],
            "discriminator": {"propertyName": "kind", "mapping": {
                kind: component_ref(name)["$ref"] for kind, name in names.items()}},
            "description": text}


def time_control_components(components: dict[str, Any]) -> None:
    """Add the time controls' components: ``TimeControl`` (answers) and
    ``TimeControlRequest`` (the match creation's field, either form)."""
    per_move, bank = _per_move(), _bank()
    components["PerMoveTimeControl"] = _object(per_move, list(per_move), (
        "Every turn of a seat gets the same running time."))
    components["BankTimeControl"] = _object(bank, list(bank), (
        "Each seat has a bank of time: its turns' running time comes off it, an increment is "
        "added after each turn, and it never holds more than its maximum."))
    components["TimeControl"] = _one_of_kind(
        {control.PER_MOVE: "PerMoveTimeControl", control.BANK: "BankTimeControl"},
        "A correspondence time control, by its kind.")
    components["PerMoveTimeControlRequest"] = _object(per_move, ["kind", "turn_seconds"], (
        "Every turn of a seat gets the same running time."))
    components["BankTimeControlRequest"] = _object(bank, ["kind", "initial_seconds"], (
        "A bank of time per seat, with an increment after each turn and a maximum."))
    components["DaysPerTurnRequest"] = _object(
        {"days_per_turn": {"type": "integer", "enum": list(DAYS_PER_TURN)}}, ["days_per_turn"],
        "The older form: a per_move control of this many days a turn.")
    components["HoursPerTurnRequest"] = _object(
        {"hours_per_turn": {"type": "integer", "minimum": 1, "maximum": MAX_HOURS_PER_TURN}},
        ["hours_per_turn"], "The older form: a per_move control of this many hours a turn.")
    components["TimeControlRequest"] = {
        "oneOf": [component_ref(name) for name in (
            "PerMoveTimeControlRequest", "BankTimeControlRequest", "DaysPerTurnRequest",
            "HoursPerTurnRequest")],
        "description": (
            "A correspondence clock: {\"kind\": \"per_move\", ...} or {\"kind\": \"bank\", ...} "
            "(a bad kind, key or value answers invalid_time_control naming extra.field), or "
            "the older {\"days_per_turn\": N} or {\"hours_per_turn\": N}.")}


def type_time_controls(shape: dict[str, Any]) -> None:
    """Type a response shape's ``time_control`` field as ``TimeControl`` (nullable)."""
    props = shape.get("properties", {})
    if "time_control" in props:
        props["time_control"] = {"allOf": [component_ref("TimeControl")], "nullable": True,
                                 "description": props["time_control"].get("description", "")}
