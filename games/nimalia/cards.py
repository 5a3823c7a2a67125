"""The 60 Nimalia animal cards, read once from the package's ``cards.csv``.

Each card is a 2x2 grid of squares listed as [top-left, top-right, bottom-left, bottom-right] in
the card's reference orientation. A square shows one animal on one terrain; otter squares also
carry a river diagonal: ``/`` joins the square's bottom-left and top-right corners, ``\\`` joins
its top-left and bottom-right corners.
"""

from __future__ import annotations

import csv
import io
from importlib import resources
from typing import NamedTuple

LAKE, SAVANNAH, ICE, FOREST = "lake", "savannah", "ice", "forest"
TERRAINS = (LAKE, SAVANNAH, ICE, FOREST)

FLAMINGO, CROCODILE = "flamingo", "crocodile"
LION, GIRAFFE = "lion", "giraffe"
POLAR_BEAR, PENGUIN = "polar_bear", "penguin"
GORILLA, PANDA = "gorilla", "panda"
OTTER = "otter"
ANIMALS = (FLAMINGO, CROCODILE, LION, GIRAFFE, POLAR_BEAR, PENGUIN, GORILLA, PANDA, OTTER)

# The terrain every animal but the otter always stands on.
ANIMAL_TERRAIN = {
    FLAMINGO: LAKE, CROCODILE: LAKE,
    LION: SAVANNAH, GIRAFFE: SAVANNAH,
    POLAR_BEAR: ICE, PENGUIN: ICE,
    GORILLA: FOREST, PANDA: FOREST,
}

RIVER_UP = "/"      # bottom-left corner to top-right corner
RIVER_DOWN = "\\"   # top-left corner to bottom-right corner

ROTATIONS = (0, 90, 180, 270)

# Where each square of a card lands, relative to the card's top-left cell: TL, TR, BL, BR.
CARD_OFFSETS = ((0, 0), (0, 1), (1, 0), (1, 1))

# Turning a card clockwise: which old square ends up at TL, TR, BL, BR.
_TURNS = {0: (0, 1, 2, 3), 90: (2, 0, 3, 1), 180: (3, 2, 1, 0), 270: (1, 3, 0, 2)}
_FLIPPED_RIVER = {"": "", RIVER_UP: RIVER_DOWN, RIVER_DOWN: RIVER_UP}


class Square(NamedTuple):
    """One visible square: its animal, its terrain and its river diagonal ("" when none)."""

    animal: str
    terrain: str
    river: str = ""


Card = tuple[Square, Square, Square, Square]


def _parse_square(text: str) -> Square:
    river = ""
    if text[-1] in (RIVER_UP, RIVER_DOWN):
        text, river = text[:-1], text[-1]
    animal, terrain = (part.lower() for part in text.split("@"))
    if animal not in ANIMALS or terrain not in TERRAINS:
        raise ValueError(f"Unknown square {text!r} in cards.csv")
    if animal == OTTER:
        if not river or terrain == LAKE:
            raise ValueError(f"An otter needs a river and no lake: {text!r}")
    elif river or ANIMAL_TERRAIN[animal] != terrain:
        raise ValueError(f"Square {text!r} breaks the terrain rule")
    return Square(animal, terrain, river)


def _load_cards() -> dict[int, Card]:
    text = resources.files(__package__).joinpath("cards.csv").read_text(encoding="utf-8")
    cards: dict[int, Card] = {}
    for row in csv.DictReader(io.StringIO(text)):
        squares = tuple(_parse_square(row[key]) for key in ("TL", "TR", "BL", "BR"))
        cards[int(row["id"])] = squares  # type: ignore[assignment]
    if sorted(cards) != list(range(1, 61)):
        raise ValueError("cards.csv must hold the cards 1 to 60")
    return cards


def rotate(card: Card, rotation: int) -> Card:
    """The card turned clockwise by ``rotation`` degrees; 90 and 270 swap ``/`` and ``\\``."""
    order = _TURNS[rotation]
    flip = rotation in (90, 270)
    squares = []
    for index in order:
        square = card[index]
        if flip and square.river:
            square = square._replace(river=_FLIPPED_RIVER[square.river])
        squares.append(square)
    return tuple(squares)  # type: ignore[return-value]


CARDS: dict[int, Card] = _load_cards()
CARD_IDS = tuple(sorted(CARDS))

# Every card in every orientation, looked up on the hot paths.
ROTATED: dict[tuple[int, int], Card] = {
    (card_id, rotation): rotate(card, rotation)
    for card_id, card in CARDS.items()
    for rotation in ROTATIONS
}
