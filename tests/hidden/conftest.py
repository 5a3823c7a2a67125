"""Every registered game, and Nim (the test-only fourth game, registered for the test), as a
parameter: a property proved here holds for a game as soon as it is registered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import get_resolver

from games.catalog import games
from games.kit.registry import GameSpec, register, unregister
from tests.fourth_game.nim import SPEC as NIM_SPEC

GAME_SLUGS = sorted({*games(), NIM_SPEC.slug})


@pytest.fixture(params=GAME_SLUGS)
def spec(request: pytest.FixtureRequest) -> Iterator[GameSpec]:
    """A registered game's spec; Nim joins the registry for the test and leaves after it."""
    slug = request.param
    if slug in games():
        yield games()[slug]
        return
    get_resolver().url_patterns  # noqa: B018  (loads every view before Nim joins)
    registered = register(NIM_SPEC)
    try:
        yield registered
    finally:
        unregister(registered.slug)
