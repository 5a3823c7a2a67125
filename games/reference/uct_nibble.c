/* The reference Nibble player's rules, random playouts and UCT tree in C.
 *
 * A line-by-line translation of the pure-Python implementation in uct_nibble.py, which stays
 * the readable specification and the fallback: the same bitboards, the same move order, the
 * same SplitMix64 generator drawn in the same order, so for one seed both pick the same move.
 * It includes nothing of the project. uct_nibble.py compiles it on first use
 * (cc -O2 -shared -fPIC) and calls it through ctypes.
 *
 * Cells are indices 9 * row + col; a set of cells is an unsigned 128-bit mask (81 bits used).
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define EXPLORATION 1.4

static const u128 ONE = 1;

static u128 all_mask(void) { return (ONE << 81) - 1; }

static u128 col0_mask(void) {
    u128 m = 0;
    for (int r = 0; r < 9; r++) m |= ONE << (9 * r);
    return m;
}

static u128 ALL, COL0, COL8, ROW0, ROW8;

static void setup(void) {
    ALL = all_mask();
    COL0 = col0_mask();
    COL8 = COL0 << 8;
    ROW0 = (ONE << 9) - 1;
    ROW8 = ROW0 << 72;
}

static int lowest(u128 m) {
    uint64_t lo = (uint64_t)m;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* ------------------------------------------------------------------ random numbers */

typedef struct { uint64_t state; } SplitMix;

static uint64_t next_u64(SplitMix *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t below(SplitMix *rng, uint64_t n) { return next_u64(rng) % n; }

static int coin(SplitMix *rng) { return (int)(next_u64(rng) >> 63); }

static void shuffle(u128 *items, int n, SplitMix *rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(rng, (uint64_t)i + 1);
        u128 t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ------------------------------------------------------------------ rules */

static u128 spread(u128 m) {
    return (m | (m << 9) | (m >> 9) | ((m & ~COL8) << 1) | ((m & ~COL0) >> 1)) & ALL;
}

static int connected(u128 discs) {
    if (!discs) return 1;
    u128 reached = discs & (~discs + 1);
    for (;;) {
        u128 more = spread(reached) & discs;
        if (more == reached) return reached == discs;
        reached = more;
    }
}

static u128 corner_discs(u128 discs) {
    u128 empty = ~discs & ALL;
    u128 north = ((empty << 9) & ALL) | ROW0;
    u128 south = (empty >> 9) | ROW8;
    u128 east = ((empty >> 1) & ~COL8) | COL8;
    u128 west = ((empty << 1) & ~COL0 & ALL) | COL0;
    return discs & ((north & east) | (east & south) | (south & west) | (west & north));
}

/* Cells of the discs a player may take on their own, ascending; returns how many. */
static int removable(u128 discs, int *out) {
    int n = 0;
    u128 m = corner_discs(discs);
    while (m) {
        int i = lowest(m);
        u128 low = ONE << i;
        m ^= low;
        int r = i / 9, c = i % 9;
        int around[4], k = 0;
        if (r > 0 && (discs >> (i - 9) & 1)) around[k++] = i - 9;
        if (r < 8 && (discs >> (i + 9) & 1)) around[k++] = i + 9;
        if (c > 0 && (discs >> (i - 1) & 1)) around[k++] = i - 1;
        if (c < 8 && (discs >> (i + 1) & 1)) around[k++] = i + 1;
        if (k <= 1) {
            out[n++] = i;
            continue;
        }
        if (k == 2) {
            int a = around[0], b = around[1];
            int diagonal = a + b - i;
            int gap = abs(a - b);
            if (gap != 2 && gap != 18 && (discs >> diagonal & 1)) {
                out[n++] = i;
                continue;
            }
        }
        if (connected(discs & ~low)) out[n++] = i;
    }
    return n;
}

typedef struct {
    int8_t board[81];
    u128 discs;
    int counts[2][9];
    int order[9];
    int to_move;
    int winner; /* -1 while the match runs */
} Position;

typedef struct {
    u128 *items;
    size_t n, cap;
} Moves;

static int push(Moves *v, u128 move) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 256;
        u128 *items = realloc(v->items, cap * sizeof(u128));
        if (!items) return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = move;
    return 0;
}

/* Appends every legal take: each non-empty subset of one colour's removable discs whose
 * removal leaves the rest connected; colours in the order of their first removable disc. */
static int moves(const Position *p, Moves *out) {
    int cells[81];
    int n = removable(p->discs, cells);
    int colours[9], ncolours = 0;
    int members[9][81], nmembers[9];
    for (int k = 0; k < n; k++) {
        int colour = p->board[cells[k]], g = 0;
        while (g < ncolours && colours[g] != colour) g++;
        if (g == ncolours) {
            colours[ncolours] = colour;
            nmembers[ncolours] = 0;
            ncolours++;
        }
        members[g][nmembers[g]++] = cells[k];
    }
    for (int g = 0; g < ncolours; g++) {
        int size = nmembers[g];
        if (size > 24) return -1; /* cannot happen on a Nibble board */
        for (uint32_t pick = 1; pick < (1u << size); pick++) {
            u128 mask = 0;
            for (int k = 0; k < size; k++)
                if (pick >> k & 1) mask |= ONE << members[g][k];
            if ((pick & (pick - 1)) == 0 || connected(p->discs & ~mask))
                if (push(out, mask)) return -1;
        }
    }
    return 0;
}

/* A random take: a random removable disc, with each other removable disc of its colour added
 * at even odds; the single disc if that set would split the board. */
static u128 random_move(const Position *p, SplitMix *rng) {
    int cells[81];
    int n = removable(p->discs, cells);
    int first = cells[below(rng, (uint64_t)n)];
    int colour = p->board[first];
    u128 mask = ONE << first;
    for (int k = 0; k < n; k++)
        if (cells[k] != first && p->board[cells[k]] == colour && coin(rng))
            mask |= ONE << cells[k];
    if (mask != (ONE << first) && !connected(p->discs & ~mask)) mask = ONE << first;
    return mask;
}

static void play(Position *p, u128 mask) {
    int player = p->to_move;
    int *mine = p->counts[player];
    u128 m = mask;
    while (m) {
        int i = lowest(m);
        mine[p->board[i]]++;
        p->board[i] = -1;
        m ^= ONE << i;
    }
    p->discs &= ~mask;
    int won = 0;
    for (int c = 0; c < 9; c++)
        if (mine[c] == 9) won = 1;
    for (int k = 0; k < 7 && !won; k++)
        if (mine[p->order[k]] >= 7 && mine[p->order[k + 1]] >= 7 && mine[p->order[k + 2]] >= 7)
            won = 1;
    if (won) {
        p->winner = player;
    } else if (!p->discs) {
        int majorities = 0;
        for (int c = 0; c < 9; c++)
            if (p->counts[0][c] >= 5) majorities++;
        p->winner = majorities >= 5 ? 0 : 1;
    }
    p->to_move = 1 - player;
}

static void load(Position *p, const int8_t *board, const int32_t *counts, const int32_t *order,
                 int to_move) {
    p->discs = 0;
    for (int i = 0; i < 81; i++) {
        p->board[i] = board[i];
        if (board[i] >= 0) p->discs |= ONE << i;
    }
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 9; c++) p->counts[s][c] = counts[9 * s + c];
    for (int k = 0; k < 9; k++) p->order[k] = order[k];
    p->to_move = to_move;
    p->winner = -1;
}

/* ------------------------------------------------------------------ UCT */

typedef struct {
    u128 move;
    int parent, first_child, last_child, next_sibling;
    int mover; /* the player who made move */
    int visits;
    double wins;
    size_t untried; /* offset of its untried moves in the pool */
    int untried_n;
} Node;

typedef struct {
    Node *nodes;
    size_t n, cap;
    Moves pool;
} Tree;

static int add_node(Tree *t, u128 move, int parent, int mover, const Position *p,
                    SplitMix *rng) {
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 4096;
        Node *nodes = realloc(t->nodes, cap * sizeof(Node));
        if (!nodes) return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    size_t start = t->pool.n;
    if (p->winner < 0 && moves(p, &t->pool)) return -1;
    int count = (int)(t->pool.n - start);
    shuffle(t->pool.items + start, count, rng);
    int index = (int)t->n++;
    Node *node = &t->nodes[index];
    node->move = move;
    node->parent = parent;
    node->first_child = node->last_child = node->next_sibling = -1;
    node->mover = mover;
    node->visits = 0;
    node->wins = 0.0;
    node->untried = start;
    node->untried_n = count;
    if (parent >= 0) {
        Node *up = &t->nodes[parent];
        if (up->last_child < 0) up->first_child = index;
        else t->nodes[up->last_child].next_sibling = index;
        up->last_child = index;
    }
    return index;
}

/* The take with the most visits after `playouts` UCT iterations, as two 64-bit halves.
 * Returns 0, or -1 when memory ran out. */
int bp_uct_search(const int8_t *board, const int32_t *counts, const int32_t *order, int to_move,
                  long playouts, uint64_t seed, uint64_t *out) {
    setup();
    SplitMix rng = {seed};
    Position root_position;
    load(&root_position, board, counts, order, to_move);
    Tree t = {0};
    int status = -1;
    if (add_node(&t, 0, -1, 1 - to_move, &root_position, &rng) < 0) goto done;
    for (long iteration = 0; iteration < playouts; iteration++) {
        int node = 0;
        Position position = root_position;
        while (t.nodes[node].untried_n == 0 && t.nodes[node].first_child >= 0) {
            double log_n = log((double)t.nodes[node].visits);
            int best = -1;
            double best_value = 0.0;
            for (int c = t.nodes[node].first_child; c >= 0; c = t.nodes[c].next_sibling) {
                const Node *child = &t.nodes[c];
                double value = child->wins / child->visits
                               + EXPLORATION * sqrt(log_n / child->visits);
                if (best < 0 || value > best_value) {
                    best = c;
                    best_value = value;
                }
            }
            node = best;
            play(&position, t.nodes[node].move);
        }
        if (t.nodes[node].untried_n > 0 && position.winner < 0) {
            Node *here = &t.nodes[node];
            u128 move = t.pool.items[here->untried + (size_t)here->untried_n - 1];
            here->untried_n--;
            int mover = position.to_move;
            play(&position, move);
            int child = add_node(&t, move, node, mover, &position, &rng);
            if (child < 0) goto done;
            node = child;
        }
        while (position.winner < 0) play(&position, random_move(&position, &rng));
        int winner = position.winner;
        for (int walk = node; walk >= 0; walk = t.nodes[walk].parent) {
            t.nodes[walk].visits++;
            if (t.nodes[walk].mover == winner) t.nodes[walk].wins += 1.0;
        }
    }
    {
        int best = -1, best_visits = -1;
        for (int c = t.nodes[0].first_child; c >= 0; c = t.nodes[c].next_sibling)
            if (t.nodes[c].visits > best_visits) {
                best = c;
                best_visits = t.nodes[c].visits;
            }
        if (best < 0) goto done;
        out[0] = (uint64_t)t.nodes[best].move;
        out[1] = (uint64_t)(t.nodes[best].move >> 64);
        status = 0;
    }
done:
    free(t.nodes);
    free(t.pool.items);
    return status;
}

/* ------------------------------------------------------------------ for the tests */

/* Every legal take, as pairs of 64-bit halves in out (room for max); returns how many there
 * are (which may exceed max), or -1 when memory ran out. */
long bp_moves(const int8_t *board, uint64_t *out, long max) {
    setup();
    Position p;
    int32_t counts[18] = {0}, order[9] = {0};
    load(&p, board, counts, order, 0);
    Moves v = {0};
    if (moves(&p, &v)) {
        free(v.items);
        return -1;
    }
    for (size_t k = 0; k < v.n && (long)k < max; k++) {
        out[2 * k] = (uint64_t)v.items[k];
        out[2 * k + 1] = (uint64_t)(v.items[k] >> 64);
    }
    long n = (long)v.n;
    free(v.items);
    return n;
}

/* Plays a take in place (board and counts); returns the winner, or -1 while the match runs. */
int bp_play(int8_t *board, int32_t *counts, const int32_t *order, int to_move, uint64_t lo,
            uint64_t hi) {
    setup();
    Position p;
    load(&p, board, counts, order, to_move);
    play(&p, ((u128)hi << 64) | lo);
    for (int i = 0; i < 81; i++) board[i] = p.board[i];
    for (int s = 0; s < 2; s++)
        for (int c = 0; c < 9; c++) counts[9 * s + c] = p.counts[s][c];
    return p.winner;
}

/* A random playout take from the generator seeded with seed. */
void bp_random_move(const int8_t *board, uint64_t seed, uint64_t *out) {
    setup();
    Position p;
    int32_t counts[18] = {0}, order[9] = {0};
    load(&p, board, counts, order, 0);
    SplitMix rng = {seed};
    u128 move = random_move(&p, &rng);
    out[0] = (uint64_t)move;
    out[1] = (uint64_t)(move >> 64);
}
