"""Nim registers like a built-in game and leaves no trace once its test is over."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.kit.registry import engines, game, games, get_engine
from tests.fourth_game import nim as nim_package
from tests.fourth_game.nim import SPEC
from tests.fourth_game.nim.engine import NIM

BUILT_IN = {"nibble", "nimble", "nimalia"}


def test_nim_is_found_wherever_the_server_looks(nim):
    assert set(games()) == BUILT_IN | {"nim"}
    assert game("nim") is SPEC and get_engine("nim") is NIM
    assert engines()["nim"] is NIM
    assert SPEC.levels == (1,) and not SPEC.needs_history(1)


def test_without_the_fixture_only_the_built_in_games_are_registered():
    assert set(games()) == BUILT_IN
    with pytest.raises(KeyError):
        game("nim")


def test_registering_nim_twice_is_harmless_and_a_rival_is_refused(nim):
    from games.kit.registry import GameSpec, register

    assert register(SPEC) is SPEC
    with pytest.raises(ValueError):
        register(GameSpec(engine=NIM, policies=SPEC.policies, render=SPEC.render))


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at any depth (inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_the_package_is_pure_python():
    """Like a built-in game package: the standard library, the kit and its own modules only."""
    folder = Path(nim_package.__file__).parent
    for path in sorted(folder.glob("*.py")):
        for module in _imports(path):
            root = module.split(".")[0]
            if root == "games":
                assert module.startswith("games.kit"), f"{path.name} imports {module}"
            elif root == "tests":
                assert module.startswith(nim_package.__name__), f"{path.name} imports {module}"
            else:
                assert root in {"__future__", "collections", "dataclasses", "random",
                                "typing"}, f"{path.name} imports {module}"
