"""Time controls over HTTP: both forms taken at creation, every bad value a coded error that
creates nothing, and each seat's clock in the match's detail as of the answer."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.clocks.control import MAX_BANK, MAX_INCREMENT, MAX_TURN, MIN_TURN
from games.models import Match
from tests.games.helpers import create_match
from tests.games.matchplay import assert_error, match_url, start_nibble_match, submit

pytestmark = pytest.mark.django_db

HOUR, DAY = 3600, 86400
BANK = {"kind": "bank", "initial_seconds": 3 * DAY, "increment_seconds": DAY,
        "maximum_seconds": 7 * DAY}
NOON = datetime(2026, 11, 4, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("time_control, answered, turn_seconds", [
    ({"kind": "per_move", "turn_seconds": 2 * DAY},
     {"kind": "per_move", "turn_seconds": 2 * DAY, "weekend_pause": False,
      "vacation_allowed": True}, 2 * DAY),
    (BANK, {**BANK, "weekend_pause": False, "vacation_allowed": True}, None),
    ({"kind": "bank", "initial_seconds": DAY, "weekend_pause": True, "vacation_allowed": False},
     {"kind": "bank", "initial_seconds": DAY, "increment_seconds": 0, "maximum_seconds": DAY,
      "weekend_pause": True, "vacation_allowed": False}, None),
    ({"days_per_turn": 3}, {"kind": "per_move", "turn_seconds": 3 * DAY,
                            "weekend_pause": False, "vacation_allowed": True}, 3 * DAY),
    ({"hours_per_turn": 5}, {"kind": "per_move", "turn_seconds": 5 * HOUR,
                             "weekend_pause": False, "vacation_allowed": True}, 5 * HOUR),
])
def test_both_forms_are_taken(client_for, alice, time_control, answered, turn_seconds):
    body = create_match(client_for(alice), time_control=time_control)
    assert body["time_control"] == answered
    assert body["turn_seconds"] == turn_seconds, "older clients still read per_move turns"
    assert body["clocks"]["kind"] == answered["kind"]
    assert [seat["on_turn"] for seat in body["clocks"]["seats"]] == [False, False]


@pytest.mark.parametrize("time_control, field", [
    ({"kind": "hourglass", "turn_seconds": DAY}, "kind"),
    ({"kind": None, "turn_seconds": DAY}, "kind"),
    ({"kind": "per_move"}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": MIN_TURN - 1}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": MAX_TURN + 1}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": 2.5 * HOUR}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": "86400"}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": True}, "turn_seconds"),
    ({"kind": "per_move", "turn_seconds": DAY, "initial_seconds": DAY}, "initial_seconds"),
    ({"kind": "per_move", "turn_seconds": DAY, "days_per_turn": 1}, "days_per_turn"),
    ({"kind": "per_move", "turn_seconds": DAY, "weekend_pause": "yes"}, "weekend_pause"),
    ({"kind": "per_move", "turn_seconds": DAY, "vacation_allowed": 1}, "vacation_allowed"),
    ({"kind": "bank"}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": MIN_TURN - 1}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": MAX_TURN + 1}, "initial_seconds"),
    ({"kind": "bank", "initial_seconds": DAY, "increment_seconds": -1}, "increment_seconds"),
    ({"kind": "bank", "initial_seconds": DAY, "increment_seconds": MAX_INCREMENT + 1},
     "increment_seconds"),
    ({"kind": "bank", "initial_seconds": 2 * DAY, "maximum_seconds": DAY}, "maximum_seconds"),
    ({"kind": "bank", "initial_seconds": DAY, "maximum_seconds": MAX_BANK + 1},
     "maximum_seconds"),
    ({"kind": "bank", "initial_seconds": DAY, "turn_seconds": DAY}, "turn_seconds"),
])
def test_a_bad_time_control_is_a_coded_error_and_creates_nothing(client_for, alice,
                                                                  time_control, field):
    for language in ("en", "fr", "pt-br", "ko"):
        response = client_for(alice).post("/api/matches", {
            "game": "nibble", "time_control": time_control}, format="json",
            HTTP_ACCEPT_LANGUAGE=language)
        assert_error(response, 400, "invalid_time_control", field=field)
    assert not Match.objects.exists()


def test_the_bounds_come_with_an_out_of_range_value(client_for, alice):
    response = client_for(alice).post("/api/matches", {"game": "nibble", "time_control": {
        "kind": "bank", "initial_seconds": 2 * DAY, "maximum_seconds": DAY}}, format="json")
    assert_error(response, 400, "invalid_time_control", field="maximum_seconds",
                 minimum=2 * DAY, maximum=MAX_BANK)


@pytest.mark.parametrize("time_control", [
    "fast", 86400, [{"kind": "per_move"}], {}, {"days_per_turn": 4}, {"minutes_per_turn": 5},
])
def test_what_is_no_time_control_at_all_stays_a_validation_error(client_for, alice,
                                                                   time_control):
    response = client_for(alice).post("/api/matches", {
        "game": "nibble", "time_control": time_control}, format="json")
    fields = assert_error(response, 400, "validation_error")["extra"]["fields"]
    assert "time_control" in fields
    assert not Match.objects.exists()


def test_the_detail_shows_each_seats_clock_as_of_the_answer(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    with time_machine.travel(NOON, tick=False):
        match = start_nibble_match(a, b, time_control=BANK)
    with time_machine.travel(NOON + timedelta(hours=5), tick=False):
        body = a.get(match_url(match.id)).json()
    assert body["clocks"] == {
        "kind": "bank", "as_of": "2026-11-04T17:00:00Z",
        "seats": [
            {"seat": 0, "time_left": 3 * DAY - 5 * HOUR, "deadline": "2026-11-07T12:00:00Z",
             "on_turn": True, "running": True, "counting": True, "vacation": False},
            {"seat": 1, "time_left": 3 * DAY, "deadline": None, "on_turn": False,
             "running": False, "counting": False, "vacation": False}]}
    assert body["deadline"] == "2026-11-07T12:00:00Z"
    with time_machine.travel(NOON + timedelta(hours=6), tick=False):
        legal = a.get(match_url(match.id)).json()["legal_moves"]
        takeable = legal["takeable"]
        colour = sorted(takeable, key=int)[0]
        answer = submit(a, match.id, {"take": [takeable[colour][0]]}, 0).json()
    seats = answer["match"]["clocks"]["seats"]
    assert seats[0]["time_left"] == 3 * DAY - 6 * HOUR + DAY and seats[0]["on_turn"] is False
    assert seats[1]["on_turn"] is True and seats[1]["deadline"] == "2026-11-07T18:00:00Z"


def test_a_rematch_keeps_the_clock(client_for, alice, bob):
    a, b = client_for(alice), client_for(bob)
    match = start_nibble_match(a, b, time_control={**BANK, "weekend_pause": True})
    assert a.post(match_url(match.id, "resign")).status_code == 200
    rematch = a.post(match_url(match.id, "rematch")).json()
    assert rematch["time_control"] == {**BANK, "weekend_pause": True,
                                       "vacation_allowed": True}
