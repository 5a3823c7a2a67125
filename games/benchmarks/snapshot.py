"""The JSON state the move floors write on every move: about 2 KB, the size of a Nibble
snapshot, with the version written into it (``games.benchmarks.floor`` and
``games.benchmarks.bare``). Nothing here imports Django, so the bare floor can use it."""

from __future__ import annotations

from typing import Any

_STATE: dict[str, Any] = {
    "board": [[(row * 7 + col) % 5 for col in range(16)] for row in range(16)],
    "scores": [0, 0],
    "to_move": 0,
}


def floor_state(version: int) -> dict[str, Any]:
    return {**_STATE, "to_move": version % 2, "version": version}
