"""What the services package promises about its imports: the tasks depend on the services and
never the reverse, and the recording path is reached only through the services."""

from __future__ import annotations

import grimp
import pytest


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("games", "accounts", "config", cache_dir=None)


def test_the_services_never_import_the_tasks(graph: grimp.ImportGraph) -> None:
    chains = graph.find_shortest_chains(importer="games.services", imported="games.tasks",
                                        as_packages=True)
    assert not chains, chains


def test_only_the_services_import_the_recording_path(graph: grimp.ImportGraph) -> None:
    importers = graph.find_modules_that_directly_import("games.services._recording")
    assert importers and all(m.startswith("games.services.") for m in importers), importers
