"""Import-linter contract types that take the game packages from the registry.

The architecture contracts in pyproject.toml say what holds for every game package: each is
pure Python, none imports another, and they sit between the catalog and the kit. Rather than
list the games by hand, a contract of one of these types writes ``{games}`` where the game
packages go: in a list of modules it stands for every registered game's package, as a layer for
all of them side by side (independent of each other). The packages are those of the games that
``games.catalog`` registers, so a new game is checked as soon as it is registered, with no edit
to the contracts. ``lint-imports`` imports this module from the project's folder (it puts the
current directory first on the import path); the catalog it reads is pure Python.
"""

from __future__ import annotations

from typing import Any

from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

GAMES = "{games}"


def game_packages() -> list[str]:
    """The package of every game the catalog registers, sorted (``games.nibble``, ...)."""
    from games.catalog import games

    return sorted({spec.engine.__module__.rpartition(".")[0] for spec in games().values()})


def expand(value: Any, *, as_layer: bool = False) -> Any:
    """``value`` with each ``{games}`` item of a list replaced by the game packages: one item
    each, or, ``as_layer``, one layer of them all (``games.a | games.b``)."""
    if not isinstance(value, list):
        return value
    packages = game_packages()
    expanded: list[Any] = []
    for item in value:
        if item != GAMES:
            expanded.append(item)
        elif as_layer:
            expanded.append(" | ".join(packages))
        else:
            expanded.extend(packages)
    return expanded


class ForbiddenWithGames(ForbiddenContract):
    """A ``forbidden`` contract whose module lists may name ``{games}``."""

    def __init__(self, name: str, session_options: dict[str, Any],
                 contract_options: dict[str, Any]) -> None:
        super().__init__(name, session_options,
                         {key: expand(value) for key, value in contract_options.items()})


class IndependenceWithGames(IndependenceContract):
    """An ``independence`` contract whose modules may name ``{games}``."""

    def __init__(self, name: str, session_options: dict[str, Any],
                 contract_options: dict[str, Any]) -> None:
        super().__init__(name, session_options,
                         {key: expand(value) for key, value in contract_options.items()})


class LayersWithGames(LayersContract):
    """A ``layers`` contract where a layer written ``{games}`` holds every game package, each
    independent of the others."""

    def __init__(self, name: str, session_options: dict[str, Any],
                 contract_options: dict[str, Any]) -> None:
        super().__init__(name, session_options,
                         {key: expand(value, as_layer=key == "layers")
                          for key, value in contract_options.items()})
