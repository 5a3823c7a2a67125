"""Nibble bots at four levels; see docs/bots.md, section "Nibble".

Each policy sees only ``NIBBLE.view(state, seat)``. Nibble has no hidden information, so the bots
rebuild the position from the view (with a placeholder seed, never the match's) and work on it.
Every choice depends only on the view and the given ``rng``; level 3 searches under a node budget
and level 4 (Monte-Carlo tree search, :mod:`games.nibble.bots.mcts`) under an iteration budget,
each with a wall-clock cap as a safety net only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from games.nibble.bots import mcts, native
from games.nibble.bots.search import (
    DEFAULT_WEIGHTS,
    ROOT_SUBSETS,
    Searcher,
    Take,
    Weights,
    all_takes,
    instant_win,
    takes_by_colour,
)
from games.nibble.engine import COLORS, MAJORITY, NIBBLE, NINE, SEVEN, State

PLACEHOLDER_SEED = "bot-view"  # the rebuilt state's seed; bots never see the match's

LEVEL3_NODES = 3000  # search nodes per move: the budget that makes level 3 reproducible
LEVEL3_SECONDS = 1.8  # safety net only: a search that runs this long stops early
LEVEL4_ITERATIONS = 150_000  # level 4: Monte-Carlo iterations (one playout each) a move, in C
LEVEL4_PURE_ITERATIONS = 2_000  # the same search in pure Python (no C compiler): ~1.5 s a move
LEVEL4_SECONDS = 3.0  # safety net only
LEVEL4 = mcts.Config(iterations=LEVEL4_ITERATIONS, seconds=LEVEL4_SECONDS)


def view_state(view: dict[str, Any], seat: int) -> State:
    """The position a view shows, as an engine state for ``seat`` to move."""
    board = tuple(-1 if v is None else int(v) for row in view["board"] for v in row)
    collections = tuple(tuple(int(n) for n in counts) for counts in view["collections"])
    return State(seed=PLACEHOLDER_SEED, board=board, color_order=tuple(view["color_order"]),
                 first_seat=int(view["first_seat"]), to_move=seat,
                 collections=(collections[0], collections[1]), turn=int(view["turn"]),
                 early_finish=bool(view["early_finish"]))


def _move(cells: Sequence[int]) -> dict[str, Any]:
    return {"take": [list(divmod(i, 9)) for i in sorted(cells)]}


# --------------------------------------------------------------------------- level 1


def level1(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Uniform among every legal take (each legal non-empty subset of one colour's discs)."""
    state = view_state(view, seat)
    moves = NIBBLE.legal_moves(state, seat)
    return NIBBLE.dump_move(rng.choice(moves))


# --------------------------------------------------------------------------- level 2


BLOCKS_SEVENS = NINE - SEVEN  # an opponent holding more than this many blocks three sevens


def _triples(order: Sequence[int]) -> list[tuple[int, int, int]]:
    return [(order[k], order[k + 1], order[k + 2]) for k in range(COLORS - 2)]


def greedy_gain(mine: Sequence[int], theirs: Sequence[int], order: Sequence[int],
                colour: int, taken: int) -> float:
    """How good taking ``taken`` discs of ``colour`` looks to a casual player, right now."""
    m, o = mine[colour], theirs[colour]
    after = list(mine)
    after[colour] = m + taken
    if instant_win(after, order):
        return 1000.0
    if o >= MAJORITY:
        gain = 0.2 * taken  # the colour is lost; its discs count for little
    elif m >= MAJORITY:
        gain = 0.3 * taken  # the majority is already ours
    else:
        gain = 1.0 * taken
        if m + taken >= MAJORITY:
            gain += 3.0  # a colour majority secured
    if m == 0 and o >= 4:
        gain += 0.5 * o  # the first disc of a colour stops them collecting all nine
    if o == 0 and m + taken >= 6:
        gain += 0.5 * (m + taken - 5)  # heading for all nine
    for triple in _triples(order):
        if colour in triple and all(theirs[c] <= BLOCKS_SEVENS for c in triple):
            if m < SEVEN:
                gain += 0.2 * min(taken, SEVEN - m)
    return gain


def level2(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Greedy: the take with the best immediate gain, less most of the best gain it hands the
    opponent next turn (a take that lets them win at once is avoided whenever possible)."""
    state = view_state(view, seat)
    board = list(state.board)
    discs = sum(1 << i for i in range(81) if board[i] >= 0)
    mine, theirs = list(state.collections[seat]), list(state.collections[1 - seat])
    order = state.color_order
    takes = all_takes(board, discs, ROOT_SUBSETS)
    rng.shuffle(takes)
    best: tuple[float, Take] | None = None
    for take in takes:
        colour, cells, removed = take
        gain = greedy_gain(mine, theirs, order, colour, len(cells))
        if gain < 1000.0:
            mine[colour] += len(cells)
            after = discs & ~removed
            if after:
                for i in cells:
                    board[i] = -1
                reply = max(
                    (greedy_gain(theirs, mine, order, c, len(cs))
                     for c, cs, _ in _replies(board, after)),
                    default=0.0)
                for i in cells:
                    board[i] = colour
                gain -= 0.8 * reply if reply < 1000.0 else 5000.0
            mine[colour] -= len(cells)
        if best is None or gain > best[0]:
            best = (gain, take)
    assert best is not None
    return _move(best[1][1])


def _replies(board: Sequence[int], discs: int) -> list[Take]:
    """The opponent's biggest take of each colour, for a casual player's look ahead: all its
    takeable discs, as if they could always be taken together."""
    out: list[Take] = []
    for colour, cells in takes_by_colour(board, discs).items():
        out.append((colour, tuple(cells), 0))
    return out


# --------------------------------------------------------------------------- level 3


def search_move(view: dict[str, Any], seat: int, rng: random.Random, *,
                nodes: int = LEVEL3_NODES, seconds: float = LEVEL3_SECONDS,
                weights: Weights = DEFAULT_WEIGHTS) -> tuple[dict[str, Any], dict[str, float]]:
    """The level 3 move with its search statistics (depth reached, score, nodes, seconds)."""
    state = view_state(view, seat)
    searcher = Searcher(state.board, state.collections, seat, state.color_order, weights)
    take, stats = searcher.choose(rng, nodes, seconds)
    return _move(take[1]), stats


def level3(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Alpha-beta search (iterative deepening) under a node budget; see nibble_search."""
    return search_move(view, seat, rng)[0]


def mcts_move(view: dict[str, Any], seat: int, rng: random.Random,
              config: mcts.Config = LEVEL4, *, pure: bool = False) -> mcts.Result:
    """The level 4 search's result: in C when the core loads (and not ``pure``), else in pure
    Python at :data:`LEVEL4_PURE_ITERATIONS` at most. Both draw from one seed taken from ``rng``,
    and for one seed and budget they choose the same take."""
    state = view_state(view, seat)
    counts = [list(state.collections[seat]), list(state.collections[1 - seat])]
    seed = rng.getrandbits(64)
    library = None if pure else native.core()
    if library is not None:
        return native.search(library, list(state.board), counts, list(state.color_order), seed,
                             config)
    if config.iterations > LEVEL4_PURE_ITERATIONS:
        config = dataclasses.replace(config, iterations=LEVEL4_PURE_ITERATIONS)
    return mcts.search(state.board, counts, state.color_order, seed, config)


def level4(view: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Monte-Carlo tree search with decisive playouts and a solver (``LEVEL4_ITERATIONS``)."""
    result = mcts_move(view, seat, rng)
    return _move([i for i in range(81) if result.mask >> i & 1])


NIBBLE_POLICIES = {1: level1, 2: level2, 3: level3, 4: level4}

__all__ = ["NIBBLE_POLICIES", "level1", "level2", "level3", "level4", "view_state"]
