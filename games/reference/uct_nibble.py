"""A reference opponent for measuring the Nibble bots: plain UCT Monte-Carlo tree search with
uniformly random playouts, on its own implementation of the Nibble rules.

It shares no code with the engine or the bots on purpose (it imports neither ``games.nibble`` nor
``games.kit``): an opponent nobody on the project tuned against, whose rules are checked against
the engine's on random matches in ``tests/bots/test_reference_uct.py``. It reads only the board,
the collections and the colour table of a view, all of which are public in Nibble.

The budget is a number of playouts a move (``PLAYOUTS_PER_MOVE``), fixed from a measurement of
playouts a second on one idle core (``python -m games.reference.uct_nibble``), so a
result does not depend on how busy the machine was.
"""

from __future__ import annotations

import math
import random
import sys
import time
from typing import Any

N = 9
ALL = (1 << 81) - 1
COL0 = sum(1 << (9 * r) for r in range(9))
COL8 = COL0 << 8
ROW0 = (1 << 9) - 1
ROW8 = ROW0 << 72

# Playouts a move for "1 s a move": measured with `python -m games.reference.uct_nibble`
# on one idle core (process time, so other load does not change it); see docs/bots.md.
PLAYOUTS_PER_MOVE = 1300
EXPLORATION = 1.4


def spread(mask: int) -> int:
    """``mask`` and its orthogonal neighbours."""
    return (mask | (mask << 9) | (mask >> 9) | ((mask & ~COL8) << 1)
            | ((mask & ~COL0) >> 1)) & ALL


def connected(discs: int) -> bool:
    if not discs:
        return True
    reached = discs & -discs
    while True:
        more = spread(reached) & discs
        if more == reached:
            return reached == discs
        reached = more


def corner_discs(discs: int) -> int:
    """Discs with two adjacent open sides (north+east, east+south, south+west, west+north)."""
    empty = ~discs & ALL
    north = ((empty << 9) & ALL) | ROW0
    south = (empty >> 9) | ROW8
    east = ((empty >> 1) & ~COL8) | COL8
    west = ((empty << 1) & ~COL0 & ALL) | COL0
    return discs & ((north & east) | (east & south) | (south & west) | (west & north))


def removable(discs: int) -> list[int]:
    """Cells of the discs a player may take on their own. A corner disc has at most two
    neighbouring discs, at right angles; when the cell between them (diagonally) holds a disc
    they stay linked, otherwise a flood fill decides."""
    out = []
    m = corner_discs(discs)
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        r, c = divmod(i, 9)
        around = [j for j, ok in ((i - 9, r > 0), (i + 9, r < 8), (i - 1, c > 0),
                                  (i + 1, c < 8)) if ok and discs >> j & 1]
        if len(around) <= 1:
            out.append(i)
            continue
        if len(around) == 2:
            a, b = around
            diagonal = a + b - i
            if abs(a - b) not in (2, 18) and discs >> diagonal & 1:
                out.append(i)
                continue
        if connected(discs & ~low):
            out.append(i)
    return out


class Position:
    """A Nibble position: 81 colours (-1 empty), the disc mask, both counts, whose move."""

    __slots__ = ("board", "discs", "counts", "order", "to_move", "winner")

    def __init__(self, board: list[int], counts: list[list[int]], order: list[int],
                 to_move: int) -> None:
        self.board = board
        self.discs = sum(1 << i for i in range(81) if board[i] >= 0)
        self.counts = counts
        self.order = order
        self.to_move = to_move
        self.winner: int | None = None

    def copy(self) -> Position:
        other = Position.__new__(Position)
        other.board = self.board[:]
        other.discs = self.discs
        other.counts = [self.counts[0][:], self.counts[1][:]]
        other.order = self.order
        other.to_move = self.to_move
        other.winner = self.winner
        return other

    def groups(self) -> dict[int, list[int]]:
        by_colour: dict[int, list[int]] = {}
        for i in removable(self.discs):
            by_colour.setdefault(self.board[i], []).append(i)
        return by_colour

    def moves(self) -> list[int]:
        """Every legal take as a mask: each non-empty subset of one colour's removable discs
        whose removal leaves the rest connected."""
        out = []
        for cells in self.groups().values():
            for pick in range(1, 1 << len(cells)):
                mask = 0
                for k, i in enumerate(cells):
                    if pick >> k & 1:
                        mask |= 1 << i
                if pick & (pick - 1) == 0 or connected(self.discs & ~mask):
                    out.append(mask)
        return out

    def random_move(self, rng: random.Random) -> int:
        """A random take: a random removable disc, with each other removable disc of its colour
        added at even odds; the single disc if that set would split the board."""
        cells = removable(self.discs)
        first = rng.choice(cells)
        colour = self.board[first]
        mask = 1 << first
        for i in cells:
            if i != first and self.board[i] == colour and rng.random() < 0.5:
                mask |= 1 << i
        if mask != 1 << first and not connected(self.discs & ~mask):
            mask = 1 << first
        return mask

    def play(self, mask: int) -> None:
        player = self.to_move
        m = mask
        mine = self.counts[player]
        while m:
            low = m & -m
            i = low.bit_length() - 1
            mine[self.board[i]] += 1
            self.board[i] = -1
            m ^= low
        self.discs &= ~mask
        if 9 in mine or any(mine[self.order[k]] >= 7 and mine[self.order[k + 1]] >= 7
                            and mine[self.order[k + 2]] >= 7 for k in range(7)):
            self.winner = player
        elif not self.discs:
            self.winner = 0 if sum(1 for n in self.counts[0] if n >= 5) >= 5 else 1
        self.to_move = 1 - player


class Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "wins", "mover")

    def __init__(self, move: int, parent: Node | None, mover: int, untried: list[int]) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # the player who made ``move``
        self.children: list[Node] = []
        self.untried = untried
        self.visits = 0
        self.wins = 0.0


def uct_search(root_position: Position, playouts: int, rng: random.Random) -> int:
    """The take with the most visits after ``playouts`` UCT iterations."""
    root = Node(0, None, 1 - root_position.to_move, root_position.moves())
    rng.shuffle(root.untried)
    for _ in range(playouts):
        node, position = root, root_position.copy()
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda c: c.wins / c.visits
                       + EXPLORATION * math.sqrt(log_n / c.visits))
            position.play(node.move)
        if node.untried and position.winner is None:
            move = node.untried.pop()
            mover = position.to_move
            position.play(move)
            untried = position.moves() if position.winner is None else []
            rng.shuffle(untried)
            child = Node(move, node, mover, untried)
            node.children.append(child)
            node = child
        while position.winner is None:
            position.play(position.random_move(rng))
        winner = position.winner
        walk: Node | None = node
        while walk is not None:
            walk.visits += 1
            if walk.mover == winner:
                walk.wins += 1.0
            walk = walk.parent
    best = max(root.children, key=lambda c: c.visits)
    return best.move


def position_of(view: dict[str, Any], seat: int) -> Position:
    board = [-1 if v is None else int(v) for row in view["board"] for v in row]
    counts = [[int(n) for n in view["collections"][s]] for s in (0, 1)]
    return Position(board, counts, [int(c) for c in view["color_order"]], seat)


def reference_policy(view: dict[str, Any], seat: int, rng: random.Random,
                     playouts: int = PLAYOUTS_PER_MOVE) -> dict[str, Any]:
    """The reference player's move, as a Nibble move (``{"take": [[row, col], ...]}``)."""
    position = position_of(view, seat)
    mask = uct_search(position, playouts, rng)
    return {"take": [[i // 9, i % 9] for i in range(81) if mask >> i & 1]}


def measure(seconds: float = 10.0) -> float:
    """Playouts a second of process time from an opening position (random colours)."""
    rng = random.Random("measure")
    board = [c for c in range(9) for _ in range(9)]
    rng.shuffle(board)
    position = Position(board, [[0] * 9, [0] * 9], list(range(9)), 0)
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        uct_search(position, 200, rng)
        done += 200
    return done / (time.process_time() - started)


if __name__ == "__main__":
    rate = measure(float(sys.argv[1]) if len(sys.argv) > 1 else 10.0)
    print(f"{rate:.0f} playouts a second (process time)")
