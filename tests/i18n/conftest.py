"""The catalogues are compiled (as make test does) before these tests read any translation."""

from __future__ import annotations

import pytest

from config.catalogues import compile_all


@pytest.fixture(scope="session", autouse=True)
def _compiled_catalogues():
    compile_all()
