"""The import graph of the project's own packages, imports inside functions included.

`make test` checks the architecture contracts in pyproject.toml with import-linter; these tests
check, with the same graph library (grimp), what a contract cannot say or what every pytest run
should catch: the pure game packages reach no framework and no server module, even indirectly,
and no module imports itself round a cycle (a package's ``__init__`` and its own modules
included, which import-linter's sibling contract does not look at).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp
import pytest

from games.catalog import games

ROOTS = ("games", "accounts", "config")
# The kit, the catalog and the package of every registered game (a new game is checked as soon
# as it is registered).
PURE = ["games.kit", "games.catalog", *sorted(
    {spec.engine.__module__.rpartition(".")[0] for spec in games().values()})]
FORBIDDEN_FOR_PURE = [
    "django", "rest_framework", "celery", "kombu", "drf_spectacular", "redis", "psycopg",
    "games.models", "games.exceptions", "games.services", "games.selectors", "games.api",
    "games.live", "games.tasks", "games.web", "games.benchmarks", "games.management",
    "accounts", "config",
]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*ROOTS, include_external_packages=True, cache_dir=None)


def import_cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        work = [(root, iter(sorted(imports.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def _describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    members = set(cycle)
    lines = []
    for importer in cycle:
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members):
            details = graph.get_import_details(importer=importer, imported=imported)
            where = ", ".join(f"l.{d['line_number']}" for d in details)
            lines.append(f"  {importer} -> {imported} ({where})")
    return "\n".join(lines)


def test_no_module_is_part_of_an_import_cycle(graph: grimp.ImportGraph) -> None:
    own = {m for m in graph.modules if m.split(".")[0] in ROOTS}
    imports = {m: graph.find_modules_directly_imported_by(m) & own for m in own}
    cycles = import_cycles(imports)
    assert not cycles, "import cycles:\n" + "\n\n".join(_describe(graph, c) for c in cycles)


@pytest.mark.parametrize("package", PURE)
def test_pure_packages_reach_no_framework_and_no_server_module(
    graph: grimp.ImportGraph, package: str
) -> None:
    reached = []
    for forbidden in FORBIDDEN_FOR_PURE:
        if forbidden not in graph.modules:
            continue
        chains = graph.find_shortest_chains(importer=package, imported=forbidden,
                                            as_packages=True)
        reached += [" -> ".join(chain) for chain in sorted(chains)]
    assert not reached, f"{package} imports, directly or not:\n" + "\n".join(reached)


def test_the_cycle_finder_sees_cycles_and_only_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e", "d"}}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_the_graph_sees_imports_inside_functions(graph: grimp.ImportGraph) -> None:
    # games.apps imports the catalog inside AppConfig.ready().
    assert "games.catalog" in graph.find_modules_directly_imported_by("games.apps")
