"""Fixtures of the operations tests."""

from __future__ import annotations

import pytest

from games.services import scheduling
from tests.ops.play import TaskQueue


@pytest.fixture
def queue(monkeypatch) -> TaskQueue:
    """The work the services queue after commit, held for the test to run (``drain``)."""
    tasks = TaskQueue()
    monkeypatch.setattr(scheduling, "send", tasks.send)
    return tasks
