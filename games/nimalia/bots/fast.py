"""Bitboard reserves for the level 3 search: the engine's 22 objectives, several times faster.

A board is a list of 16 integers used as bit sets over a 12 x 12 frame: occupied cells, one set
per terrain, one per animal and one per river diagonal. A reserve never exceeds 6 x 6 and never
loses a cell, so every cell it can still reach lies within 10 rows and 10 columns of where it is
now; the frame holds those with an empty border, so shifting a set by one cell never wraps into
another row. Each scorer here must give exactly what the engine's scorer in
``games.nimalia.scoring`` gives (tests/bots/test_nimalia_bots.py checks all of them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.kit.bits import bits
from games.nimalia.cards import (
    ANIMALS,
    CARD_OFFSETS,
    CROCODILE,
    FLAMINGO,
    FOREST,
    GIRAFFE,
    GORILLA,
    ICE,
    LAKE,
    LION,
    OTTER,
    PANDA,
    PENGUIN,
    POLAR_BEAR,
    RIVER_DOWN,
    RIVER_UP,
    ROTATED,
    SAVANNAH,
    TERRAINS,
    Square,
)
from games.nimalia.grid import MAX_SIZE, Cell
from games.nimalia.scoring import (
    FULL_SQUARE_POINTS,
    GIRAFFE_POINTS,
    crocodiles_flamingos_points,
    gorillas_pandas_points,
    lions_points,
    river_race_points,
)

Board = list[int]

W = 12                      # bits per frame row; columns 0 and 11 stay empty
ROWS = 12                   # rows 0 and 11 stay empty

OCC = 0
TERRAIN = {terrain: 1 + i for i, terrain in enumerate(TERRAINS)}
ANIMAL = {animal: 1 + len(TERRAINS) + i for i, animal in enumerate(ANIMALS)}
RIVER = {RIVER_UP: 1 + len(TERRAINS) + len(ANIMALS), RIVER_DOWN: 2 + len(TERRAINS) + len(ANIMALS)}
SETS = 3 + len(TERRAINS) + len(ANIMALS)
EMPTY: Board = [0] * SETS

FOOT = 1 | 2 | 1 << W | 1 << (W + 1)
ROW_MASKS = tuple(((1 << W) - 1) << (r * W) for r in range(1, ROWS - 1))
COL_MASKS = tuple(sum(1 << (r * W + c) for r in range(ROWS)) for c in range(1, W - 1))


def _features(square: Square) -> tuple[int, ...]:
    features = (TERRAIN[square.terrain], ANIMAL[square.animal])
    return (*features, RIVER[square.river]) if square.river else features


# Per (card, rotation): each square's bit offset from the anchor and the sets it joins.
CARD_BITS: dict[tuple[int, int], tuple[tuple[int, tuple[int, ...]], ...]] = {
    key: tuple((dr * W + dc, _features(square))
               for square, (dr, dc) in zip(card, CARD_OFFSETS, strict=True))
    for key, card in ROTATED.items()
}


# --------------------------------------------------------------------------- frames


class Frame:
    """Where one reserve's absolute cells sit in its board: cell (row0 + r, col0 + c) is bit
    ``r * W + c``. Chosen from the reserve as it is now, so every reachable cell fits."""

    __slots__ = ("col0", "row0")

    def __init__(self, grid: Mapping[Cell, object]) -> None:
        # A reserve within 6 x 6 can still grow to rows bottom - 5 .. top + 5 (and likewise
        # columns): with the first row at frame row 1, the last is at most frame row 10.
        bottom = max((r for r, _ in grid), default=1)   # a first card lands on rows 0 and 1
        right = max((c for _, c in grid), default=1)
        self.row0 = bottom - (MAX_SIZE - 1) - 1
        self.col0 = right - (MAX_SIZE - 1) - 1

    def bit(self, row: int, col: int) -> int:
        return (row - self.row0) * W + (col - self.col0)

    def cell(self, bit: int) -> Cell:
        return bit // W + self.row0, bit % W + self.col0

    def board(self, grid: Mapping[Cell, Square]) -> Board:
        board = list(EMPTY)
        for (row, col), square in grid.items():
            bit = 1 << self.bit(row, col)
            board[OCC] |= bit
            for feature in _features(square):
                board[feature] |= bit
        return board


def place(board: Board, card: int, rotation: int, anchor: int) -> Board:
    """The board with a card on top, its top-left square at bit ``anchor``."""
    cover = FOOT << anchor
    keep = ~cover
    new = [bits & keep for bits in board]
    new[OCC] = board[OCC] | cover
    for offset, features in CARD_BITS[card, rotation]:
        bit = 1 << (anchor + offset)
        for feature in features:
            new[feature] |= bit
    return new


def anchors(board: Board, first: int) -> list[int]:
    """Bits where the next card may be anchored (``first`` when the reserve is empty)."""
    occ = board[OCC]
    if not occ:
        return [first]
    rows = [r for r in range(1, ROWS - 1) if occ & ROW_MASKS[r - 1]]
    cols = [c for c in range(1, W - 1) if occ & COL_MASKS[c - 1]]
    top, bottom, left, right = rows[0], rows[-1], cols[0], cols[-1]
    box = 0
    for row in range(max(top - 1, bottom + 1 - MAX_SIZE), min(bottom, top + MAX_SIZE - 2) + 1):
        for col in range(max(left - 1, right + 1 - MAX_SIZE),
                         min(right, left + MAX_SIZE - 2) + 1):
            box |= 1 << (row * W + col)
    touching = occ | occ >> 1 | occ >> W | occ >> (W + 1)
    return bits(touching & box)


# --------------------------------------------------------------------------- measures


def _around(mask: int) -> int:
    return mask << 1 | mask >> 1 | mask << W | mask >> W


def _interior(occ: int) -> int:
    return occ & occ << 1 & occ >> 1 & occ << W & occ >> W


def _component_sizes(mask: int) -> list[int]:
    sizes = []
    while mask:
        part = mask & -mask
        while True:
            grown = (part | _around(part)) & mask
            if grown == part:
                break
            part = grown
        sizes.append(part.bit_count())
        mask &= ~part
    return sizes


def count(board: Board, animal: str) -> int:
    return board[ANIMAL[animal]].bit_count()


def _river_ends(bit: int, up: bool) -> tuple[int, int]:
    """The two vertices a segment joins, numbered like cells (vertex = the cell's top-left)."""
    return (bit + W, bit + 1) if up else (bit, bit + W + 1)


def river_lengths(board: Board) -> list[int]:
    up, down = board[RIVER[RIVER_UP]], board[RIVER[RIVER_DOWN]]
    if not up and not down:
        return []
    ends = {bit: _river_ends(bit, True) for bit in bits(up)}
    ends.update({bit: _river_ends(bit, False) for bit in bits(down)})
    at_vertex: dict[int, list[int]] = {}
    for bit, vertices in ends.items():
        for vertex in vertices:
            at_vertex.setdefault(vertex, []).append(bit)
    left = set(ends)
    sizes = []
    while left:
        stack = [left.pop()]
        size = 0
        while stack:
            bit = stack.pop()
            size += 1
            for vertex in ends[bit]:
                for other in at_vertex[vertex]:
                    if other in left:
                        left.remove(other)
                        stack.append(other)
        sizes.append(size)
    return sizes


def longest_river(board: Board) -> int:
    return max(river_lengths(board), default=0)


# --------------------------------------------------------------------------- own objectives

_ANIMAL_SETS = tuple(ANIMAL[animal] for animal in ANIMALS)
_TERRAIN_SETS = tuple(TERRAIN[terrain] for terrain in TERRAINS)
_END_OFFSETS = {
    # cells around a segment's two end vertices, as (row, col) offsets (see scoring.py)
    True: ((0, -1), (1, -1), (1, 0), (-1, 0), (-1, 1), (0, 1)),
    False: ((-1, 0), (-1, -1), (0, -1), (0, 1), (1, 1), (1, 0)),
}
_END_MASKS = {up: sum(1 << (W + 1 + dr * W + dc) for dr, dc in offsets)
              for up, offsets in _END_OFFSETS.items()}   # centred on bit W + 1


def otters_neighbours(board: Board) -> int:
    points = 0
    for bit in bits(board[ANIMAL[OTTER]]):
        near = _around(1 << bit)
        for index in _ANIMAL_SETS:
            found = board[index] & near
            if found & (found - 1):  # two or more
                points += found.bit_count()
    return points


def _shifted(mask: int, bit: int) -> int:
    """``mask`` (centred on bit W + 1) moved to be centred on ``bit``."""
    delta = bit - (W + 1)
    return mask << delta if delta >= 0 else mask >> -delta


def otters_into_lake(board: Board) -> int:
    lake = board[TERRAIN[LAKE]]
    points = 0
    for up, index in ((True, RIVER[RIVER_UP]), (False, RIVER[RIVER_DOWN])):
        for bit in bits(board[index]):
            if lake & _shifted(_END_MASKS[up], bit):
                points += 2
    return points


def forest_patches(board: Board) -> int:
    return 2 * len(_component_sizes(board[TERRAIN[FOREST]]))


def gorillas_by_lake(board: Board) -> int:
    return 2 * (board[ANIMAL[GORILLA]] & _around(board[TERRAIN[LAKE]])).bit_count()


def largest_savannah(board: Board) -> int:
    return 2 * max(_component_sizes(board[TERRAIN[SAVANNAH]]), default=0)


def savannahs_of_four(board: Board) -> int:
    return 6 * sum(1 for size in _component_sizes(board[TERRAIN[SAVANNAH]]) if size == 4)


def ice_blocks(board: Board) -> int:
    ice = board[TERRAIN[ICE]]
    return 4 * (ice & ice >> 1 & ice >> W & ice >> (W + 1)).bit_count()


def polar_bear_groups(board: Board) -> int:
    return sum(-1 if size == 1 else 2 * size
               for size in _component_sizes(board[ANIMAL[POLAR_BEAR]]))


def weakest_terrain(board: Board) -> int:
    return 2 * min(board[index].bit_count() for index in _TERRAIN_SETS)


def largest_full_square(board: Board) -> int:
    full = board[OCC]
    side = 0
    while full:
        side += 1
        full = full & full >> 1 & full >> W & full >> (W + 1)
    return side


def full_square(board: Board) -> int:
    return FULL_SQUARE_POINTS.get(largest_full_square(board), 0)


def four_terrain_rows(board: Board) -> int:
    lake, savannah, ice, forest = (board[index] for index in _TERRAIN_SETS)
    return 3 * sum(1 for row in ROW_MASKS
                   if lake & row and savannah & row and ice & row and forest & row)


def horizontal_pairs(board: Board) -> int:
    pairs = 0
    for index in _ANIMAL_SETS:
        a = board[index]
        pairs += (a & ~(a << 1) & a >> 1 & ~(a >> 2)).bit_count()
    return 3 * pairs


def few_giraffes(board: Board) -> int:
    giraffes = count(board, GIRAFFE)
    return GIRAFFE_POINTS[giraffes] if giraffes < len(GIRAFFE_POINTS) else 0


def inland_flamingos(board: Board) -> int:
    return 3 * (board[ANIMAL[FLAMINGO]] & _interior(board[OCC])).bit_count()


def long_river(board: Board) -> int:
    length = longest_river(board)
    return min(15, length * (length - 1) // 2)


def pandas_on_edge(board: Board) -> int:
    return 3 * (board[ANIMAL[PANDA]] & ~_interior(board[OCC])).bit_count()


def lone_penguins(board: Board) -> int:
    penguins = board[ANIMAL[PENGUIN]]
    if not penguins:
        return 0
    return 3 * sum(1 for column in COL_MASKS if (penguins & column).bit_count() == 1)


def crocodiles_meet_giraffes(board: Board) -> int:
    return 2 * (board[ANIMAL[CROCODILE]] & _around(board[ANIMAL[GIRAFFE]])).bit_count()


# --------------------------------------------------------------------------- comparing objectives


def longest_river_race(boards: Sequence[Board]) -> list[int]:
    return river_race_points([longest_river(b) for b in boards])


def gorillas_yes_pandas_no(boards: Sequence[Board]) -> list[int]:
    return gorillas_pandas_points([count(b, GORILLA) for b in boards],
                                  [count(b, PANDA) for b in boards])


def fewest_lions(boards: Sequence[Board]) -> list[int]:
    return lions_points([count(b, LION) for b in boards])


def crocodiles_yes_flamingos_no(boards: Sequence[Board]) -> list[int]:
    return crocodiles_flamingos_points([count(b, CROCODILE) for b in boards],
                                       [count(b, FLAMINGO) for b in boards])


OWN_SCORERS: dict[int, Callable[[Board], int]] = {
    1: otters_neighbours,
    2: otters_into_lake,
    3: forest_patches,
    4: gorillas_by_lake,
    5: largest_savannah,
    6: savannahs_of_four,
    7: ice_blocks,
    8: polar_bear_groups,
    9: weakest_terrain,
    10: full_square,
    11: four_terrain_rows,
    12: horizontal_pairs,
    13: few_giraffes,
    14: inland_flamingos,
    15: long_river,
    17: pandas_on_edge,
    19: lone_penguins,
    22: crocodiles_meet_giraffes,
}

COMPARE_SCORERS: dict[int, Callable[[Sequence[Board]], list[int]]] = {
    16: longest_river_race,
    18: gorillas_yes_pandas_no,
    20: fewest_lions,
    21: crocodiles_yes_flamingos_no,
}


def objective_points(objective_id: int, boards: Sequence[Board]) -> list[int]:
    own = OWN_SCORERS.get(objective_id)
    if own is not None:
        return [own(board) for board in boards]
    return COMPARE_SCORERS[objective_id](boards)


class Evaluator:
    """Weighted objective points of a board in a seat, against the other seats' boards."""

    def __init__(self, weights: Mapping[int, float]) -> None:
        self.own = tuple((OWN_SCORERS[oid], w) for oid, w in weights.items()
                         if oid in OWN_SCORERS)
        self.compare = tuple((COMPARE_SCORERS[oid], w) for oid, w in weights.items()
                             if oid in COMPARE_SCORERS)

    def __call__(self, board: Board, seat: int, boards: Sequence[Board]) -> float:
        total = 0.0
        for scorer, weight in self.own:
            total += weight * scorer(board)
        if self.compare:
            everyone = list(boards)
            everyone[seat] = board
            for compare, weight in self.compare:
                total += weight * compare(everyone)[seat]
        return total
