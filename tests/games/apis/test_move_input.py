"""games.api.matches.move_input reads a well-formed move body without the serializer and hands
anything else to MoveInputSerializer: for every body, its answer is the serializer's (the same
values, or the same coded refusal)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.matches import MoveInputSerializer, move_input

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10, max_value=10**20)
    | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                               max_size=3),
    max_leaves=8)
bodies = st.dictionaries(
    st.sampled_from(["move", "expected_version", "plan", "other"]),
    json_values | st.integers(min_value=-3, max_value=3), max_size=4) | json_values


def _serializer_answer(body):
    checked = MoveInputSerializer(data=body)
    if not checked.is_valid():
        return ("refused", checked.errors)
    data = checked.validated_data
    return (data["move"], data.get("expected_version"), data.get("plan"))


def _our_answer(body):
    try:
        return move_input(body)
    except ValidationError as error:
        return ("refused", error.detail)


@settings(max_examples=400, deadline=None)
@given(bodies)
def test_every_body_is_answered_as_the_serializer_answers_it(body):
    assert _our_answer(body) == _serializer_answer(body)


@pytest.mark.parametrize("body", [
    {"move": {"take": [[1, 2]]}},
    {"move": {"take": [[1, 2]]}, "expected_version": 0},
    {"move": {"take": [[1, 2]]}, "expected_version": 7, "plan": [{"move": 1}]},
    {"move": ["any"], "plan": None},
    {"move": 0, "plan": []},
])
def test_bodies_clients_send_are_read_without_the_serializer(body, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the serializer was used")

    monkeypatch.setattr(MoveInputSerializer, "is_valid", refuse)
    assert move_input(body) == (body["move"], body.get("expected_version"), body.get("plan"))


@pytest.mark.parametrize("body", [
    {"move": None}, {"move": 1, "expected_version": None}, {"move": 1, "expected_version": -1},
    {"move": 1, "expected_version": True}, {"move": 1, "expected_version": "2"},
    {"move": 1, "expected_version": 2.0}, {"move": 1, "extra": 1}, {}, [], "move", None,
])
def test_bodies_that_are_off_are_refused_as_the_serializer_refuses_them(body):
    answer = _our_answer(body)
    assert answer[0] == "refused" and answer == _serializer_answer(body)
