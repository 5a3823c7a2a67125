"""Nim joins the server for a test and leaves afterwards, so every other test sees only the
built-in games."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import get_resolver

import games.catalog  # noqa: F401  (the built-in games are registered on import)
from games.kit.registry import GameSpec, register, unregister
from tests.fourth_game.nim import SPEC


@pytest.fixture
def nim() -> Iterator[GameSpec]:
    """Nim, registered through the same call that registers the built-in games.

    The server is loaded first (every URL and so every view module), so Nim joins a running
    server: whatever the server knows of Nim it must learn from the registry when it needs it,
    and nothing loaded while Nim is registered can carry it into other tests."""
    get_resolver().url_patterns  # noqa: B018  (imports every view module)
    spec = register(SPEC)
    yield spec
    unregister(spec.slug)
