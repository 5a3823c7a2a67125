"""The API's orjson renderer writes the bytes DRF's own JSON renderer writes."""

from __future__ import annotations

import datetime
import decimal
import uuid

import pytest
from rest_framework.renderers import JSONRenderer

from config.api import ORJSONRenderer
from tests.games.matchplay import match_url

SAMPLES = [
    {"id": uuid.UUID("12345678-1234-5678-1234-567812345678"), "n": None, "ok": True},
    {"at": datetime.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=datetime.UTC),
     "plain": datetime.datetime(2026, 1, 2, 3, 4, 5), "day": datetime.date(2026, 1, 2),
     "time": datetime.time(3, 4, 5), "span": datetime.timedelta(seconds=90)},
    {"text": "é ü 中 \u2028 \u2029 \" \\ \n \t <>&", "empty": "", "list": [1, 2.5, -0.0]},
    {"score": 12.0, "rating": 1234.5678, "tiny_int": 0, "big": 2**63 - 1},
    {"decimal": decimal.Decimal("1.5"), "tuple": (1, 2), "nested": [[{"a": [[]]}]]},
    {1: "int key", "s": {"t": [True, False, None]}},
    {"huge": 2**70},  # beyond orjson: DRF's renderer writes it
]


@pytest.mark.parametrize("data", SAMPLES)
def test_same_bytes_as_drf(data):
    assert ORJSONRenderer().render(data) == JSONRenderer().render(data)


def test_indented_output_is_drfs():
    data = {"a": [1, {"b": 2}]}
    media = "application/json; indent=4"
    assert ORJSONRenderer().render(data, media, {}) == JSONRenderer().render(data, media, {})


def test_none_renders_empty():
    assert ORJSONRenderer().render(None) == b""


def test_unknown_types_still_fail():
    with pytest.raises(TypeError):
        ORJSONRenderer().render({"x": object()})


@pytest.mark.django_db
def test_match_answers_are_the_bytes_drf_would_write(nibble):
    nibble.play_one()
    for client in (nibble.a, nibble.b):
        response = client.get(match_url(nibble.id))
        assert response.content == JSONRenderer().render(response.data)
        moves = client.get(match_url(nibble.id, "moves"))
        assert moves.content == JSONRenderer().render(moves.data)
