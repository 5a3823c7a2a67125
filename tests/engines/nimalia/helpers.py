"""Hand-built reserves and states for the Nimalia tests."""

from __future__ import annotations

import dataclasses

from games.nimalia.cards import ANIMAL_TERRAIN, OTTER, Square
from games.nimalia.engine import NIMALIA, Place, State

_CODES = {
    "FL": "flamingo", "CR": "crocodile", "LI": "lion", "GI": "giraffe",
    "PB": "polar_bear", "PE": "penguin", "GO": "gorilla", "PA": "panda",
}
_OTTER_TERRAIN = {"f": "forest", "s": "savannah", "i": "ice"}


def grid(picture: str) -> dict[tuple[int, int], Square]:
    """A grid of visible squares from a picture, top-left square at (0, 0).

    Tokens are separated by spaces: ``..`` is empty, ``FL CR LI GI PB PE GO PA`` are animals on
    their terrain, and an otter is ``O`` + terrain (``f``, ``s``, ``i``) + river (``/`` or ``\\``),
    e.g. ``Of/``.
    """
    cells = {}
    rows = [line.split() for line in picture.strip("\n").splitlines() if line.strip()]
    for r, tokens in enumerate(rows):
        for c, token in enumerate(tokens):
            if token == "..":
                continue
            if token[0] == "O":
                cells[r, c] = Square(OTTER, _OTTER_TERRAIN[token[1]], token[2])
            else:
                animal = _CODES[token]
                cells[r, c] = Square(animal, ANIMAL_TERRAIN[animal])
    return cells


def with_reserves(state: State, reserves: list[list[tuple[int, int, int, int]]]) -> State:
    """``state`` with the given revealed placements (card, row, col, rotation) per seat."""
    return dataclasses.replace(
        state, reserves=tuple(tuple(Place(*p) for p in seat) for seat in reserves))


def new_state(players: int, seed: str = "test-seed", **config) -> State:
    return NIMALIA.initial_state(num_players=players, config=config, seed=seed)
