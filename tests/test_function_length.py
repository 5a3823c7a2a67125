"""No function of the server is longer than 60 lines.

Every Python file of the project is read, except the tests, the migrations (generated) and the
pure game packages (the kit, the reference engines and each registered game's package, whose
search code keeps its own shape). A function's length runs from its ``def`` line to its last
line, docstring and nested functions included, decorators not; a method is named with its
class. A function over the limit is split into well-named helpers.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

from games.catalog import games

MAX_LINES = 60
ROOT = Path(__file__).resolve().parents[1]
# Folders never read: the tests, generated migrations, and what is not the project's source.
SKIPPED_FOLDERS = {"tests", "migrations", "node_modules", "__pycache__", "build", "dist", "var"}
GAME_PACKAGES = {"games.kit", "games.reference", *(
    spec.engine.__module__.rpartition(".")[0] for spec in games().values())}


def _sources() -> Iterator[Path]:
    game_folders = {ROOT.joinpath(*package.split(".")) for package in GAME_PACKAGES}
    for folder, subfolders, files in os.walk(ROOT):
        here = Path(folder)
        subfolders[:] = sorted(
            name for name in subfolders
            if not name.startswith(".") and name not in SKIPPED_FOLDERS
            and here / name not in game_folders)
        yield from (here / name for name in sorted(files) if name.endswith(".py"))


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length) of each function in ``source`` over ``limit``."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                length = (child.end_lineno or child.lineno) - child.lineno + 1
                if length > limit:
                    found.append((name, child.lineno, length))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def test_no_function_outside_the_game_packages_is_longer_than_60_lines() -> None:
    offenders = []
    for path in _sources():
        for name, line, length in long_functions(path.read_text(encoding="utf-8")):
            offenders.append(f"  {path.relative_to(ROOT)}:{line} {name} ({length} lines)")
    assert not offenders, (f"functions longer than {MAX_LINES} lines (split them into "
                           "well-named helpers):\n" + "\n".join(offenders))


def test_the_scan_reads_the_server_and_leaves_out_tests_migrations_and_game_packages() -> None:
    read = {path.relative_to(ROOT).as_posix() for path in _sources()}
    assert "games/notify/delivery.py" in read
    assert "games/benchmarks/management/commands/bench_api.py" in read
    assert "manage.py" in read
    assert not any(path.startswith("tests/") or "/migrations/" in path for path in read)
    assert not any(path.startswith(("games/kit/", "games/nibble/", "games/reference/"))
                   for path in read)


def test_a_function_is_measured_from_def_to_last_line_docstring_included() -> None:
    at_limit = ["@decorator", "def at_limit():", '    """Doc."""',
                *(f"    x{n} = {n}" for n in range(57)), "    return 1"]
    over = ["class Holder:", "    async def over(self):", '        """Doc', "", '        more."""',
            *(f"        y{n} = {n}" for n in range(54)),
            "        def inner():", "            return 2", "        return inner"]
    source = "\n".join([*at_limit, "", *over]) + "\n"
    assert long_functions(source) == [("Holder.over", len(at_limit) + 3, 61)]
    assert long_functions(source, limit=1) == [
        ("at_limit", 2, 60), ("Holder.over", len(at_limit) + 3, 61),
        ("Holder.over.inner", len(at_limit) + 3 + 58, 2)]
