/* Nibble level 4: the C core of the Monte-Carlo tree search of games/nibble/bots/mcts.py.
 *
 * mcts.py is the readable specification and the fallback; this file does exactly the same, step
 * by step, with the same SplitMix64 numbers drawn in the same order, so that for one seed both
 * choose the same take. Read mcts.py first: the comments there explain the search.
 *
 * Cells are indices 9 * r + c; the discs are an 81-bit mask (unsigned __int128, bit i set when
 * cell i holds a disc). Seat 0 is the player to move at the root, seat 1 the other.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

#define ONE ((u128)1)
#define CELLS 81
#define NCOL 9
#define UNKNOWN (-1)
#define CLOCK_EVERY 1024
#define MAX_NODES 6000000

static u128 ALL, COL0, COL8;

static void init_masks(void) {
    ALL = (ONE << CELLS) - 1;
    COL0 = 0;
    for (int r = 0; r < 9; r++) COL0 |= ONE << (9 * r);
    COL8 = COL0 << 8;
}

/* ------------------------------------------------------------------ random numbers */

static uint64_t rng_state;

static uint64_t next64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int below(int n) { return (int)(next64() % (uint64_t)n); }

/* ------------------------------------------------------------------ masks */

static u128 grow(u128 m) {
    return (m | (m << 9) | (m >> 9) | ((m << 1) & ~COL0) | ((m >> 1) & ~COL8)) & ALL;
}

static int lowest(u128 m) {
    uint64_t lo = (uint64_t)m;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* Whether the connected group `discs` stays connected without `removed`. */
static int stays_connected(u128 discs, u128 removed) {
    u128 left = discs & ~removed;
    u128 targets = grow(removed) & left;
    if (!targets) return left == 0;
    u128 seen = targets & (~targets + 1);
    while ((seen & targets) != targets) {
        u128 g = grow(seen) & left;
        if (g == seen) return 0;
        seen = g;
    }
    return 1;
}

static u128 takeable(u128 d) {
    u128 north = d & ~(d << 9);
    u128 south = d & ~(d >> 9);
    u128 west = d & ~((d << 1) & ~COL0);
    u128 east = d & ~((d >> 1) & ~COL8);
    u128 cornered = (north | south) & (east | west);
    u128 leaves = (north & south & (east | west)) | (east & west & (north | south));
    u128 safe = cornered & leaves;
    u128 two = cornered & ~leaves;
    safe |= two & north & east & (d >> 8);
    safe |= two & north & west & (d >> 10);
    safe |= two & south & east & (d << 10);
    safe |= two & south & west & (d << 8);
    u128 unsure = cornered & ~safe;
    while (unsure) {
        int i = lowest(unsure);
        unsure &= unsure - 1;
        if (stays_connected(d, ONE << i)) safe |= ONE << i;
    }
    return safe;
}

/* ------------------------------------------------------------------ positions */

typedef struct {
    int8_t board[CELLS];
    u128 discs;
    int cnt[2][NCOL];
    int maj[2];
    int order[NCOL];
} Pos;

static int instant(const int *c, const int *order) {
    for (int k = 0; k < NCOL; k++)
        if (c[k] >= 9) return 1;
    for (int k = 0; k + 2 < NCOL; k++)
        if (c[order[k]] >= 7 && c[order[k + 1]] >= 7 && c[order[k + 2]] >= 7) return 1;
    return 0;
}

/* Whether a player can still win at once while the other holds `other`. */
static int can_reach_instant(const int *other, const int *order) {
    for (int k = 0; k < NCOL; k++)
        if (other[k] == 0) return 1;
    for (int k = 0; k + 2 < NCOL; k++)
        if (other[order[k]] <= 2 && other[order[k + 1]] <= 2 && other[order[k + 2]] <= 2)
            return 1;
    return 0;
}

static void apply(Pos *p, int mover, int colour, u128 mask, int size) {
    u128 m = mask;
    while (m) {
        int i = lowest(m);
        m &= m - 1;
        p->board[i] = -1;
    }
    p->discs &= ~mask;
    int before = p->cnt[mover][colour];
    p->cnt[mover][colour] = before + size;
    if (before < 5 && before + size >= 5) p->maj[mover] += 1;
}

/* The winner once `mover` has moved, or UNKNOWN while the game goes on. */
static int winner_after(const Pos *p, int mover) {
    if (instant(p->cnt[mover], p->order)) return mover;
    if (!p->discs) return p->maj[0] >= 5 ? 0 : 1;
    for (int s = 0; s < 2; s++)
        if (p->maj[s] >= 5)
            return can_reach_instant(p->cnt[s], p->order) ? UNKNOWN : s;
    return UNKNOWN;
}

/* Whether holding `n` of `colour` (the other counts as in c) wins at once. */
static int wins_with(const int *c, const int *order, int colour, int n) {
    if (n >= 9) return 1;
    if (n < 7) return 0;
    for (int k = 0; k + 2 < NCOL; k++) {
        int hit = 0, ok = 1;
        for (int j = k; j < k + 3; j++) {
            if (order[j] == colour) hit = 1;
            else if (c[order[j]] < 7) ok = 0;
        }
        if (hit && ok) return 1;
    }
    return 0;
}

/* Takeable discs grouped by colour (ascending colour, cells ascending). */
typedef struct {
    int n[NCOL];
    int cells[NCOL][CELLS];
    int total;
    int all[CELLS];
} Groups;

static void group(const Pos *p, u128 tk, Groups *g) {
    memset(g->n, 0, sizeof g->n);
    g->total = 0;
    while (tk) {
        int i = lowest(tk);
        tk &= tk - 1;
        int c = p->board[i];
        g->cells[c][g->n[c]++] = i;
        g->all[g->total++] = i;
    }
}

/* A take of `colour` that wins at once for `mover`, grown greedily in ascending cell order;
 * returns its size (0 when none) and sets *mask. */
static int winning_take(const Pos *p, const Groups *g, int mover, u128 *mask, int *colour) {
    const int *c = p->cnt[mover];
    for (int col = 0; col < NCOL; col++) {
        int k = g->n[col];
        if (!k || !wins_with(c, p->order, col, c[col] + k)) continue;
        u128 removed = 0;
        int size = 0;
        for (int j = 0; j < k; j++) {
            u128 b = ONE << g->cells[col][j];
            if (!size || stays_connected(p->discs, removed | b)) {
                removed |= b;
                size++;
            }
        }
        if (wins_with(c, p->order, col, c[col] + size)) {
            *mask = removed;
            *colour = col;
            return size;
        }
    }
    return 0;
}

/* Whether `seat` might win at once on its next turn (a cheap filter before the exact test). */
static int threatens(const Pos *p, int seat) {
    const int *c = p->cnt[seat], *o = p->cnt[1 - seat];
    for (int k = 0; k < NCOL; k++)
        if (c[k] >= 5 && o[k] == 0) return 1;
    for (int k = 0; k + 2 < NCOL; k++) {
        int low = 0, need = 0;
        for (int j = k; j < k + 3; j++) {
            int n = c[p->order[j]];
            if (n < 7) {
                low++;
                need += 7 - n;
            }
        }
        if (low <= 1 && need <= 4) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ playouts */

static int multi_mode; /* 0 single discs, 1 random subsets, 2 as many as fit */
static int retries;    /* random takes tried before one that hands the opponent a win is kept */

static int random_take(const Pos *p, const Groups *g, u128 *mask, int *colour) {
    int i = g->all[below(g->total)];
    int col = p->board[i];
    u128 removed = ONE << i;
    int size = 1;
    if (multi_mode) {
        for (int j = 0; j < g->n[col]; j++) {
            int cell = g->cells[col][j];
            if (cell == i) continue;
            if (multi_mode == 1 && !(next64() & 1)) continue;
            u128 b = ONE << cell;
            if (stays_connected(p->discs, removed | b)) {
                removed |= b;
                size++;
            }
        }
    }
    *mask = removed;
    *colour = col;
    return size;
}

static int hands_a_win(const Pos *p, int mover) {
    Groups g;
    group(p, takeable(p->discs), &g);
    u128 m;
    int c;
    return winning_take(p, &g, 1 - mover, &m, &c) > 0;
}

/* Plays `p` out with `mover` to move; returns the winner. */
static int playout(Pos *p, int mover) {
    Groups g;
    for (;;) {
        group(p, takeable(p->discs), &g);
        u128 mask;
        int colour, size;
        if (winning_take(p, &g, mover, &mask, &colour)) return mover;
        if (threatens(p, 1 - mover)) {
            Pos trial;
            for (int t = 0;; t++) {
                size = random_take(p, &g, &mask, &colour);
                trial = *p;
                apply(&trial, mover, colour, mask, size);
                if (t + 1 >= retries || winner_after(&trial, mover) != UNKNOWN
                    || !hands_a_win(&trial, mover))
                    break;
            }
            *p = trial;
        } else {
            size = random_take(p, &g, &mask, &colour);
            apply(p, mover, colour, mask, size);
        }
        int w = winner_after(p, mover);
        if (w != UNKNOWN) return w;
        mover = 1 - mover;
    }
}

/* ------------------------------------------------------------------ the tree */

typedef struct {
    uint64_t lo;
    uint32_t hi;
    int8_t colour, size, winner, terminal;
    int32_t first, count, visits;
    double wins; /* for the player who moved into the node */
} Node;

static Node *nodes;
static int used, capacity;

static int new_nodes(int n) {
    if (used + n > MAX_NODES) return -1;
    if (used + n > capacity) {
        int cap = capacity ? capacity : 1 << 16;
        while (cap < used + n) cap *= 2;
        Node *grown = realloc(nodes, (size_t)cap * sizeof(Node));
        if (!grown) return -1;
        nodes = grown;
        capacity = cap;
    }
    int at = used;
    used += n;
    return at;
}

static u128 node_mask(const Node *n) { return ((u128)n->hi << 64) | n->lo; }

#define SUBSET_CELLS 8

/* Every legal take: by colour, then subsets of the colour's first 8 takeable cells in
 * increasing order of their bit pattern, then single discs of any further cells. */
static int legal_takes(const Pos *p, const Groups *g, u128 *masks, int8_t *colours,
                       int8_t *sizes) {
    int n = 0;
    for (int col = 0; col < NCOL; col++) {
        int k = g->n[col];
        if (!k) continue;
        int sub = k < SUBSET_CELLS ? k : SUBSET_CELLS;
        for (int s = 1; s < (1 << sub); s++) {
            u128 removed = 0;
            int size = 0;
            for (int j = 0; j < sub; j++)
                if (s >> j & 1) {
                    removed |= ONE << g->cells[col][j];
                    size++;
                }
            if (size > 1 && !stays_connected(p->discs, removed)) continue;
            masks[n] = removed;
            colours[n] = (int8_t)col;
            sizes[n] = (int8_t)size;
            n++;
        }
        for (int j = sub; j < k; j++) {
            masks[n] = ONE << g->cells[col][j];
            colours[n] = (int8_t)col;
            sizes[n] = 1;
            n++;
        }
    }
    return n;
}

#define MAX_TAKES (NCOL * 256 + CELLS)
static u128 t_masks[MAX_TAKES];
static int8_t t_colours[MAX_TAKES], t_sizes[MAX_TAKES];

/* Creates the children of `at` (position p, `mover` to move); settles the node when a child
 * wins at once or every child loses. Returns 0 when the pool is full. */
static int expand(int at, const Pos *p, int mover) {
    Groups g;
    group(p, takeable(p->discs), &g);
    int n = legal_takes(p, &g, t_masks, t_colours, t_sizes);
    int first = new_nodes(n);
    if (first < 0) return 0;
    int lost = 0, won = 0;
    for (int k = 0; k < n; k++) {
        Node *c = &nodes[first + k];
        c->lo = (uint64_t)t_masks[k];
        c->hi = (uint32_t)(t_masks[k] >> 64);
        c->colour = t_colours[k];
        c->size = t_sizes[k];
        c->first = -1;
        c->count = 0;
        c->visits = 0;
        c->wins = 0.0;
        Pos q = *p;
        apply(&q, mover, t_colours[k], t_masks[k], t_sizes[k]);
        int w = winner_after(&q, mover);
        c->winner = (int8_t)w;
        c->terminal = w != UNKNOWN;
        if (w == mover) won = 1;
        if (w == 1 - mover) lost++;
    }
    Node *node = &nodes[at];
    node->first = first;
    node->count = n;
    if (won) node->winner = (int8_t)mover;
    else if (lost == n) node->winner = (int8_t)(1 - mover);
    return 1;
}

static void settle(int at, int mover) {
    Node *node = &nodes[at];
    if (node->winner != UNKNOWN || node->first < 0) return;
    int lost = 0;
    for (int k = 0; k < node->count; k++) {
        int w = nodes[node->first + k].winner;
        if (w == mover) {
            node->winner = (int8_t)mover;
            return;
        }
        if (w == 1 - mover) lost++;
    }
    if (lost == node->count) node->winner = (int8_t)(1 - mover);
}

static int select_child(const Node *node, int mover, double explore) {
    double logn = node->visits ? log((double)node->visits) : 0.0;
    int best = -1;
    double best_value = 0.0;
    for (int k = 0; k < node->count; k++) {
        const Node *c = &nodes[node->first + k];
        if (c->winner == 1 - mover) continue;
        if (c->visits == 0) return node->first + k;
        double value = c->wins / c->visits + explore * sqrt(logn / c->visits);
        if (best < 0 || value > best_value) {
            best = node->first + k;
            best_value = value;
        }
    }
    return best;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAX_DEPTH 96

/* The search. board: 81 colour ids or -1; counts: 18 (seat 0, the player to move, then seat 1);
 * order: the colour table. Writes the chosen take's mask (low 64 bits, high bits) and stats:
 * iterations, nodes, the root's proven winner (-1 unknown), the chosen child's visits.
 * Returns the number of the chosen take in the root's list. */
int nibble_mcts(const int8_t *board, const int32_t *counts, const int32_t *order, uint64_t seed,
                int32_t iterations, double seconds, double explore, int32_t multi,
                int32_t tries, uint64_t *out_lo, uint64_t *out_hi, int64_t *stats) {
    init_masks();
    rng_state = seed;
    multi_mode = multi;
    retries = tries;
    Pos root;
    root.discs = 0;
    for (int i = 0; i < CELLS; i++) {
        root.board[i] = board[i];
        if (board[i] >= 0) root.discs |= ONE << i;
    }
    for (int s = 0; s < 2; s++) {
        root.maj[s] = 0;
        for (int c = 0; c < NCOL; c++) {
            root.cnt[s][c] = counts[9 * s + c];
            if (root.cnt[s][c] >= 5) root.maj[s]++;
        }
    }
    for (int c = 0; c < NCOL; c++) root.order[c] = order[c];
    used = 0;
    int r = new_nodes(1);
    if (r < 0) return -1;
    memset(&nodes[0], 0, sizeof(Node));
    nodes[0].winner = UNKNOWN;
    nodes[0].first = -1;
    expand(0, &root, 0);
    double deadline = now() + seconds;
    int done = 0;
    int path[MAX_DEPTH + 2];
    for (; done < iterations && nodes[0].winner == UNKNOWN; done++) {
        if (done % CLOCK_EVERY == 0 && done && now() > deadline) break;
        Pos p = root;
        int at = 0, depth = 0, mover = 0;
        path[0] = 0;
        int winner = UNKNOWN;
        while (nodes[at].first >= 0 && nodes[at].winner == UNKNOWN && depth < MAX_DEPTH) {
            int c = select_child(&nodes[at], mover, explore);
            Node *child = &nodes[c];
            apply(&p, mover, child->colour, node_mask(child), child->size);
            at = c;
            path[++depth] = at;
            mover = 1 - mover;
        }
        if (nodes[at].winner != UNKNOWN) {
            winner = nodes[at].winner;
        } else {
            if (nodes[at].visits >= 1 && depth < MAX_DEPTH && expand(at, &p, mover)) {
                if (nodes[at].winner != UNKNOWN) {
                    winner = nodes[at].winner;
                } else {
                    int c = select_child(&nodes[at], mover, explore);
                    Node *child = &nodes[c];
                    apply(&p, mover, child->colour, node_mask(child), child->size);
                    at = c;
                    path[++depth] = at;
                    mover = 1 - mover;
                    winner = child->winner != UNKNOWN ? child->winner : playout(&p, mover);
                }
            } else {
                winner = playout(&p, mover);
            }
        }
        for (int d = depth; d >= 0; d--) {
            Node *n = &nodes[path[d]];
            n->visits += 1;
            if (winner == (d + 1) % 2) n->wins += 1.0;
            if (d < depth) settle(path[d], d % 2);
        }
    }
    /* the choice: a take that wins for sure, else the most visited take not lost for sure */
    Node *rt = &nodes[0];
    int best = -1;
    for (int k = 0; k < rt->count && best < 0; k++)
        if (nodes[rt->first + k].winner == 0 && nodes[rt->first + k].terminal) best = k;
    for (int k = 0; k < rt->count && best < 0; k++)
        if (nodes[rt->first + k].winner == 0) best = k;
    for (int pass = 0; pass < 2 && best < 0; pass++)
        for (int k = 0; k < rt->count; k++) {
            Node *c = &nodes[rt->first + k];
            if (pass == 0 && c->winner == 1) continue;
            if (best < 0 || c->visits > nodes[rt->first + best].visits) best = k;
        }
    Node *chosen = &nodes[rt->first + best];
    *out_lo = chosen->lo;
    *out_hi = chosen->hi;
    stats[0] = done;
    stats[1] = used;
    stats[2] = rt->winner;
    stats[3] = chosen->visits;
    return best;
}

void nibble_mcts_free(void) {
    free(nodes);
    nodes = NULL;
    used = capacity = 0;
}
