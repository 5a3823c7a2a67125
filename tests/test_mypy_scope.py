"""Every registered game's package is type-checked, as strictly as the pure game code: mypy's
scope and its strict override are lists in pyproject.toml, so a new game fails here until it
is in both (docs/adding-a-game.md)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from games.catalog import games

ROOT = Path(__file__).resolve().parents[1]
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
BUILT_IN = sorted(slug for slug, spec in games().items()
                  if spec.engine.__module__.startswith("games."))


def _strict_modules() -> set[str]:
    found: set[str] = set()
    for override in MYPY.get("overrides", []):
        if override.get("disallow_any_generics") and override.get("disallow_untyped_calls"):
            found.update(override["module"])
    return found


@pytest.mark.parametrize("slug", BUILT_IN)
def test_every_game_package_is_in_mypy_scope_and_strict(slug):
    package = games()[slug].engine.__module__.rsplit(".", 1)[0]
    assert package.replace(".", "/") in MYPY["files"], package
    assert f"{package}.*" in _strict_modules(), package


def test_the_registry_holds_the_built_in_games():
    assert BUILT_IN, "no game registered from the games package"
