"""A reference opponent for measuring the Nibble bots: plain UCT Monte-Carlo tree search
(exploration 1.4, the most-visited take) with uniformly random playouts, on its own
implementation of the Nibble rules.

It shares no code with the engine or the bots on purpose (it imports neither ``games.nibble`` nor
``games.kit``): an opponent nobody on the project tuned against, whose rules are checked against
the engine's on random matches in ``tests/bots/test_reference_uct.py``. It reads only the board,
the collections and the colour table of a view, all of which are public in Nibble.

This module is the readable specification and the fallback. The playouts and the tree run in
C (``uct_nibble.c``, a line-by-line translation), compiled on first use with the system C
compiler (``$CC`` or ``cc -O2 -shared -fPIC``) into the user cache (``$BOARDPOST_CACHE_DIR``, else
``~/.cache/boardpost``) and loaded with ctypes. Both draw the same SplitMix64 numbers in the same
order, so for one seed the C core and the pure Python choose the same take; the pure Python plays
when no compiler is at hand or ``BOARDPOST_REFERENCE_PURE`` is set, at about 1% of the speed.

The budget is a fixed number of playouts a move (``PLAYOUTS_PER_MOVE``), the number the C core
runs in one second of process time (``python -m games.reference.uct_nibble``), seeded from the
match seed, so a move is reproducible and does not depend on how busy the machine was.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

N = 9
ALL = (1 << 81) - 1
COL0 = sum(1 << (9 * r) for r in range(9))
COL8 = COL0 << 8
ROW0 = (1 << 9) - 1
ROW8 = ROW0 << 72

# Playouts a move for "1 s a move": what the C core runs in one second of process time, measured
# with `python -m games.reference.uct_nibble` (95,800-106,300 a second from an opening position on
# this project's 2-core AMD EPYC machine, 2026-12-01); see docs/bots.md.
PLAYOUTS_PER_MOVE = 100_000
EXPLORATION = 1.4


MASK64 = (1 << 64) - 1


class SplitMix:
    """SplitMix64, the playouts' random numbers (the C core draws the same ones)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def coin(self) -> bool:
        return bool(self.next() >> 63)

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


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

    def random_move(self, rng: SplitMix) -> int:
        """A random take: a random removable disc, with each other removable disc of its colour
        added at even odds; the single disc if that set would split the board."""
        cells = removable(self.discs)
        first = cells[rng.below(len(cells))]
        colour = self.board[first]
        mask = 1 << first
        for i in cells:
            if i != first and self.board[i] == colour and rng.coin():
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


def uct_search(root_position: Position, playouts: int, rng: SplitMix) -> int:
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


# --------------------------------------------------------------------------- the C core


class Core:
    """The C translation of the rules, the playouts and the tree (``uct_nibble.c``), loaded
    with ctypes."""

    def __init__(self, library: ctypes.CDLL) -> None:
        self.library = library
        u64p = ctypes.POINTER(ctypes.c_uint64)
        i8p, i32p = ctypes.POINTER(ctypes.c_int8), ctypes.POINTER(ctypes.c_int32)
        library.bp_uct_search.argtypes = [i8p, i32p, i32p, ctypes.c_int, ctypes.c_long,
                                          ctypes.c_uint64, u64p]
        library.bp_uct_search.restype = ctypes.c_int
        library.bp_moves.argtypes = [i8p, u64p, ctypes.c_long]
        library.bp_moves.restype = ctypes.c_long
        library.bp_play.argtypes = [i8p, i32p, i32p, ctypes.c_int, ctypes.c_uint64,
                                    ctypes.c_uint64]
        library.bp_play.restype = ctypes.c_int
        library.bp_random_move.argtypes = [i8p, ctypes.c_uint64, u64p]
        library.bp_random_move.restype = None

    @staticmethod
    def _arrays(position: Position) -> tuple[Any, Any, Any]:
        board = (ctypes.c_int8 * 81)(*position.board)
        counts = (ctypes.c_int32 * 18)(*position.counts[0], *position.counts[1])
        order = (ctypes.c_int32 * 9)(*position.order)
        return board, counts, order

    def uct_search(self, position: Position, playouts: int, seed: int) -> int:
        board, counts, order = self._arrays(position)
        out = (ctypes.c_uint64 * 2)()
        if self.library.bp_uct_search(board, counts, order, position.to_move, playouts,
                                      seed & MASK64, out):
            raise MemoryError("the UCT tree did not fit in memory")
        return out[0] | out[1] << 64

    def moves(self, position: Position) -> list[int]:
        board = (ctypes.c_int8 * 81)(*position.board)
        room = 512
        while True:
            out = (ctypes.c_uint64 * (2 * room))()
            n = self.library.bp_moves(board, out, room)
            if n < 0:
                raise MemoryError("no memory for the moves")
            if n <= room:
                return [out[2 * k] | out[2 * k + 1] << 64 for k in range(n)]
            room = n

    def play(self, position: Position, mask: int) -> None:
        """Plays ``mask`` on ``position`` with the C rules (board, counts, winner, turn)."""
        board, counts, order = self._arrays(position)
        winner = self.library.bp_play(board, counts, order, position.to_move, mask & MASK64,
                                      mask >> 64)
        position.board = list(board)
        position.discs &= ~mask
        position.counts = [list(counts[:9]), list(counts[9:])]
        position.winner = None if winner < 0 else winner
        position.to_move = 1 - position.to_move

    def random_move(self, position: Position, seed: int) -> int:
        board = (ctypes.c_int8 * 81)(*position.board)
        out = (ctypes.c_uint64 * 2)()
        self.library.bp_random_move(board, seed & MASK64, out)
        return out[0] | out[1] << 64


SOURCE = Path(__file__).with_suffix(".c")


def cache_dir() -> Path:
    """Where the compiled core is kept: ``$BOARDPOST_CACHE_DIR``, else the user cache."""
    configured = os.environ.get("BOARDPOST_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "boardpost"


def load_core(compiler: str | None = None, directory: Path | None = None) -> Core | None:
    """The C core, compiled on first use into the cache (one file per version of the source);
    None when ``BOARDPOST_REFERENCE_PURE`` is set or it cannot be compiled or loaded, and the
    pure-Python implementation plays instead (the same moves, far fewer playouts a second)."""
    if os.environ.get("BOARDPOST_REFERENCE_PURE"):
        return None
    try:
        source = SOURCE.read_bytes()
    except OSError:
        return None
    digest = hashlib.sha256(source).hexdigest()[:16]
    directory = directory or cache_dir()
    library = directory / f"uct_nibble-{digest}-{sys.implementation.cache_tag}.so"
    if not library.exists():
        compiler = compiler or os.environ.get("CC") or "cc"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            handle, partial = tempfile.mkstemp(suffix=".so.part", dir=directory)
            os.close(handle)
        except OSError:
            return None
        try:
            done = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", partial,
                                   str(SOURCE), "-lm"], capture_output=True, check=False)
            if done.returncode:
                return None
            os.replace(partial, library)  # atomic: processes compiling at once are safe
        except OSError:
            return None
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
    try:
        return Core(ctypes.CDLL(str(library)))
    except OSError:
        return None


_core: list[Core | None] = []


def core() -> Core | None:
    """The C core of this process (loaded once), or None for the pure-Python fallback."""
    if not _core:
        _core.append(load_core())
    return _core[0]


def search(position: Position, playouts: int, seed: int, use_c: bool = True) -> int:
    """The take UCT chooses after ``playouts`` playouts with the generator seeded by ``seed``:
    in C when it is available (and ``use_c``), else in Python; both give the same take."""
    native = core() if use_c else None
    if native is not None:
        return native.uct_search(position, playouts, seed)
    return uct_search(position, playouts, SplitMix(seed))


def reference_policy(view: dict[str, Any], seat: int, rng: random.Random,
                     playouts: int = PLAYOUTS_PER_MOVE) -> dict[str, Any]:
    """The reference player's move, as a Nibble move (``{"take": [[row, col], ...]}``); its
    playouts are seeded from ``rng`` (the match seed in the arena)."""
    position = position_of(view, seat)
    mask = search(position, playouts, rng.getrandbits(64))
    return {"take": [[i // 9, i % 9] for i in range(81) if mask >> i & 1]}


def measure(seconds: float = 10.0, use_c: bool = True) -> float:
    """Playouts a second of process time from an opening position (random colours)."""
    shuffler = random.Random("measure")
    board = [c for c in range(9) for _ in range(9)]
    shuffler.shuffle(board)
    position = Position(board, [[0] * 9, [0] * 9], list(range(9)), 0)
    step = 5000 if use_c and core() is not None else 200
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        search(position, step, done, use_c)
        done += step
    return done / (time.process_time() - started)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    native = core() is not None
    print(f"{'C core' if native else 'pure Python (no C core)'}: "
          f"{measure(seconds):.0f} playouts a second (process time)")
