"""Nibble (Jared McComb, nestorgames 2020): the rules engine.

Two players take discs from a 9x9 board of 81 discs in 9 colours (9 of each). A turn takes one or
more discs of one colour; each must have two adjacent exposed sides (a side facing an empty cell
or the board edge) before the turn, and the discs left must stay one orthogonally connected group.
A player wins at once with all 9 discs of a colour or with at least 7 of each of three adjacent
colours of the colour table; otherwise, once the board is empty, the player holding 5 or more
discs in 5 or more colours wins. The rule IDs (R1..R12, T0..T3) refer to ``rules/nibble.md``.

Internals. The board is a tuple of 81 ints in row-major order, a colour id 0-8 or ``-1`` for an
empty cell; cell ``(r, c)`` has index ``9 * r + c``. For the corner and no-split rules the board
is also read as an 81-bit integer (bit ``i`` set when cell ``i`` holds a disc), so that exposure,
the local part of the cut-vertex test and connectivity checks are a handful of integer operations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.kit.bits import bits
from games.kit.jsontypes import check_move
from games.kit.learn import gettext_noop
from games.kit.protocol import (
    JSON,
    EngineBase,
    GameOver,
    IllegalMove,
    InvalidConfig,
    MalformedMove,
    NotYourTurn,
    Option,
    Outcome,
    Seat,
    Transition,
    forfeit_ranks,
    normalize_options,
    require_mapping,
    seeded_rng,
)
from games.nibble import types

SIZE = 9
CELLS = SIZE * SIZE
COLORS = 9
PER_COLOR = 9
EMPTY = -1

NINE = 9  # R9a: all discs of one colour
SEVEN = 7  # R9b: at least this many of each of three adjacent table colours
MAJORITY = 5  # R10: a colour majority, and the number of majorities that wins
FILL_BUDGET = 5000  # placements before a board fill starts over (see generate_board)

REASONS = ("nine_of_a_colour", "three_adjacent_sevens", "majority_of_majorities", "decided",
           "forfeit")

Cell = tuple[int, int]

# --------------------------------------------------------------------------- tables

_ALL = (1 << CELLS) - 1
_COL0 = sum(1 << (SIZE * r) for r in range(SIZE))
_COL8 = _COL0 << (SIZE - 1)
_NOT_COL0 = _ALL & ~_COL0
_NOT_COL8 = _ALL & ~_COL8


def _neighbour_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for i in range(CELLS):
        r, c = divmod(i, SIZE)
        around = []
        if r > 0:
            around.append(i - SIZE)
        if c < SIZE - 1:
            around.append(i + 1)
        if r < SIZE - 1:
            around.append(i + SIZE)
        if c > 0:
            around.append(i - 1)
        table.append(tuple(around))
    return tuple(table)


NEIGHBOURS = _neighbour_table()


def disc_mask(board: Sequence[int]) -> int:
    """The discs of ``board`` as a mask: bit ``i`` set when cell ``i`` holds a disc."""
    return int("".join(["0" if v < 0 else "1" for v in reversed(board)]), 2)


def grow(mask: int) -> int:
    """``mask`` and its orthogonal neighbour cells."""
    return (mask | (mask << SIZE) | (mask >> SIZE) | ((mask << 1) & _NOT_COL0)
            | ((mask >> 1) & _NOT_COL8)) & _ALL


def _connected(discs: int) -> bool:
    """Whether the cells of ``discs`` form one orthogonal group (none and one count as one)."""
    if not discs:
        return True
    seen = discs & -discs
    while True:
        grown = grow(seen) & discs
        if grown == seen:
            return seen == discs
        seen = grown


def _exposed_sides(discs: int) -> tuple[int, int, int, int]:
    """Masks of the discs whose N, E, S and W sides are exposed (D5: empty cell or edge)."""
    north = discs & ~(discs << SIZE)
    south = discs & ~(discs >> SIZE)
    west = discs & ~((discs << 1) & _NOT_COL0)
    east = discs & ~((discs >> 1) & _NOT_COL8)
    return north, east, south, west


def _cornered(discs: int) -> int:
    """Discs with two adjacent exposed sides (R5, D6): one of N/S and one of E/W."""
    north, east, south, west = _exposed_sides(discs)
    return (north | south) & (east | west)


def _takeable_mask(board: Sequence[int], discs: int) -> int:
    """The takeable discs (R5 and R6) as a mask; ``board`` must hold one connected group.

    :func:`local_takeable` settles most cornered discs from their neighbourhood; the rest need
    the global test, where one iterative Tarjan pass finds every cut vertex of the disc graph.
    """
    safe, unsure = local_takeable(discs)
    if unsure:
        cuts = articulation_points(board)
        for i in bits(unsure):
            if i not in cuts:
                safe |= 1 << i
    return safe


def local_takeable(discs: int) -> tuple[int, int]:
    """Cornered discs split into those surely takeable and those the local test cannot settle.

    A cornered disc with three or four exposed sides has at most one neighbour, so taking it never
    splits the group. A cornered disc with exactly two exposed sides has two neighbours meeting
    at a corner; when the diagonal cell between them holds a disc, they stay linked through it.
    Otherwise its two neighbours may or may not be linked the long way round.
    """
    north, east, south, west = _exposed_sides(discs)
    cornered = (north | south) & (east | west)
    leaves = (north & south & (east | west)) | (east & west & (north | south))
    safe = cornered & leaves
    two = cornered & ~leaves
    safe |= two & north & east & (discs >> (SIZE - 1))  # neighbours S and W, diagonal SW
    safe |= two & north & west & (discs >> (SIZE + 1))  # neighbours S and E, diagonal SE
    safe |= two & south & east & (discs << (SIZE + 1))  # neighbours N and W, diagonal NW
    safe |= two & south & west & (discs << (SIZE - 1))  # neighbours N and E, diagonal NE
    return safe, cornered & ~safe


def articulation_points(board: Sequence[int]) -> frozenset[int]:
    """The cut vertices (as cell indices) of the group of discs holding the first disc.

    Iterative Hopcroft-Tarjan: one depth-first pass records each disc's discovery order and the
    lowest order reachable from its subtree through one back edge; a non-root disc is a cut vertex
    when some child's subtree reaches no higher than the disc itself, the root when it has two or
    more children. The tree edge to the parent may be counted as a back edge here: that only lowers
    a child's value to its parent's order, which keeps the test ``low >= order`` unchanged.
    """
    root = next((i for i in range(CELLS) if board[i] >= 0), None)
    if root is None:
        return frozenset()
    order = [0] * CELLS
    low = [0] * CELLS
    order[root] = low[root] = 1
    counter = 1
    cuts: set[int] = set()
    root_children = 0
    stack = [(root, iter(NEIGHBOURS[root]))]
    while stack:
        v, around = stack[-1]
        for w in around:
            if board[w] < 0:
                continue
            if not order[w]:
                counter += 1
                order[w] = low[w] = counter
                stack.append((w, iter(NEIGHBOURS[w])))
                break
            if order[w] < low[v]:
                low[v] = order[w]
        else:
            stack.pop()
            if stack:
                parent = stack[-1][0]
                if low[v] < low[parent]:
                    low[parent] = low[v]
                if parent == root:
                    root_children += 1
                elif low[v] >= order[parent]:
                    cuts.add(parent)
    if root_children > 1:
        cuts.add(root)
    return frozenset(cuts)


# --------------------------------------------------------------------------- board generation


def generate_board(seed: str) -> tuple[int, ...]:
    """The starting board for ``seed`` (R1, R1a).

    Cells are filled in row-major order. Each cell, when first reached, gets the 9 colours in a
    freshly shuffled order from ``seeded_rng(seed, "board")`` and takes the first one used fewer
    than 9 times that differs from the cells above and to the left; when none fits, the fill backs
    up one cell and tries that cell's next colour. Plain backtracking has a heavy tail (about one
    seed in a thousand needs over 10,000 placements, a few need hundreds of thousands), so a fill
    that has placed :data:`FILL_BUDGET` discs without finishing starts over from the first cell,
    drawing on from the same generator. Either way the board is a function of the seed alone.
    """
    rng = seeded_rng(seed, "board")
    while True:
        board = _fill(rng)
        if board is not None:
            _check_board(board)
            return board


def _fill(rng: Any, budget: int = FILL_BUDGET) -> tuple[int, ...] | None:
    """One backtracking fill; None when it gives up after ``budget`` placements."""
    cells = [EMPTY] * CELLS
    counts = [0] * COLORS
    choices: list[list[int]] = [[] for _ in range(CELLS)]
    tried = [0] * CELLS
    placements = 0
    i = 0
    while i < CELLS:
        if not tried[i]:
            order = list(range(COLORS))
            rng.shuffle(order)
            choices[i] = order
        above = cells[i - SIZE] if i >= SIZE else EMPTY
        left = cells[i - 1] if i % SIZE else EMPTY
        placed = False
        order = choices[i]
        while tried[i] < COLORS:
            colour = order[tried[i]]
            tried[i] += 1
            if counts[colour] < PER_COLOR and colour != above and colour != left:
                cells[i] = colour
                counts[colour] += 1
                placed = True
                break
        if placed:
            placements += 1
            if placements > budget:
                return None
            i += 1
            continue
        choices[i] = []
        tried[i] = 0
        i -= 1
        if i < 0:
            return None
        counts[cells[i]] -= 1
        cells[i] = EMPTY
    return tuple(cells)


def _check_board(board: Sequence[int]) -> None:
    """Refuse a starting board without 9 discs of each colour or with same-colour neighbours."""
    if len(board) != CELLS or sorted(board) != sorted(list(range(COLORS)) * PER_COLOR):
        raise AssertionError("a Nibble board needs 9 discs of each of the 9 colours")
    if _same_colour_neighbours(board):
        raise AssertionError("two discs of one colour are orthogonal neighbours")


def _same_colour_neighbours(board: Sequence[int]) -> bool:
    for i in range(CELLS):
        if board[i] < 0:
            continue
        if i % SIZE < SIZE - 1 and board[i + 1] == board[i]:
            return True
        if i < CELLS - SIZE and board[i + SIZE] == board[i]:
            return True
    return False


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Move:
    """One turn: the cells of the discs taken. Cells are kept sorted, so two takes of the same
    cells compare equal whatever order they were listed in; duplicates are kept for
    :meth:`NibbleEngine.validate` to report."""

    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        cells = tuple(self.cells)
        for cell in cells:
            if (not isinstance(cell, tuple) or len(cell) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
                raise MalformedMove("Each cell must be a [row, col] pair of whole numbers.")
        object.__setattr__(self, "cells", tuple(sorted(cells)))


@dataclass(frozen=True)
class State:
    """A Nibble position.

    ``board``: 81 cells row-major, colour id or -1. ``color_order``: the colour table, left to
    right. ``collections[seat][colour]``: discs that seat has taken. ``turn``: turns played.
    ``winner`` and ``reason`` are set once the match is over.
    """

    seed: str
    board: tuple[int, ...]
    color_order: tuple[int, ...]
    first_seat: int
    to_move: int
    collections: tuple[tuple[int, ...], tuple[int, ...]]
    turn: int = 0
    early_finish: bool = False
    winner: int | None = None
    reason: str | None = None


# --------------------------------------------------------------------------- public helpers


def cell_index(cell: Cell) -> int:
    return cell[0] * SIZE + cell[1]


def index_cell(i: int) -> Cell:
    r, c = divmod(i, SIZE)
    return (r, c)


def takeable_discs(position: State | Sequence[int]) -> dict[int, tuple[Cell, ...]]:
    """The discs that may be taken now, grouped by colour id (the compact legal-move form).

    Any non-empty subset of one colour's discs is a legal turn provided the discs left stay
    connected (R7); every single disc listed is legal on its own.
    """
    board = position.board if isinstance(position, State) else tuple(position)
    grouped: dict[int, list[Cell]] = {}
    for i in bits(_takeable_mask(board, disc_mask(board))):
        grouped.setdefault(board[i], []).append(index_cell(i))
    return {colour: tuple(grouped[colour]) for colour in sorted(grouped)}


def majorities(counts: Sequence[int]) -> int:
    """How many colours a collection holds the majority of (5 or more discs)."""
    return sum(1 for n in counts if n >= MAJORITY)


def instant_win(counts: Sequence[int], color_order: Sequence[int]) -> str | None:
    """The instant-win reason (R9) a collection achieves, if any."""
    if any(n >= NINE for n in counts):
        return "nine_of_a_colour"
    for k in range(COLORS - 2):
        if all(counts[color_order[k + j]] >= SEVEN for j in range(3)):
            return "three_adjacent_sevens"
    return None


def decided_winner(state: State) -> int | None:
    """The seat whose win is settled (R12), or None.

    That seat holds 5 or more discs in 5 or more colours, which it cannot lose, and the other seat
    can reach no instant win: the holder has at least one disc of every colour (so no 9 of a
    colour) and, in every three adjacent table colours, more than two discs of at least one.
    """
    for seat in (0, 1):
        mine = state.collections[seat]
        if majorities(mine) < MAJORITY:
            continue
        if min(mine) == 0:
            return None
        order = state.color_order
        for k in range(COLORS - 2):
            if all(mine[order[k + j]] <= PER_COLOR - SEVEN for j in range(3)):
                return None
        return seat
    return None


def is_decided(state: State) -> bool:
    """Whether the result can no longer change (spec R12), whatever the ``early_finish`` option."""
    return decided_winner(state) is not None


# --------------------------------------------------------------------------- the engine


def _illegal(rule: str, message: str, cells: Iterable[Cell] = ()) -> IllegalMove:
    return IllegalMove(message, rule=rule, cells=[list(cell) for cell in cells])


def _check_take(board: tuple[int, ...], cells: tuple[Cell, ...]) -> tuple[int, list[int], int]:
    """Check a take against R4-R7; return its colour, cell indices and the discs left as a mask."""
    if not cells:
        raise _illegal("nibble.empty_take", "Take at least one disc.")
    if len(set(cells)) != len(cells):
        dups = sorted({cell for cell in cells if cells.count(cell) > 1})
        raise _illegal("nibble.duplicate_cell", "A disc is listed more than once.", dups)
    off = [cell for cell in cells if not (0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE)]
    if off:
        raise _illegal("nibble.off_board", "A cell is off the board.", off)
    indices = [cell_index(cell) for cell in cells]
    empty = [cell for cell, i in zip(cells, indices, strict=True) if board[i] < 0]
    if empty:
        raise _illegal("nibble.no_disc", "There is no disc on that cell.", empty)
    colours = {board[i] for i in indices}
    if len(colours) > 1:
        raise _illegal("nibble.mixed_colours", "All discs taken in a turn must be of one colour.",
                       cells)
    discs = disc_mask(board)
    cornered = _cornered(discs)
    covered = [cell for cell, i in zip(cells, indices, strict=True) if not cornered >> i & 1]
    if covered:
        raise _illegal("nibble.not_exposed",
                       "A disc needs two adjacent exposed sides to be taken.", covered)
    left = discs
    for i in indices:
        left &= ~(1 << i)
    if not _connected(left):
        raise _illegal("nibble.splits_board",
                       "The discs left must stay one connected group.", cells)
    return colours.pop(), indices, left


class NibbleEngine(EngineBase[State, Move]):
    """The Nibble rules (see the module docstring). Stateless: one instance serves every match."""

    slug = "nibble"
    name = "Nibble"
    min_players = 2
    max_players = 2
    options = (
        Option("color_order", "json", None,
               gettext_noop("The colour table, left to right: a permutation of the colour ids "
                            "0-8. Default: random from the match seed.")),
        Option("first_seat", "int", None,
               gettext_noop("The seat that moves first, 0 or 1. Default: random from the "
                            "match seed."),
               minimum=0, maximum=1),
        Option("early_finish", "bool", False,
               gettext_noop("End the match as soon as its result can no longer change (a "
                            "player holds the majority of majorities and the other can reach "
                            "no instant win).")),
    )

    # ----------------------------------------------------------------- setup

    def initial_state(self, *, num_players: int, config: Mapping[str, Any] | None,
                      seed: str) -> State:
        if num_players != 2:
            raise InvalidConfig("Nibble is played by exactly 2 players.", num_players=num_players)
        if not isinstance(seed, str):
            raise TypeError("the match seed must be a string")
        if isinstance(config, Mapping) and config.get("first_seat", 0) is None:
            # An explicit null asks for the default, as it does for ``color_order``.
            config = {k: v for k, v in config.items() if k != "first_seat"}
        options = normalize_options(self.options, config)
        color_order = options["color_order"]
        if color_order is None:
            order = list(range(COLORS))
            seeded_rng(seed, "color_order").shuffle(order)
            color_order = tuple(order)
        else:
            color_order = _checked_color_order(color_order)
        first = options["first_seat"]
        if first is None:
            first = seeded_rng(seed, "first_seat").randrange(2)
        return State(
            seed=seed,
            board=generate_board(seed),
            color_order=color_order,
            first_seat=first,
            to_move=first,
            collections=((0,) * COLORS, (0,) * COLORS),
            turn=0,
            early_finish=options["early_finish"],
        )

    # ----------------------------------------------------------------- turns

    def actors(self, state: State) -> frozenset[Seat]:
        if state.winner is not None:
            return frozenset()
        return frozenset((state.to_move,))

    def parse_move(self, data: Any) -> Move:
        check_move(types.NibbleMove, data)
        data = require_mapping(data, {"take"}, {"take"})
        take = data["take"]
        if not isinstance(take, list | tuple):
            raise MalformedMove('"take" must be a list of [row, col] pairs.', field="take")
        if len(take) > CELLS:
            raise MalformedMove("A take lists at most 81 cells.", field="take")
        cells = []
        for item in take:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise MalformedMove("Each cell must be a [row, col] pair.", field="take")
            cells.append((item[0], item[1]))
        return Move(tuple(cells))

    def dump_move(self, move: Move) -> JSON:
        return {"take": [[r, c] for r, c in move.cells]}

    def validate(self, state: State, seat: Seat, move: Move) -> None:
        if state.winner is not None:
            raise GameOver("The match is over.")
        if seat != state.to_move:
            raise NotYourTurn("It is not your turn.", seat=seat)
        if not isinstance(move, Move):
            raise MalformedMove("Not a Nibble move.")
        _check_take(state.board, move.cells)

    def apply(self, state: State, seat: Seat, move: Move) -> Transition[State]:
        """Play a validated move (call :meth:`validate` first, or use ``apply_checked``)."""
        board = list(state.board)
        colour = board[cell_index(move.cells[0])]
        for cell in move.cells:
            board[cell_index(cell)] = EMPTY
        mine = list(state.collections[seat])
        mine[colour] += len(move.cells)
        collections = list(state.collections)
        collections[seat] = tuple(mine)
        after = replace(state, board=tuple(board), collections=(collections[0], collections[1]),
                        to_move=1 - seat, turn=state.turn + 1)
        events: list[JSON] = [{"type": "discs_taken", "seat": seat, "color": colour,
                               "cells": [[r, c] for r, c in move.cells]}]
        winner, reason = _winner_after(after, seat)
        if winner is not None:
            after = replace(after, winner=winner, reason=reason)
            events.append(self._ended_event(after))
        return Transition(after, tuple(events))

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Every legal turn for ``seat``: each non-empty subset of one colour's takeable discs
        whose removal keeps the board connected, by colour id then subset. Empty for a seat that
        may not move. Prefer :func:`takeable_discs` where the compact form will do."""
        if state.winner is not None or seat != state.to_move:
            return []
        board = state.board
        discs = disc_mask(board)
        by_colour: dict[int, list[int]] = {}
        for i in bits(_takeable_mask(board, discs)):
            by_colour.setdefault(board[i], []).append(i)
        moves = []
        for colour in sorted(by_colour):
            found = by_colour[colour]
            splitting: list[int] = []
            for subset in range(1, 1 << len(found)):
                if subset & (subset - 1):
                    # T3(b): a take containing a splitting take splits the board too.
                    if any(bad & subset == bad for bad in splitting):
                        continue
                    left = discs
                    for k, i in enumerate(found):
                        if subset >> k & 1:
                            left &= ~(1 << i)
                    if not _connected(left):
                        splitting.append(subset)
                        continue
                cells = tuple(index_cell(i) for k, i in enumerate(found) if subset >> k & 1)
                moves.append(Move(cells))
        if not moves:
            raise AssertionError("T2: the player to move always has a legal take")
        return moves

    def forfeit(self, state: State, seat: Seat) -> Transition[State]:
        if state.winner is not None:
            raise GameOver("The match is over.")
        if seat not in (0, 1):
            raise NotYourTurn("No such seat.", seat=seat)
        after = replace(state, winner=1 - seat, reason="forfeit")
        return Transition(after, ({"type": "forfeited", "seat": seat}, self._ended_event(after)))

    def plans_apply(self, state: State, seat: Seat) -> bool:
        """Both seats may plan: two players taking turns in the open. A plan's keys are the
        other seat's takes themselves (the default ``plan_key``)."""
        return seat in (0, 1)

    # ----------------------------------------------------------------- results and views

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        winner = state.winner
        if state.reason == "forfeit":
            ranks = forfeit_ranks(2, {winner: 0}, [1 - winner])
        else:
            ranks = (1, 2) if winner == 0 else (2, 1)
        scores = tuple(majorities(counts) for counts in state.collections)
        return Outcome(ranks=ranks, scores=scores, reason=state.reason or "")

    def view(self, state: State, seat: Seat | None) -> JSON:
        board = state.board
        data: JSON = {
            "board": [[None if board[r * SIZE + c] < 0 else board[r * SIZE + c]
                       for c in range(SIZE)] for r in range(SIZE)],
            "color_order": list(state.color_order),
            "collections": [list(counts) for counts in state.collections],
            "majorities": [majorities(counts) for counts in state.collections],
            "discs_left": CELLS - board.count(EMPTY),
            "turn": state.turn,
            "first_seat": state.first_seat,
            "to_move": sorted(self.actors(state)),
            "you": seat,
            "early_finish": state.early_finish,
            "decided": is_decided(state),
        }
        if state.winner is None:
            # Public knowledge in a game without secrets: every viewer may see which discs the
            # player to move can take (a waiting client can highlight them or plan ahead).
            takeable = {str(colour): [list(cell) for cell in cells]
                        for colour, cells in takeable_discs(board).items()}
            data["takeable"] = takeable
            if seat == state.to_move:
                data["legal_moves"] = {"takeable": takeable}
        else:
            outcome = self.outcome(state)
            assert outcome is not None
            data["outcome"] = outcome.as_dict()
            data["seed"] = state.seed
        return data

    def _ended_event(self, state: State) -> JSON:
        outcome = self.outcome(state)
        assert outcome is not None
        return {"type": "match_ended", **outcome.as_dict()}

    # ----------------------------------------------------------------- storage

    def dump(self, state: State) -> JSON:
        rows = ["".join("." if v < 0 else str(v) for v in state.board[r * SIZE:(r + 1) * SIZE])
                for r in range(SIZE)]
        return {
            "seed": state.seed,
            "board": rows,
            "color_order": list(state.color_order),
            "first_seat": state.first_seat,
            "to_move": state.to_move,
            "collections": [list(counts) for counts in state.collections],
            "turn": state.turn,
            "early_finish": state.early_finish,
            "winner": state.winner,
            "reason": state.reason,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        try:
            rows = data["board"]
            if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
                raise ValueError("the board has 9 rows of 9 cells")
            board = tuple(EMPTY if ch == "." else int(ch) for row in rows for ch in row)
            collections = tuple(tuple(int(n) for n in counts) for counts in data["collections"])
            if len(collections) != 2:
                raise ValueError("there are two collections, one per seat")
            state = State(
                seed=str(data["seed"]),
                board=board,
                color_order=_checked_color_order(data["color_order"]),
                first_seat=int(data["first_seat"]),
                to_move=int(data["to_move"]),
                collections=(collections[0], collections[1]),
                turn=int(data["turn"]),
                early_finish=bool(data["early_finish"]),
                winner=None if data["winner"] is None else int(data["winner"]),
                reason=data["reason"],
            )
        except (KeyError, TypeError, IndexError, InvalidConfig) as exc:
            raise ValueError(f"not a stored Nibble state: {exc}") from exc
        _check_state(state)
        return state


def _winner_after(state: State, mover: Seat) -> tuple[int | None, str | None]:
    """Who has won once ``mover`` has moved, and why: R9 for the mover, then R10, then R12."""
    reason = instant_win(state.collections[mover], state.color_order)
    if reason is not None:
        return mover, reason
    if state.board.count(EMPTY) == CELLS:
        for seat in (0, 1):
            if majorities(state.collections[seat]) >= MAJORITY:
                return seat, "majority_of_majorities"
        raise AssertionError("R10: one player always holds the majority of majorities")
    if state.early_finish:
        decided = decided_winner(state)
        if decided is not None:
            return decided, "decided"
    return None, None


def _checked_color_order(value: Any) -> tuple[int, ...]:
    if (not isinstance(value, list | tuple) or len(value) != COLORS
            or any(isinstance(x, bool) or not isinstance(x, int) for x in value)
            or sorted(value) != list(range(COLORS))):
        raise InvalidConfig("Option color_order: must list each colour id 0-8 exactly once.",
                            option="color_order")
    return tuple(value)


def _check_state(state: State) -> None:
    """Refuse a stored state that breaks the game's bookkeeping."""
    problems = []
    if len(state.board) != CELLS or any(not EMPTY <= v < COLORS for v in state.board):
        problems.append("board cells must be colour ids 0-8 or empty")
    if any(len(counts) != COLORS or min(counts) < 0 for counts in state.collections):
        problems.append("collections hold 9 non-negative counts")
    elif any(state.board.count(colour) + state.collections[0][colour]
             + state.collections[1][colour] != PER_COLOR for colour in range(COLORS)):
        problems.append("each colour has 9 discs between the board and the collections")
    if state.first_seat not in (0, 1) or state.to_move not in (0, 1) or state.turn < 0:
        problems.append("seats are 0 or 1")
    if state.winner is None:
        ended_right = state.reason is None
    else:
        ended_right = state.winner in (0, 1) and state.reason in REASONS
    if not ended_right:
        problems.append("winner and reason go together")
    if problems:
        raise ValueError("not a valid Nibble state: " + "; ".join(problems))


NIBBLE = NibbleEngine()
