"""Reserve geometry: where cards land, what stays visible, and where the next card may go.

Coordinates are absolute (row, col) cells; rows grow downwards, columns to the right. A card
placed at (row, col) covers its top-left cell (row, col) and the three cells to the right and
below. The reserve never rotates, so rows stay horizontal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.nimalia.cards import CARD_OFFSETS, ROTATED, Square

MAX_SIZE = 6  # the reserve's bounding box may never exceed 6 x 6

Cell = tuple[int, int]
Placed = tuple[int, int, int, int]  # card, row, col, rotation


def footprint(row: int, col: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells a card anchored at (row, col) covers, in TL, TR, BL, BR order."""
    return ((row, col), (row, col + 1), (row + 1, col), (row + 1, col + 1))


def visible_cards(placements: Iterable[Placed]) -> dict[Cell, tuple[Square, int]]:
    """Each occupied cell's visible square and the card it belongs to (later cards on top)."""
    cells: dict[Cell, tuple[Square, int]] = {}
    for card, row, col, rotation in placements:
        for square, (dr, dc) in zip(ROTATED[card, rotation], CARD_OFFSETS, strict=True):
            cells[row + dr, col + dc] = (square, card)
    return cells


def visible_squares(placements: Iterable[Placed]) -> dict[Cell, Square]:
    """Each occupied cell's visible square: the grid every objective is scored on."""
    cells: dict[Cell, Square] = {}
    for card, row, col, rotation in placements:
        for square, (dr, dc) in zip(ROTATED[card, rotation], CARD_OFFSETS, strict=True):
            cells[row + dr, col + dc] = square
    return cells


def bounds(cells: Iterable[Cell]) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of a non-empty set of cells, inclusive."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return min(rows), min(cols), max(rows), max(cols)


def placement_problem(occupied: Mapping[Cell, object] | set[Cell], row: int,
                      col: int) -> str | None:
    """Why a card may not be anchored at (row, col), as a rule-code suffix, or None if it may.

    The first card may go anywhere. A later card must cover at least one occupied cell
    (``no_overlap``) and keep the bounding box within 6 x 6 (``exceeds_6x6``).
    """
    if not occupied:
        return None
    if not any(cell in occupied for cell in footprint(row, col)):
        return "no_overlap"
    top, left, bottom, right = bounds(occupied)
    if (max(bottom, row + 1) - min(top, row) >= MAX_SIZE
            or max(right, col + 1) - min(left, col) >= MAX_SIZE):
        return "exceeds_6x6"
    return None


def legal_anchors(occupied: Mapping[Cell, object] | set[Cell]) -> list[Cell]:
    """Every (row, col) where the next card may be anchored, whatever the card or rotation.

    For an empty reserve that is only (0, 0): the first card may go anywhere, and every
    position is the same up to translation, so the engine stores it at (0, 0).
    """
    if not occupied:
        return [(0, 0)]
    top, left, bottom, right = bounds(occupied)
    anchors = []
    for row in range(max(top - 1, bottom + 1 - MAX_SIZE), min(bottom, top + MAX_SIZE - 2) + 1):
        for col in range(max(left - 1, right + 1 - MAX_SIZE),
                         min(right, left + MAX_SIZE - 2) + 1):
            if ((row, col) in occupied or (row, col + 1) in occupied
                    or (row + 1, col) in occupied or (row + 1, col + 1) in occupied):
                anchors.append((row, col))
    return anchors
