"""The game packages and the kit stay pure Python: no Django, DRF or Celery imports."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = {"django", "rest_framework", "celery", "kombu", "drf_spectacular"}
PURE_PACKAGES = ["games/kit", "games/nibble", "games/nimble", "games/nimalia"]


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
            if node.module.startswith("games.") and not any(
                node.module.startswith(pkg.replace("/", ".")) for pkg in PURE_PACKAGES
            ):
                roots.add("games.<non-pure>")
    return roots


def _pure_files() -> list[Path]:
    return sorted(p for pkg in PURE_PACKAGES for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("path", _pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_imports_no_framework(path: Path) -> None:
    bad = _imported_roots(path) & (FORBIDDEN | {"games.<non-pure>"})
    assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_checker_catches_a_django_import(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("from django.db import models\nimport celery.app\n")
    assert {"django", "celery"} <= _imported_roots(module)
