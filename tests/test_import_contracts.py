"""The architecture contracts in pyproject.toml take the game packages from the registry: no
contract names a game, and each contract that writes ``{games}`` checks every registered one
(``tests/import_contracts.py``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from django.conf import settings

from games.catalog import games
from tests import import_contracts

PYPROJECT = Path(settings.BASE_DIR) / "pyproject.toml"
PACKAGES = sorted({spec.engine.__module__.rpartition(".")[0] for spec in games().values()})


def _linter() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]


def _contract_types() -> dict[str, type]:
    types = {}
    for line in _linter()["contract_types"]:
        name, _, path = line.partition(": ")
        module, _, cls = path.rpartition(".")
        assert module == import_contracts.__name__
        types[name] = getattr(import_contracts, cls)
    return types


def test_the_game_packages_are_the_registered_games():
    assert import_contracts.game_packages() == PACKAGES
    assert len(PACKAGES) == len(games())


def test_no_contract_names_a_game():
    for contract in _linter()["contracts"]:
        text = repr(contract)
        for package in PACKAGES:
            assert package not in text, (contract["name"], package)


def test_every_contract_that_writes_games_checks_every_registered_game():
    types = _contract_types()
    written = 0
    for contract in _linter()["contracts"]:
        if "{games}" not in repr(contract):
            continue
        written += 1
        options = {k: v for k, v in contract.items() if k not in {"name", "type", "id"}}
        built = types[contract["type"]](contract["name"], {}, options)
        modules = set()
        for field in ("source_modules", "forbidden_modules", "modules"):
            modules |= {str(m) for m in getattr(built, field, None) or ()}
        for layer in getattr(built, "layers", None) or ():
            names = {tail.name for tail in layer.module_tails}
            if names & set(PACKAGES):
                assert names == set(PACKAGES) and layer.is_independent, contract["name"]
                modules |= names
        assert set(PACKAGES) <= modules, contract["name"]
    assert written == 5


def test_a_games_layer_is_one_layer_of_independent_packages():
    assert import_contracts.expand(["a", "{games}", "b"], as_layer=True) == [
        "a", " | ".join(PACKAGES), "b"]
    assert import_contracts.expand(["a", "{games}"]) == ["a", *PACKAGES]
    assert import_contracts.expand("as it is") == "as it is"
