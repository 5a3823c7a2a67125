"""Time controls: the JSON form round-trips, and every bad input is a coded error."""

from __future__ import annotations

import pytest
from hypothesis import given

from games.clocks.control import (
    MAX_BANK,
    MAX_TURN,
    MIN_TURN,
    Bank,
    PerMove,
    TimeControl,
    dump,
    parse,
    per_move,
)
from games.clocks.errors import InvalidTimeControl
from tests.clocks.strategies import PROPERTY_SETTINGS, controls


@PROPERTY_SETTINGS
@given(controls)
def test_dump_then_parse_gives_the_same_control(control: TimeControl) -> None:
    assert parse(dump(control)) == control
    assert control.most >= control.fresh


def test_defaults_of_a_bank_and_of_the_options() -> None:
    control = parse({"kind": "bank", "initial_seconds": 3 * 86400})
    assert control == TimeControl(Bank(initial=3 * 86400, increment=0, maximum=3 * 86400),
                                  weekend_pause=False, vacation_allowed=True)
    assert control.kind == "bank"


def test_the_per_move_control_of_an_older_match() -> None:
    assert per_move(86400) == TimeControl(PerMove(turn=86400))
    assert dump(per_move(3600)) == {"kind": "per_move", "turn_seconds": 3600,
                                    "weekend_pause": False, "vacation_allowed": True}


@pytest.mark.parametrize(("data", "field"), [
    (None, None),
    ([], None),
    ({}, "kind"),
    ({"kind": "hourglass", "turn_seconds": 3600}, "kind"),
    ({"kind": "per_move"}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": MIN_TURN - 1}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": MAX_TURN + 1}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": 3600.0}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": "3600"}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": True}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": 3600, "increment_seconds": 60}, "increment_seconds"),
    ({"kind": "per_move", "turn_seconds": 3600, "weekend_pause": "yes"}, "weekend_pause"),
    ({"kind": "per_move", "turn_seconds": 3600, "vacation_allowed": 1}, "vacation_allowed"),
    ({"kind": "bank"}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": 59 * 60}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": MAX_TURN + 1}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": 7200, "increment_seconds": -1}, "increment_seconds"),
    ({"kind": "bank", "initial_seconds": 7200, "increment_seconds": MAX_TURN + 1},
     "increment_seconds"),
    ({"kind": "bank", "initial_seconds": 7200, "maximum_seconds": 7199}, "maximum_seconds"),
    ({"kind": "bank", "initial_seconds": 7200, "maximum_seconds": MAX_BANK + 1},
     "maximum_seconds"),
    ({"kind": "bank", "initial_seconds": 7200, "turn_seconds": 7200}, "turn_seconds"),
])
def test_every_bad_time_control_is_a_coded_error(data: object, field: str | None) -> None:
    with pytest.raises(InvalidTimeControl) as caught:
        parse(data)
    assert caught.value.code == "invalid_time_control"
    assert caught.value.field == field
    envelope = caught.value.as_dict()
    assert set(envelope) == {"code", "message", "extra"}
    assert envelope["extra"].get("field") == field


def test_bounds_travel_with_the_error() -> None:
    with pytest.raises(InvalidTimeControl) as caught:
        parse({"kind": "bank", "initial_seconds": 7200, "maximum_seconds": 3600})
    assert caught.value.extra == {"minimum": 7200, "maximum": MAX_BANK}
