"""The error envelope answers the coded errors that apps register, at the status they choose."""

from __future__ import annotations

from typing import Any

import pytest

from config import exceptions
from config.exceptions import api_exception_handler, register_error_status, registered_status
from games.kit.protocol import EngineError, IllegalMove, MalformedMove, NotYourTurn


class ToyError(Exception):
    code = "toy_error"

    def __init__(self, message: str, code: str | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.extra = extra


class SubToyError(ToyError):
    pass


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setattr(exceptions, "_REGISTERED_STATUS", dict(exceptions._REGISTERED_STATUS))
    # The toy's code must not stay in the API's code registry (docs/api.md's table, the schema).
    monkeypatch.setattr(exceptions, "_ERROR_CODES", dict(exceptions._ERROR_CODES))
    register_error_status(ToyError, {"toy_broken": 418}, default=409)


def test_a_registered_error_is_answered_with_the_envelope(toy_registered):
    response = api_exception_handler(ToyError("It broke.", code="toy_broken", part="wheel"), {})
    assert response is not None
    assert response.status_code == 418
    assert response.data == {"code": "toy_broken", "message": "It broke.",
                             "extra": {"part": "wheel"}}


def test_an_unmapped_code_gets_the_default_and_subclasses_share_the_map(toy_registered):
    assert registered_status(ToyError("x")) == 409
    assert registered_status(SubToyError("x", code="toy_broken")) == 418


def test_an_unregistered_error_is_left_to_drf(toy_registered):
    assert registered_status(ValueError("x")) is None
    assert api_exception_handler(ValueError("x"), {}) is None


def test_the_games_app_registers_the_engine_errors():
    assert registered_status(MalformedMove("x")) == 400
    assert registered_status(NotYourTurn("x")) == 409
    assert registered_status(IllegalMove("x", rule="r")) == 422
    assert registered_status(EngineError("x")) == 400
