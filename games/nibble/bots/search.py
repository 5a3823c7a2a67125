"""Nibble for the bots: a mutable position on bitboards, move generation, an evaluation and an
alpha-beta search under a node budget.

The engine (``games.nibble.engine``) is the authority on the rules; this module re-derives the
same rules for speed inside a search (make/unmake on a mutable board, no immutable states, no
move objects). Its results are cross-checked against the engine in ``tests/bots``.

Cells are indices ``9 * r + c``; the board is a list of 81 colour ids (``-1`` for empty) and the
discs are also kept as an 81-bit mask, bit ``i`` set when cell ``i`` holds a disc.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.kit.bits import bits
from games.nibble.engine import (
    CELLS,
    COLORS,
    MAJORITY,
    NINE,
    PER_COLOR,
    SEVEN,
    grow,
    local_takeable,
    majorities,
)

ROOT_SUBSETS = 255  # at the root, every take of a colour with up to 8 takeable discs
INNER_SUBSETS = 15  # below it, up to 4 (more get the reduced set, see colour_takes)
WIN = 1000.0  # a won position; wins found sooner score a little higher

# A take: (colour, cell indices, mask of the cells).
Take = tuple[int, tuple[int, ...], int]


# --------------------------------------------------------------------------- bitboards


def stays_connected(discs: int, removed: int) -> bool:
    """Whether the connected group ``discs`` stays connected without the discs of ``removed``.

    It does exactly when the discs left next to the removed ones are linked to each other (any
    disc reached the others through one of them before), so the fill stops once it has met them
    all, which is usually soon.
    """
    left = discs & ~removed
    targets = grow(removed) & left
    if not targets:
        return not left
    seen = targets & -targets
    while seen & targets != targets:
        grown = grow(seen) & left
        if grown == seen:
            return False
        seen = grown
    return True


def takeable_mask(discs: int) -> int:
    """Discs with two adjacent exposed sides (R5) whose removal keeps ``discs`` connected (R6).

    The engine's local test settles most of them (:func:`games.nibble.engine.local_takeable`);
    the remaining candidates get a (short) flood fill each. ``discs`` must be one group.
    """
    safe, unsure = local_takeable(discs)
    for i in bits(unsure):
        if stays_connected(discs, 1 << i):
            safe |= 1 << i
    return safe


def takes_by_colour(board: Sequence[int], discs: int) -> dict[int, list[int]]:
    """The takeable discs grouped by colour, in the order of their first cell; cells ascending."""
    grouped: dict[int, list[int]] = {}
    for i in bits(takeable_mask(discs)):
        colour = board[i]
        if colour in grouped:
            grouped[colour].append(i)
        else:
            grouped[colour] = [i]
    return grouped


def colour_takes(colour: int, cells: Sequence[int], discs: int,
                 max_subsets: int | None = None) -> list[Take]:
    """Legal takes of ``colour`` from its takeable ``cells`` (R7): subsets whose removal leaves
    the board connected.

    Without ``max_subsets``, or when the 2^k - 1 subsets of the k cells fit in it, every legal
    take. Otherwise the singletons, a few maximal legal takes (grown greedily) and those takes
    less one disc each, which is where the choices that matter lie.
    """
    n = len(cells)
    takes: list[Take] = [(colour, (i,), 1 << i) for i in cells]
    if n == 1:
        return takes
    if max_subsets is not None and (1 << n) - 1 > max_subsets:
        return takes + _big_takes(colour, cells, discs)
    splitting: list[int] = []
    for subset in range(1, 1 << n):
        if not subset & (subset - 1):
            continue
        # T3(b): a take containing a splitting take splits the board too.
        if any(bad & subset == bad for bad in splitting):
            continue
        removed = 0
        chosen = []
        for k in range(n):
            if subset >> k & 1:
                removed |= 1 << cells[k]
                chosen.append(cells[k])
        if not stays_connected(discs, removed):
            splitting.append(subset)
            continue
        takes.append((colour, tuple(chosen), removed))
    return takes


def _big_takes(colour: int, cells: Sequence[int], discs: int) -> list[Take]:
    """Maximal legal takes grown greedily in two orders, and each of them less one disc (every
    subset of a legal take is legal, T3b). Takes of two or more discs only."""
    found: dict[int, tuple[int, ...]] = {}
    for ordering in (list(cells), list(reversed(cells))):
        removed = 0
        for i in ordering:
            if stays_connected(discs, removed | 1 << i):
                removed |= 1 << i
        chosen = tuple(i for i in cells if removed >> i & 1)
        if len(chosen) > 1:
            found[removed] = chosen
            if len(chosen) > 2:
                for i in chosen:
                    found[removed & ~(1 << i)] = tuple(j for j in chosen if j != i)
    return [(colour, found[mask], mask) for mask in sorted(found)]


def all_takes(board: Sequence[int], discs: int, max_subsets: int | None = None) -> list[Take]:
    takes: list[Take] = []
    for colour, cells in takes_by_colour(board, discs).items():
        takes.extend(colour_takes(colour, cells, discs, max_subsets))
    return takes


# --------------------------------------------------------------------------- rules on counts


def instant_win(counts: Sequence[int], order: Sequence[int]) -> bool:
    """R9: all nine of a colour, or seven or more of each of three adjacent table colours."""
    for n in counts:
        if n >= NINE:
            return True
    for k in range(COLORS - 2):
        if (counts[order[k]] >= SEVEN and counts[order[k + 1]] >= SEVEN
                and counts[order[k + 2]] >= SEVEN):
            return True
    return False


def can_reach_instant(other: Sequence[int], order: Sequence[int]) -> bool:
    """Whether a player can still reach an instant win while the other holds ``other``."""
    if min(other) == 0:
        return True
    for k in range(COLORS - 2):
        if (other[order[k]] <= PER_COLOR - SEVEN and other[order[k + 1]] <= PER_COLOR - SEVEN
                and other[order[k + 2]] <= PER_COLOR - SEVEN):
            return True
    return False


def settled_winner(counts: Sequence[Sequence[int]], order: Sequence[int]) -> int | None:
    """The seat whose win can no longer be taken away (the engine's R12 test), or None."""
    for seat in (0, 1):
        if majorities(counts[seat]) >= MAJORITY:
            if not can_reach_instant(counts[seat], order):
                return seat
            return None
    return None


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class Weights:
    """Tuning of :class:`Evaluator`; the defaults are what the level 3 bot plays with."""

    need_power: float = 1.5  # sharpness of a contested colour's odds from the discs each needs
    nine_base: float = 0.45  # chance scale of completing a colour, per disc still needed
    seven_base: float = 0.5  # chance scale of three adjacent sevens, per disc still needed
    threat_weight: float = 1.0  # how much the instant-win chances count against the majorities


DEFAULT_WEIGHTS = Weights()


def _majority_odds(weights: Weights) -> list[float]:
    """odds[10 * m + o]: the chance to end up with the majority of a colour (5 of its 9 discs)
    holding ``m`` discs against ``o``, both under 5: ``b^k / (a^k + b^k)`` where ``a`` and ``b``
    are the discs each side still needs."""
    odds = [0.0] * 100
    for m in range(MAJORITY):
        for o in range(MAJORITY):
            a, b = (MAJORITY - m) ** weights.need_power, (MAJORITY - o) ** weights.need_power
            odds[10 * m + o] = b / (a + b)
    return odds


class Evaluator:
    """Scores collections for the player to move, from -1 (lost) to 1 (won).

    The score is a rough chance of winning: the chance of an instant win for either side (the
    best single route: nine of a colour the other side has none of, or three adjacent sevens the
    other side cannot block), and otherwise the chance of holding five colour majorities, colours
    taken as independent. It depends on the collections only, so it is cached.
    """

    def __init__(self, order: Sequence[int], weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.order = tuple(order)
        self.weights = weights
        self.odds = _majority_odds(weights)
        self.triples = [(order[k], order[k + 1], order[k + 2]) for k in range(COLORS - 2)]
        self.nine = [weights.nine_base ** n for n in range(PER_COLOR + 1)]
        self.seven = [weights.seven_base ** n for n in range(3 * SEVEN + 1)]
        self.cache: dict[tuple[int, ...], float] = {}

    def majority_chance(self, mine: Sequence[int], theirs: Sequence[int]) -> float:
        """The chance of holding 5+ discs in 5+ colours once the board is empty."""
        odds = self.odds
        won = lost = 0
        chances = []
        for c in range(COLORS):
            m, o = mine[c], theirs[c]
            if m >= MAJORITY:
                won += 1
            elif o >= MAJORITY:
                lost += 1
            else:
                chances.append(odds[10 * m + o])
        if won >= MAJORITY:
            return 1.0
        if lost > COLORS - MAJORITY:
            return 0.0
        need = MAJORITY - won
        # dist[k]: the chance of k more majorities among the colours so far; dist[need] holds
        # "need or more"
        dist = [1.0] + [0.0] * need
        for p in chances:
            q = 1.0 - p
            dist[need] += dist[need - 1] * p
            for k in range(need - 1, 0, -1):
                dist[k] = dist[k] * q + dist[k - 1] * p
            dist[0] *= q
        return dist[need]

    def instant_chance(self, mine: Sequence[int], theirs: Sequence[int]) -> float:
        """A rough chance of reaching an instant win by the best single route."""
        best = 0.0
        for c in range(COLORS):
            if theirs[c] == 0 and mine[c] >= MAJORITY:
                p = self.nine[NINE - mine[c]]
                if p > best:
                    best = p
        for a, b, c in self.triples:
            if theirs[a] <= 2 and theirs[b] <= 2 and theirs[c] <= 2:
                need = (max(0, SEVEN - mine[a]) + max(0, SEVEN - mine[b])
                        + max(0, SEVEN - mine[c]))
                if need <= 6:
                    p = self.seven[need]
                    if p > best:
                        best = p
        return best

    def evaluate(self, mine: Sequence[int], theirs: Sequence[int]) -> float:
        key = (*mine, *theirs)
        score = self.cache.get(key)
        if score is None:
            weight = self.weights.threat_weight
            major = self.majority_chance(mine, theirs)
            t_me = self.instant_chance(mine, theirs) * weight
            t_them = self.instant_chance(theirs, mine) * weight
            total = t_me + t_them
            if total > 0.95:
                t_me, t_them = 0.95 * t_me / total, 0.95 * t_them / total
            score = 2.0 * (t_me + (1.0 - t_me - t_them) * major) - 1.0
            self.cache[key] = score
        return score


# --------------------------------------------------------------------------- the search


class Budget(Exception):
    """Raised inside the search when the node budget or the time cap runs out."""


class Searcher:
    """Negamax alpha-beta with iterative deepening on a mutable position.

    ``counts[seat]`` are the collections, ``to_move`` the seat to play. Scores are from the point
    of view of the player to move; a win is worth ``WIN`` less the plies it takes. Every node
    first looks for a take that wins at once (so a leaf is never scored while an instant win is
    on offer), then for a transposition-table entry. A searcher serves one :meth:`choose`: a
    search cut short by its budget leaves the position as it was at the cut.
    """

    def __init__(self, board: Sequence[int], counts: Sequence[Sequence[int]], to_move: int,
                 order: Sequence[int], weights: Weights = DEFAULT_WEIGHTS,
                 max_subsets: int = INNER_SUBSETS) -> None:
        self.board = list(board)
        self.discs = sum(1 << i for i in range(CELLS) if self.board[i] >= 0)
        self.counts = [list(counts[0]), list(counts[1])]
        self.to_move = to_move
        self.order = tuple(order)
        self.evaluator = Evaluator(order, weights)
        self.max_subsets = max_subsets
        self.nodes = 0
        self.node_budget = 0
        self.deadline = 0.0
        self.table: dict[tuple[int, tuple[int, ...], int], tuple[int, float, int, Take | None]] = {}

    # ----------------------------------------------------------------- make / unmake

    def make(self, take: Take) -> None:
        colour, cells, removed = take
        board = self.board
        for i in cells:
            board[i] = -1
        self.discs &= ~removed
        self.counts[self.to_move][colour] += len(cells)
        self.to_move ^= 1

    def unmake(self, take: Take) -> None:
        colour, cells, removed = take
        self.to_move ^= 1
        self.counts[self.to_move][colour] -= len(cells)
        self.discs |= removed
        board = self.board
        for i in cells:
            board[i] = colour

    def ended(self, colour: int) -> float | None:
        """After a take of ``colour``: the score for the player now to move if the game is over,
        else None."""
        mover = self.to_move ^ 1
        if self.counts[mover][colour] >= SEVEN and instant_win(self.counts[mover], self.order):
            return -WIN
        if not self.discs:
            winner = 0 if majorities(self.counts[0]) >= MAJORITY else 1
            return WIN if winner == self.to_move else -WIN
        settled = settled_winner(self.counts, self.order)
        if settled is not None:
            return WIN if settled == self.to_move else -WIN
        return None

    def winning_take(self, grouped: dict[int, list[int]]) -> Take | None:
        """A take that wins at once for the player to move, if there is one."""
        mine = self.counts[self.to_move]
        for colour, cells in grouped.items():
            before = mine[colour]
            if before + len(cells) < SEVEN:
                continue  # every instant win needs seven or more of the colour taken
            mine[colour] = before + len(cells)
            wins = instant_win(mine, self.order)
            mine[colour] = before
            if not wins:
                continue
            for take in sorted(colour_takes(colour, cells, self.discs, ROOT_SUBSETS),
                               key=lambda t: -len(t[1])):
                mine[colour] = before + len(take[1])
                wins = instant_win(mine, self.order)
                mine[colour] = before
                if wins:
                    return take
        return None

    # ----------------------------------------------------------------- alpha-beta

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise Budget
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise Budget

    def leaf(self) -> float:
        me = self.to_move
        return self.evaluator.evaluate(self.counts[me], self.counts[me ^ 1])

    def negamax(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._tick()
        grouped = takes_by_colour(self.board, self.discs)
        if self.winning_take(grouped) is not None:
            return WIN - ply
        if depth <= 0:
            return self.leaf()
        key = (self.discs, tuple(self.counts[0]), self.to_move)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, e_score, e_flag, first = entry
            if e_depth >= depth:
                if e_flag == 0:
                    return e_score
                if e_flag > 0 and e_score >= beta:
                    return e_score
                if e_flag < 0 and e_score <= alpha:
                    return e_score
        takes = []
        for colour, cells in grouped.items():
            takes.extend(colour_takes(colour, cells, self.discs, self.max_subsets))
        takes = self.ordered(takes, first)
        best = -2 * WIN
        best_take = None
        start_alpha = alpha
        for take in takes:
            self.make(take)
            over = self.ended(take[0])
            if over is not None:
                score = -over - ply - 1 if over < 0 else -over + ply + 1
            else:
                score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            self.unmake(take)
            if score > best:
                best, best_take = score, take
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = 1 if best >= beta else (-1 if best <= start_alpha else 0)
        self.table[key] = (depth, best, flag, best_take)
        return best

    def ordered(self, takes: list[Take], first: Take | None) -> list[Take]:
        """Bigger takes of colours still in play first; the table's best move before all."""
        mine = self.counts[self.to_move]
        theirs = self.counts[self.to_move ^ 1]

        def key(take: Take) -> float:
            colour, cells, _ = take
            m, o = mine[colour], theirs[colour]
            live = 1.0 if (m < MAJORITY and o < MAJORITY) else 0.3
            if o == 0 and m + len(cells) >= 6:
                live += 0.5
            return -(len(cells) * live + (0.5 if m + len(cells) >= MAJORITY > m else 0))

        takes.sort(key=key)
        if first is not None and first in takes:
            takes.remove(first)
            takes.insert(0, first)
        return takes

    def choose(self, rng: random.Random, node_budget: int, max_seconds: float,
               max_depth: int = 30) -> tuple[Take, dict[str, float]]:
        """The best take found within the budget, ties between equal root moves broken by
        ``rng``. Returns the take and some statistics."""
        started = time.perf_counter()
        self.deadline = started + max_seconds
        self.node_budget = node_budget
        self.nodes = 0
        grouped = takes_by_colour(self.board, self.discs)
        win = self.winning_take(grouped)
        if win is not None:
            return win, {"depth": 0, "score": WIN, "nodes": 0, "seconds": 0.0}
        takes = []
        for colour, cells in grouped.items():
            takes.extend(colour_takes(colour, cells, self.discs, ROOT_SUBSETS))
        rng.shuffle(takes)
        takes = self.ordered(takes, None)
        if len(takes) == 1:
            return takes[0], {"depth": 0, "score": 0.0, "nodes": 0, "seconds": 0.0}
        discs_left = bin(self.discs).count("1")
        best_take, best_score, reached = takes[0], -2 * WIN, 0
        for depth in range(1, max_depth + 1):
            try:
                scored = self._root(takes, depth)
            except Budget:
                break
            # stable sort: equal scores keep the shuffled order
            scored.sort(key=lambda item: -item[0])
            takes = [take for _, take in scored]
            best_score, best_take = scored[0]
            reached = depth
            if abs(best_score) >= WIN - 100 or depth >= discs_left:
                break  # the result is known, or the search reaches the end of the game
        stats = {"depth": reached, "score": best_score, "nodes": self.nodes,
                 "seconds": time.perf_counter() - started}
        return best_take, stats

    def _root(self, takes: list[Take], depth: int) -> list[tuple[float, Take]]:
        alpha = -2 * WIN
        scored: list[tuple[float, Take]] = []
        for take in takes:
            self.make(take)
            over = self.ended(take[0])
            if over is not None:
                score = -over - 1 if over < 0 else -over + 1
            else:
                score = -self.negamax(depth - 1, -2 * WIN, -alpha + 1e-9, 1)
            self.unmake(take)
            scored.append((score, take))
            if score > alpha:
                alpha = score
        return scored
