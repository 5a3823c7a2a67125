"""Nibble level 4: Monte-Carlo tree search with decisive playouts and a solver.

This module is the readable specification of the search and its fallback. The same search runs
in C (``mcts.c``, loaded by :mod:`games.nibble.bots.native`), drawing the same SplitMix64 numbers
in the same order, so that for one seed both choose the same take; the C core is about a hundred
times faster and plays whenever a C compiler is at hand.

Written from the rules (``games/nibble/RULES.md``) on the bots' bitboards
(:mod:`games.nibble.bots.search`); it shares nothing with the reference opponent.

The search, from the player to move (seat 0; the other player is seat 1):

- **The tree.** Every node holds the take that led to it, its visits and the wins of the player
  who made that take. The root's children are every legal take: each legal subset of one
  colour's takeable discs (of a colour's first 8 takeable discs; any further ones singly, which
  a real board almost never has). A node gets its children, the same full list, on its second
  visit. Selection is UCT (``wins / visits + c * sqrt(ln N / visits)``), untried children
  first in list order.
- **The solver.** A child whose take ends the game (an instant win, the empty board, or a result
  that can no longer change: the engine's early-finish test, exact for the winner) is proven.
  A node is proven won for its player to move when one child wins for them, and proven lost when
  every child loses; proofs travel up the path after every iteration, proven losses are never
  selected again, and a proven node scores its proof instead of a playout. The search stops
  early once the root is proven.
- **Decisive playouts.** A playout's player takes an instant win whenever one is at hand (the
  discs of that colour grown greedily in cell order). When the other player might win at once
  next turn (a cheap filter on the counts: five of a colour the mover has none of, or three
  neighbouring colours at most one of them short of seven and no more than 4 short in all), up
  to ``RETRIES`` random takes are drawn until one leaves them no instant win; otherwise the take
  is uniformly random: a takeable disc drawn uniformly, joined by each other takeable disc of
  its colour that keeps the board in one piece (``MULTI``: 0 single discs, 1 each such disc with
  chance one half, 2 all that fit, in cell order).
- **The choice.** A take that wins at once, else one proven to win, else the most visited take
  not proven to lose (the first such on ties).

The budget is a fixed number of iterations (one playout each), seeded from the ``rng`` the
caller passes, so a move is reproducible; a wall-clock limit, checked every 1,024 iterations,
only stops a search that would overrun.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.kit.bits import bits
from games.nibble.bots.search import stays_connected, takeable_mask

UNKNOWN = -1
CLOCK_EVERY = 1024
SUBSET_CELLS = 8
MAX_DEPTH = 96
MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Config:
    """The knobs of the search (level 4 plays with :data:`LEVEL4`)."""

    iterations: int = 100_000
    seconds: float = 3.0
    explore: float = 1.0
    multi: int = 1  # playout takes: 0 single discs, 1 random subsets, 2 as many as fit
    retries: int = 4  # random takes tried against an opponent's instant win


@dataclass(frozen=True)
class Result:
    """The chosen take (its cells' mask and its number in the root's list) and statistics."""

    mask: int
    index: int
    iterations: int
    nodes: int
    proven: int  # the root's proven winner (0 the player to move, 1 the other), -1 unknown
    visits: int  # the chosen take's visits


# --------------------------------------------------------------------------- random numbers


class SplitMix64:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


# --------------------------------------------------------------------------- positions


class Pos:
    """A position for the search: board, disc mask, counts and majorities of both seats."""

    __slots__ = ("board", "discs", "cnt", "maj", "order")

    def __init__(self, board: list[int], discs: int, cnt: list[list[int]], maj: list[int],
                 order: Sequence[int]) -> None:
        self.board = board
        self.discs = discs
        self.cnt = cnt
        self.maj = maj
        self.order = order

    def copy(self) -> Pos:
        return Pos(self.board[:], self.discs, [self.cnt[0][:], self.cnt[1][:]], self.maj[:],
                   self.order)

    def apply(self, mover: int, colour: int, mask: int, size: int) -> None:
        for i in bits(mask):
            self.board[i] = -1
        self.discs &= ~mask
        before = self.cnt[mover][colour]
        self.cnt[mover][colour] = before + size
        if before < 5 <= before + size:
            self.maj[mover] += 1


def instant(c: Sequence[int], order: Sequence[int]) -> bool:
    if any(n >= 9 for n in c):
        return True
    return any(c[order[k]] >= 7 and c[order[k + 1]] >= 7 and c[order[k + 2]] >= 7
               for k in range(7))


def can_reach_instant(other: Sequence[int], order: Sequence[int]) -> bool:
    """Whether a player can still win at once while the other holds ``other``."""
    if any(n == 0 for n in other):
        return True
    return any(other[order[k]] <= 2 and other[order[k + 1]] <= 2 and other[order[k + 2]] <= 2
               for k in range(7))


def winner_after(p: Pos, mover: int) -> int:
    """The winner once ``mover`` has moved, or UNKNOWN while the game goes on."""
    if instant(p.cnt[mover], p.order):
        return mover
    if not p.discs:
        return 0 if p.maj[0] >= 5 else 1
    for s in (0, 1):
        if p.maj[s] >= 5:
            return UNKNOWN if can_reach_instant(p.cnt[s], p.order) else s
    return UNKNOWN


def wins_with(c: Sequence[int], order: Sequence[int], colour: int, n: int) -> bool:
    """Whether holding ``n`` discs of ``colour`` (the other counts as in ``c``) wins at once."""
    if n >= 9:
        return True
    if n < 7:
        return False
    for k in range(7):
        triple = order[k:k + 3]
        if colour in triple and all(c[x] >= 7 for x in triple if x != colour):
            return True
    return False


class Groups:
    """Takeable discs by colour (cells ascending) and all of them in cell order."""

    __slots__ = ("by_colour", "all")

    def __init__(self, p: Pos) -> None:
        self.by_colour: list[list[int]] = [[] for _ in range(9)]
        self.all: list[int] = []
        for i in bits(takeable_mask(p.discs)):
            self.by_colour[p.board[i]].append(i)
            self.all.append(i)


def winning_take(p: Pos, g: Groups, mover: int) -> tuple[int, int, int] | None:
    """(colour, mask, size) of a take that wins at once for ``mover``, grown greedily in cell
    order, or None."""
    c = p.cnt[mover]
    for col in range(9):
        cells = g.by_colour[col]
        if not cells or not wins_with(c, p.order, col, c[col] + len(cells)):
            continue
        removed = size = 0
        for i in cells:
            if not size or stays_connected(p.discs, removed | 1 << i):
                removed |= 1 << i
                size += 1
        if wins_with(c, p.order, col, c[col] + size):
            return col, removed, size
    return None


def threatens(p: Pos, seat: int) -> bool:
    """Whether ``seat`` might win at once on its next turn (a filter before the exact test)."""
    c, o = p.cnt[seat], p.cnt[1 - seat]
    if any(c[k] >= 5 and o[k] == 0 for k in range(9)):
        return True
    for k in range(7):
        short = [7 - c[x] for x in p.order[k:k + 3] if c[x] < 7]
        if len(short) <= 1 and sum(short) <= 4:
            return True
    return False


# --------------------------------------------------------------------------- playouts


class Search:
    def __init__(self, config: Config, seed: int) -> None:
        self.config = config
        self.rng = SplitMix64(seed)

    def random_take(self, p: Pos, g: Groups) -> tuple[int, int, int]:
        i = g.all[self.rng.below(len(g.all))]
        col = p.board[i]
        removed, size = 1 << i, 1
        multi = self.config.multi
        if multi:
            for cell in g.by_colour[col]:
                if cell == i:
                    continue
                if multi == 1 and not self.rng.next() & 1:
                    continue
                if stays_connected(p.discs, removed | 1 << cell):
                    removed |= 1 << cell
                    size += 1
        return col, removed, size

    def playout(self, p: Pos, mover: int) -> int:
        """Plays ``p`` out with ``mover`` to move; the winner."""
        while True:
            g = Groups(p)
            if winning_take(p, g, mover) is not None:
                return mover
            if threatens(p, 1 - mover):
                t = 0
                while True:
                    col, mask, size = self.random_take(p, g)
                    trial = p.copy()
                    trial.apply(mover, col, mask, size)
                    if (t + 1 >= self.config.retries or winner_after(trial, mover) != UNKNOWN
                            or winning_take(trial, Groups(trial), 1 - mover) is None):
                        break
                    t += 1
                p = trial
            else:
                col, mask, size = self.random_take(p, g)
                p.apply(mover, col, mask, size)
            w = winner_after(p, mover)
            if w != UNKNOWN:
                return w
            mover = 1 - mover

    # ----------------------------------------------------------------------- the tree

    def expand(self, node: Node, p: Pos, mover: int) -> None:
        """Gives ``node`` its children; settles it when a child wins or every child loses."""
        children = []
        won, lost = False, 0
        for col, mask, size in legal_takes(p, Groups(p)):
            q = p.copy()
            q.apply(mover, col, mask, size)
            w = winner_after(q, mover)
            children.append(Node(mask, col, size, w))
            won = won or w == mover
            lost += w == 1 - mover
        node.children = children
        if won:
            node.winner = mover
        elif lost == len(children):
            node.winner = 1 - mover

    def select(self, node: Node, mover: int) -> Node | None:
        logn = math.log(node.visits) if node.visits else 0.0
        explore = self.config.explore
        best: Node | None = None
        best_value = 0.0
        for c in node.children or ():
            if c.winner == 1 - mover:
                continue
            if c.visits == 0:
                return c
            value = c.wins / c.visits + explore * math.sqrt(logn / c.visits)
            if best is None or value > best_value:
                best, best_value = c, value
        return best

    def run(self, root_pos: Pos) -> Result:
        config = self.config
        root = Node(0, -1, 0, UNKNOWN)
        self.expand(root, root_pos, 0)
        count = 1 + len(root.children or ())
        deadline = time.monotonic() + config.seconds
        done = 0
        while done < config.iterations and root.winner == UNKNOWN:
            if done % CLOCK_EVERY == 0 and done and time.monotonic() > deadline:
                break
            p = root_pos.copy()
            node, depth, mover = root, 0, 0
            path = [root]
            while node.children is not None and node.winner == UNKNOWN and depth < MAX_DEPTH:
                child = self.select(node, mover)
                assert child is not None
                p.apply(mover, child.colour, child.mask, child.size)
                node = child
                depth += 1
                path.append(node)
                mover = 1 - mover
            if node.winner != UNKNOWN:
                winner = node.winner
            elif node.visits >= 1 and depth < MAX_DEPTH:
                self.expand(node, p, mover)
                count += len(node.children or ())
                if node.winner != UNKNOWN:
                    winner = node.winner
                else:
                    child = self.select(node, mover)
                    assert child is not None
                    p.apply(mover, child.colour, child.mask, child.size)
                    node = child
                    depth += 1
                    path.append(node)
                    mover = 1 - mover
                    winner = child.winner if child.winner != UNKNOWN else self.playout(p, mover)
            else:
                winner = self.playout(p, mover)
            for d in range(depth, -1, -1):
                n = path[d]
                n.visits += 1
                if winner == (d + 1) % 2:
                    n.wins += 1.0
                if d < depth:
                    n.settle(d % 2)
            done += 1
        children = root.children or []
        index = choose(children)
        chosen = children[index]
        return Result(chosen.mask, index, done, count, root.winner, chosen.visits)


class Node:
    __slots__ = ("mask", "colour", "size", "winner", "terminal", "children", "visits", "wins")

    def __init__(self, mask: int, colour: int, size: int, winner: int) -> None:
        self.mask = mask
        self.colour = colour
        self.size = size
        self.winner = winner
        self.terminal = winner != UNKNOWN
        self.children: list[Node] | None = None
        self.visits = 0
        self.wins = 0.0

    def settle(self, mover: int) -> None:
        if self.winner != UNKNOWN or self.children is None:
            return
        lost = 0
        for c in self.children:
            if c.winner == mover:
                self.winner = mover
                return
            lost += c.winner == 1 - mover
        if lost == len(self.children):
            self.winner = 1 - mover


def choose(children: Sequence[Node]) -> int:
    """A take that wins at once, else one proven to win, else the most visited take not proven
    to lose (the first on ties), else the most visited."""
    for k, c in enumerate(children):
        if c.winner == 0 and c.terminal:
            return k
    for k, c in enumerate(children):
        if c.winner == 0:
            return k
    for lost_too in (False, True):
        best = -1
        for k, c in enumerate(children):
            if not lost_too and c.winner == 1:
                continue
            if best < 0 or c.visits > children[best].visits:
                best = k
        if best >= 0:
            return best
    raise AssertionError("the root has at least one take")


def legal_takes(p: Pos, g: Groups) -> list[tuple[int, int, int]]:
    """Every legal take as (colour, mask, size): by colour, then the subsets of the colour's
    first 8 takeable cells in increasing order of their bit pattern, then single discs of any
    further cells."""
    takes = []
    for col in range(9):
        cells = g.by_colour[col]
        if not cells:
            continue
        sub = min(len(cells), SUBSET_CELLS)
        for s in range(1, 1 << sub):
            removed = size = 0
            for j in range(sub):
                if s >> j & 1:
                    removed |= 1 << cells[j]
                    size += 1
            if size > 1 and not stays_connected(p.discs, removed):
                continue
            takes.append((col, removed, size))
        for cell in cells[sub:]:
            takes.append((col, 1 << cell, 1))
    return takes


def position(board: Sequence[int], counts: Sequence[Sequence[int]], order: Sequence[int]) -> Pos:
    """The search's position: ``counts[0]`` belongs to the player to move."""
    discs = 0
    for i, v in enumerate(board):
        if v >= 0:
            discs |= 1 << i
    cnt = [list(counts[0]), list(counts[1])]
    return Pos(list(board), discs, cnt, [sum(n >= 5 for n in c) for c in cnt], order)


def search(board: Sequence[int], counts: Sequence[Sequence[int]], order: Sequence[int],
           seed: int, config: Config) -> Result:
    """The pure-Python search (the specification of the C core)."""
    return Search(config, seed).run(position(board, counts, order))
