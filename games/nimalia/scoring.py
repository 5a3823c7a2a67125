"""The 22 objectives, the ranking rules of the comparing ones, round scoring and tie-breaks.

Every scorer reads a *grid*: the visible squares of one reserve, ``{(row, col): Square}``.
"Next to" means orthogonally adjacent. A cell is on the edge of the reserve when one of its four
neighbours is empty (holes inside the reserve count; so does the 6 x 6 frame, which is always
empty beyond the reserve).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from games.nimalia.cards import (
    ANIMALS,
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
    SAVANNAH,
    TERRAINS,
    Square,
)
from games.nimalia.grid import Cell

Grid = Mapping[Cell, Square]

_N4 = ((-1, 0), (1, 0), (0, -1), (0, 1))


# --------------------------------------------------------------------------- shared measures


def neighbours(grid: Grid, cell: Cell) -> list[Square]:
    """The visible squares orthogonally next to ``cell``."""
    r, c = cell
    found = []
    for dr, dc in _N4:
        square = grid.get((r + dr, c + dc))
        if square is not None:
            found.append(square)
    return found


def on_edge(grid: Grid, cell: Cell) -> bool:
    r, c = cell
    return any((r + dr, c + dc) not in grid for dr, dc in _N4)


def count_animal(grid: Grid, animal: str) -> int:
    return sum(1 for square in grid.values() if square.animal == animal)


def _component_sizes(cells: set[Cell]) -> list[int]:
    """Sizes of the orthogonally connected components of ``cells``."""
    sizes = []
    left = set(cells)
    while left:
        stack = [left.pop()]
        size = 0
        while stack:
            r, c = stack.pop()
            size += 1
            for dr, dc in _N4:
                nxt = (r + dr, c + dc)
                if nxt in left:
                    left.remove(nxt)
                    stack.append(nxt)
        sizes.append(size)
    return sizes


def zone_sizes(grid: Grid, terrain: str) -> list[int]:
    """Sizes of the zones (connected same-terrain areas) of ``terrain``; otters count as theirs."""
    return _component_sizes({cell for cell, square in grid.items() if square.terrain == terrain})


def group_sizes(grid: Grid, animal: str) -> list[int]:
    """Sizes of the groups (connected same-animal areas) of ``animal``."""
    return _component_sizes({cell for cell, square in grid.items() if square.animal == animal})


def river_ends(cell: Cell, river: str) -> tuple[Cell, Cell]:
    """The two grid vertices a river segment joins; vertex (r, c) is cell (r, c)'s top-left."""
    r, c = cell
    if river == RIVER_UP:
        return (r + 1, c), (r, c + 1)
    return (r, c), (r + 1, c + 1)


def river_lengths(grid: Grid) -> list[int]:
    """Sizes of the rivers: otter squares joined when their segments share an end vertex."""
    at_vertex: dict[Cell, list[Cell]] = {}
    for cell, square in grid.items():
        if square.river:
            for vertex in river_ends(cell, square.river):
                at_vertex.setdefault(vertex, []).append(cell)
    left = {cell for cell, square in grid.items() if square.river}
    sizes = []
    while left:
        stack = [left.pop()]
        size = 0
        while stack:
            cell = stack.pop()
            size += 1
            for vertex in river_ends(cell, grid[cell].river):
                for other in at_vertex[vertex]:
                    if other in left:
                        left.remove(other)
                        stack.append(other)
        sizes.append(size)
    return sizes


def longest_river(grid: Grid) -> int:
    return max(river_lengths(grid), default=0)


def largest_full_square(grid: Grid) -> int:
    """The side of the largest fully occupied k x k square anywhere in the reserve."""
    side: dict[Cell, int] = {}
    best = 0
    for r, c in sorted(grid):
        k = 1 + min(side.get((r - 1, c), 0), side.get((r, c - 1), 0),
                    side.get((r - 1, c - 1), 0))
        side[r, c] = k
        best = max(best, k)
    return best


def most_of_one_species(grid: Grid) -> int:
    """The tie-break measure: the largest number of visible squares showing one species."""
    return max((count_animal(grid, animal) for animal in ANIMALS), default=0)


# --------------------------------------------------------------------------- own objectives


def otters_neighbours(grid: Grid) -> int:
    """O1: per otter, each species with 2+ squares next to it scores 1 per such square."""
    points = 0
    for cell, square in grid.items():
        if square.animal != OTTER:
            continue
        counts: dict[str, int] = {}
        for other in neighbours(grid, cell):
            counts[other.animal] = counts.get(other.animal, 0) + 1
        points += sum(n for n in counts.values() if n >= 2)
    return points


# The cells around a river segment's two end vertices, as offsets from the otter's cell.
_RIVER_END_NEIGHBOURS = {
    RIVER_UP: ((0, -1), (1, -1), (1, 0), (-1, 0), (-1, 1), (0, 1)),
    RIVER_DOWN: ((-1, 0), (-1, -1), (0, -1), (0, 1), (1, 1), (1, 0)),
}


def otters_into_lake(grid: Grid) -> int:
    """O2: 2 per otter whose own segment touches a lake square at one of its end vertices."""
    points = 0
    for (r, c), square in grid.items():
        if not square.river:
            continue
        for dr, dc in _RIVER_END_NEIGHBOURS[square.river]:
            other = grid.get((r + dr, c + dc))
            if other is not None and other.terrain == LAKE:
                points += 2
                break
    return points


def forest_patches(grid: Grid) -> int:
    """O3: 2 per forest zone."""
    return 2 * len(zone_sizes(grid, FOREST))


def gorillas_by_lake(grid: Grid) -> int:
    """O4: 2 per gorilla next to a lake square."""
    return 2 * sum(1 for cell, square in grid.items() if square.animal == GORILLA
                   and any(other.terrain == LAKE for other in neighbours(grid, cell)))


def largest_savannah(grid: Grid) -> int:
    """O5: 2 per square of the largest savannah zone."""
    return 2 * max(zone_sizes(grid, SAVANNAH), default=0)


def savannahs_of_four(grid: Grid) -> int:
    """O6: 6 per savannah zone of exactly 4 squares."""
    return 6 * sum(1 for size in zone_sizes(grid, SAVANNAH) if size == 4)


def ice_blocks(grid: Grid) -> int:
    """O7: 4 per 2 x 2 block of ice; overlapping blocks each count."""
    def ice(cell: Cell) -> bool:
        square = grid.get(cell)
        return square is not None and square.terrain == ICE

    return 4 * sum(1 for (r, c), square in grid.items() if square.terrain == ICE
                   and ice((r, c + 1)) and ice((r + 1, c)) and ice((r + 1, c + 1)))


def polar_bear_groups(grid: Grid) -> int:
    """O8: 2 per bear in a group of 2 or more, -1 per lone bear."""
    return sum(-1 if size == 1 else 2 * size for size in group_sizes(grid, POLAR_BEAR))


def weakest_terrain(grid: Grid) -> int:
    """O9: 2 per square of the terrain the reserve shows least (0 if one is missing)."""
    counts = dict.fromkeys(TERRAINS, 0)
    for square in grid.values():
        counts[square.terrain] += 1
    return 2 * min(counts.values())


FULL_SQUARE_POINTS = {2: 3, 3: 5, 4: 8, 5: 13, 6: 21}


def full_square(grid: Grid) -> int:
    """O10: points for the largest fully occupied k x k square."""
    return FULL_SQUARE_POINTS.get(largest_full_square(grid), 0)


def four_terrain_rows(grid: Grid) -> int:
    """O11: 3 per row showing all four terrains."""
    rows: dict[int, set[str]] = {}
    for (r, _), square in grid.items():
        rows.setdefault(r, set()).add(square.terrain)
    return 3 * sum(1 for terrains in rows.values() if len(terrains) == len(TERRAINS))


def horizontal_pairs(grid: Grid) -> int:
    """O12: 3 per maximal horizontal run of exactly 2 identical animals (3+ score nothing)."""
    pairs = 0
    for (r, c), square in grid.items():
        before = grid.get((r, c - 1))
        if before is not None and before.animal == square.animal:
            continue  # not the start of a run
        length = 1
        while True:
            nxt = grid.get((r, c + length))
            if nxt is None or nxt.animal != square.animal:
                break
            length += 1
        if length == 2:
            pairs += 1
    return 3 * pairs


GIRAFFE_POINTS = (8, 5, 3)


def few_giraffes(grid: Grid) -> int:
    """O13: 0 giraffes 8, 1 giraffe 5, 2 giraffes 3, more 0."""
    giraffes = count_animal(grid, GIRAFFE)
    return GIRAFFE_POINTS[giraffes] if giraffes < len(GIRAFFE_POINTS) else 0


def inland_flamingos(grid: Grid) -> int:
    """O14: 3 per flamingo not on the edge of the reserve."""
    return 3 * sum(1 for cell, square in grid.items()
                   if square.animal == FLAMINGO and not on_edge(grid, cell))


def long_river(grid: Grid) -> int:
    """O15: the longest river of L otters scores L(L-1)/2, at most 15."""
    length = longest_river(grid)
    return min(15, length * (length - 1) // 2)


def pandas_on_edge(grid: Grid) -> int:
    """O17: 3 per panda on the edge of the reserve."""
    return 3 * sum(1 for cell, square in grid.items()
                   if square.animal == PANDA and on_edge(grid, cell))


def lone_penguins(grid: Grid) -> int:
    """O19: 3 per column with exactly one penguin."""
    columns: dict[int, int] = {}
    for (_, c), square in grid.items():
        if square.animal == PENGUIN:
            columns[c] = columns.get(c, 0) + 1
    return 3 * sum(1 for n in columns.values() if n == 1)


def crocodiles_meet_giraffes(grid: Grid) -> int:
    """O22: 2 per crocodile next to a giraffe."""
    return 2 * sum(1 for cell, square in grid.items() if square.animal == CROCODILE
                   and any(other.animal == GIRAFFE for other in neighbours(grid, cell)))


# --------------------------------------------------------------------------- comparing objectives


def ranked_points(values: Sequence[int], first: int, second: int, *, fewest: bool = False,
                  zero_rule: bool = False) -> list[int]:
    """Points of a comparing objective part, by the ranking rules.

    1st: every player tied at the best value. 2nd: only with 3 or 4 players and only when 1st is
    not tied; every player tied at the next best value. ``fewest`` ranks ascending. With
    ``zero_rule`` (the "most X" parts and the longest river) a value of 0 never places: if the
    best value is 0 nobody scores, and 0 is never 2nd.
    """
    points = [0] * len(values)
    placed = [v for v in values if not (zero_rule and v == 0)]
    if not placed:
        return points
    pick = min if fewest else max
    best = pick(placed)
    firsts = [seat for seat, v in enumerate(values) if v == best]
    for seat in firsts:
        points[seat] += first
    rest = [v for v in placed if v != best]
    if len(values) >= 3 and len(firsts) == 1 and rest:
        runner_up = pick(rest)
        for seat, v in enumerate(values):
            if v == runner_up:
                points[seat] += second
    return points


# The comparing objectives' rules, on per-seat measures (seat order), so that every reader of
# reserves (the engine below, the bots' fast boards) applies the very same rules.

def river_race_points(longest_rivers: Sequence[int]) -> list[int]:
    """O16: longest river 1st +5, 2nd +2; a reserve without otters cannot place."""
    return ranked_points(longest_rivers, 5, 2, zero_rule=True)


def gorillas_pandas_points(gorillas: Sequence[int], pandas: Sequence[int]) -> list[int]:
    """O18: most gorillas 1st +5, 2nd +2; most pandas 1st -5, 2nd -2; summed."""
    most_gorillas = ranked_points(gorillas, 5, 2, zero_rule=True)
    most_pandas = ranked_points(pandas, -5, -2, zero_rule=True)
    return [a + b for a, b in zip(most_gorillas, most_pandas, strict=True)]


def lions_points(lions: Sequence[int]) -> list[int]:
    """O20: everyone tied for the fewest lions +3, everyone else -2."""
    fewest = min(lions)
    return [3 if n == fewest else -2 for n in lions]


def crocodiles_flamingos_points(crocodiles: Sequence[int], flamingos: Sequence[int]) -> list[int]:
    """O21: most crocodiles 1st +5, 2nd +2; fewest flamingos 1st +5, 2nd +2; summed."""
    most_crocodiles = ranked_points(crocodiles, 5, 2, zero_rule=True)
    fewest_flamingos = ranked_points(flamingos, 5, 2, fewest=True)
    return [a + b for a, b in zip(most_crocodiles, fewest_flamingos, strict=True)]


def longest_river_race(grids: Sequence[Grid]) -> list[int]:
    return river_race_points([longest_river(g) for g in grids])


def gorillas_yes_pandas_no(grids: Sequence[Grid]) -> list[int]:
    return gorillas_pandas_points([count_animal(g, GORILLA) for g in grids],
                                  [count_animal(g, PANDA) for g in grids])


def fewest_lions(grids: Sequence[Grid]) -> list[int]:
    return lions_points([count_animal(g, LION) for g in grids])


def crocodiles_yes_flamingos_no(grids: Sequence[Grid]) -> list[int]:
    return crocodiles_flamingos_points([count_animal(g, CROCODILE) for g in grids],
                                       [count_animal(g, FLAMINGO) for g in grids])


# --------------------------------------------------------------------------- dispatch

OWN_SCORERS: dict[int, Callable[[Grid], int]] = {
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

COMPARE_SCORERS: dict[int, Callable[[Sequence[Grid]], list[int]]] = {
    16: longest_river_race,
    18: gorillas_yes_pandas_no,
    20: fewest_lions,
    21: crocodiles_yes_flamingos_no,
}


def objective_points(objective_id: int, grids: Sequence[Grid]) -> list[int]:
    """Raw points of one objective for every reserve (seat order)."""
    own = OWN_SCORERS.get(objective_id)
    if own is not None:
        return [own(grid) for grid in grids]
    return COMPARE_SCORERS[objective_id](grids)


def score_round(objective_ids: Iterable[int], grids: Sequence[Grid],
                totals: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Score objectives in order: raw points per seat per objective, and the new totals.

    Each total is floored at 0 after every objective, so a negative objective cannot eat into
    points scored later in the same round.
    """
    new_totals = list(totals)
    raw: list[list[int]] = [[] for _ in grids]
    for objective_id in objective_ids:
        for seat, points in enumerate(objective_points(objective_id, grids)):
            raw[seat].append(points)
            new_totals[seat] = max(0, new_totals[seat] + points)
    return raw, new_totals
