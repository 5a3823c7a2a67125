"""Time controls: how much time a seat gets, as a value.

A match's time control is one of two kinds:

- ``PerMove(turn)``: every turn of a seat gets the same running time, ``turn`` seconds; time left
  over from one turn is not kept for the next (the behaviour correspondence matches have always
  had, with ``deadline = turn start + turn`` when nothing pauses the clock).
- ``Bank(initial, increment, maximum)``: each seat has a bank of time, ``initial`` seconds at
  the start; the running time a seat spends on a turn comes off its bank; after each of its
  turns (the turn its move ends) ``increment`` seconds are added; the bank never holds more
  than ``maximum``.

Two options go with either kind: ``weekend_pause`` (a seat's clock does not run from Saturday
00:00 to Monday 00:00 in its player's own time zone) and ``vacation_allowed`` (a player's
vacation stops the seat's clock; on by default).

``parse`` reads the JSON form and checks every bound with :class:`InvalidTimeControl` (code
``invalid_time_control``, ``field`` the key at fault, ``extra`` the bounds); ``dump`` writes it
back, and ``parse(dump(c)) == c``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.clocks.errors import InvalidTimeControl
from games.clocks.instants import DAY, HOUR, whole

MIN_TURN = HOUR
MAX_TURN = 30 * DAY
MAX_INCREMENT = 30 * DAY
MAX_BANK = 60 * DAY

PER_MOVE = "per_move"
BANK = "bank"
KINDS = (PER_MOVE, BANK)


@dataclass(frozen=True)
class PerMove:
    """Every turn gets ``turn`` seconds of running time."""

    turn: int


@dataclass(frozen=True)
class Bank:
    """A bank of ``initial`` seconds, ``increment`` added after each turn, capped at ``maximum``."""

    initial: int
    increment: int
    maximum: int


@dataclass(frozen=True)
class TimeControl:
    clock: PerMove | Bank
    weekend_pause: bool = False
    vacation_allowed: bool = True

    @property
    def kind(self) -> str:
        return PER_MOVE if isinstance(self.clock, PerMove) else BANK

    @property
    def fresh(self) -> int:
        """The time a seat has before its first turn: the turn, or the initial bank."""
        clock = self.clock
        return clock.turn if isinstance(clock, PerMove) else clock.initial

    @property
    def most(self) -> int:
        """The most time a seat's clock may ever hold: the turn, or the bank's maximum."""
        clock = self.clock
        return clock.turn if isinstance(clock, PerMove) else clock.maximum


_KEYS = {
    PER_MOVE: {"kind", "turn_seconds", "weekend_pause", "vacation_allowed"},
    BANK: {"kind", "initial_seconds", "increment_seconds", "maximum_seconds", "weekend_pause",
           "vacation_allowed"},
}


def _bounded(data: Mapping[str, Any], key: str, low: int, high: int,
             default: int | None = None) -> int:
    if key not in data and default is not None:
        return default
    if key not in data:
        raise InvalidTimeControl(f"{key} is required.", field=key, minimum=low, maximum=high)
    value = whole(data[key], key, InvalidTimeControl)
    if not low <= value <= high:
        raise InvalidTimeControl(f"{key} must be between {low} and {high} seconds.",
                                 field=key, minimum=low, maximum=high)
    return value


def _flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise InvalidTimeControl(f"{key} must be true or false.", field=key)
    return value


def _clock(data: Mapping[str, Any], kind: str) -> PerMove | Bank:
    if kind == PER_MOVE:
        return PerMove(turn=_bounded(data, "turn_seconds", MIN_TURN, MAX_TURN))
    initial = _bounded(data, "initial_seconds", MIN_TURN, MAX_TURN)
    increment = _bounded(data, "increment_seconds", 0, MAX_INCREMENT, default=0)
    maximum = _bounded(data, "maximum_seconds", initial, MAX_BANK, default=initial)
    return Bank(initial=initial, increment=increment, maximum=maximum)


def parse(data: object) -> TimeControl:
    """The time control a JSON object describes, every key and bound checked.

    ``{"kind": "per_move", "turn_seconds": N}`` or ``{"kind": "bank", "initial_seconds": N,
    "increment_seconds": N (0), "maximum_seconds": N (the initial bank)}``, each with optional
    ``"weekend_pause"`` (false) and ``"vacation_allowed"`` (true).
    """
    if not isinstance(data, Mapping):
        raise InvalidTimeControl("A time control must be a JSON object.", field=None)
    kind = data.get("kind")
    if kind not in KINDS:
        raise InvalidTimeControl("Unknown clock kind.", field="kind", choices=list(KINDS))
    unknown = sorted(str(key) for key in data if key not in _KEYS[kind])
    if unknown:
        raise InvalidTimeControl(f"Unknown key {unknown[0]} for a {kind} clock.",
                                 field=unknown[0], allowed=sorted(_KEYS[kind]))
    return TimeControl(clock=_clock(data, kind),
                       weekend_pause=_flag(data, "weekend_pause", False),
                       vacation_allowed=_flag(data, "vacation_allowed", True))


def dump(control: TimeControl) -> dict[str, Any]:
    """The JSON form of a time control (every key written out)."""
    clock = control.clock
    data: dict[str, Any] = {"kind": control.kind}
    if isinstance(clock, PerMove):
        data["turn_seconds"] = clock.turn
    else:
        data.update(initial_seconds=clock.initial, increment_seconds=clock.increment,
                    maximum_seconds=clock.maximum)
    data.update(weekend_pause=control.weekend_pause, vacation_allowed=control.vacation_allowed)
    return data


def per_move(turn_seconds: int) -> TimeControl:
    """The per-move control of a match created before time controls had kinds."""
    return parse({"kind": PER_MOVE, "turn_seconds": turn_seconds})
