/*
 * An exact solver for 5x5 tic-tac-toe with 4 in a row, used by `python -m bench.book --size 5`
 * to build the shipped 5x5 opening book. Standalone: `cc -O2 -o solver5 bench/solver5.c`.
 *
 * Reads position keys from standard input, one decimal number per line (the engine's key:
 * X's cells shifted above O's, `x << 25 | o`, bit r*5+c for row r, column c), and prints for
 * each the exact score for the side to move as the engine's score code: +m when it wins with
 * m marks on the board (as fast as it can), -m when it loses with m marks (as late as it can),
 * 0 for a draw. The positions must be reachable and not finished.
 *
 * Search: negamax with alpha-beta over bitboards; scores are absolute in time (a win at m
 * marks is W - m wherever the search started), so a transposition table keyed by the least of
 * the position's 8 symmetric images stores bounds that hold at any depth. Every node looks at
 * the lines first: a line of 3 own marks with its 4th cell empty wins at once, two enemy
 * threats on different cells lose, one enemy threat forces the block; a side with no line
 * left free of enemy marks cannot win. Each key is solved by two null-window tests around 0
 * (most positions are draws) and, when it is won or lost, by a full-window search for the
 * fastest win.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIDE 5
#define CELLS 25
#define K 4
#define W 100
#define FULL ((1u << CELLS) - 1)
#define TT_BITS 24

static uint32_t lines[32];
static int nlines;
static uint32_t chunk[8][4][256];
static int order[CELLS];
static uint64_t nodes;

typedef struct {
    uint64_t key; /* canonical key + 1; 0 = empty slot */
    int8_t lo, hi;
} Entry;
static Entry *table;

static void setup(void) {
    for (int r = 0; r < SIDE; r++)
        for (int c = 0; c < SIDE; c++) {
            static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
            for (int d = 0; d < 4; d++) {
                int er = r + dirs[d][0] * (K - 1), ec = c + dirs[d][1] * (K - 1);
                if (er < 0 || er >= SIDE || ec < 0 || ec >= SIDE) continue;
                uint32_t mask = 0;
                for (int i = 0; i < K; i++) mask |= 1u << ((r + dirs[d][0] * i) * SIDE + c + dirs[d][1] * i);
                lines[nlines++] = mask;
            }
        }
    int m = SIDE - 1;
    for (int s = 0; s < 8; s++) {
        int perm[CELLS];
        for (int r = 0; r < SIDE; r++)
            for (int c = 0; c < SIDE; c++) {
                int nr, nc;
                switch (s) {
                    case 0: nr = r; nc = c; break;
                    case 1: nr = c; nc = m - r; break;
                    case 2: nr = m - r; nc = m - c; break;
                    case 3: nr = m - c; nc = r; break;
                    case 4: nr = r; nc = m - c; break;
                    case 5: nr = m - r; nc = c; break;
                    case 6: nr = c; nc = r; break;
                    default: nr = m - c; nc = m - r; break;
                }
                perm[r * SIDE + c] = nr * SIDE + nc;
            }
        for (int part = 0; part < 4; part++)
            for (int byte = 0; byte < 256; byte++) {
                uint32_t out = 0;
                for (int bit = 0; bit < 8; bit++) {
                    int cell = part * 8 + bit;
                    if ((byte >> bit & 1) && cell < CELLS) out |= 1u << perm[cell];
                }
                chunk[s][part][byte] = out;
            }
    }
    /* Cells with the most lines through them first, then nearest the centre. */
    int through[CELLS];
    for (int c = 0; c < CELLS; c++) {
        through[c] = 0;
        for (int i = 0; i < nlines; i++) through[c] += lines[i] >> c & 1;
        order[c] = c;
    }
    for (int i = 0; i < CELLS; i++)
        for (int j = i + 1; j < CELLS; j++) {
            int a = order[i], b = order[j];
            int da = abs(a / SIDE - 2) + abs(a % SIDE - 2), db = abs(b / SIDE - 2) + abs(b % SIDE - 2);
            if (through[b] > through[a] || (through[b] == through[a] && (db < da || (db == da && b < a)))) {
                order[i] = b;
                order[j] = a;
            }
        }
    table = calloc((size_t)1 << TT_BITS, sizeof(Entry));
    if (!table) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
}

static inline uint32_t transform(uint32_t bits, int s) {
    return chunk[s][0][bits & 255] | chunk[s][1][bits >> 8 & 255] | chunk[s][2][bits >> 16 & 255] |
           chunk[s][3][bits >> 24 & 255];
}

static uint64_t canonical(uint32_t x, uint32_t o) {
    uint64_t best = (uint64_t)x << CELLS | o;
    for (int s = 1; s < 8; s++) {
        uint64_t k = (uint64_t)transform(x, s) << CELLS | transform(o, s);
        if (k < best) best = k;
    }
    return best;
}

/* The score for the side to move (owning `me`; X when `marks` is even) of a position nobody has won. */
static int negamax(uint32_t me, uint32_t them, int marks, int alpha, int beta) {
    nodes++;
    uint32_t empty = FULL & ~(me | them);
    if (!empty) return 0;
    uint32_t mine = 0, theirs = 0;
    int my_live = 0, their_live = 0;
    for (int i = 0; i < nlines; i++) {
        uint32_t line = lines[i], a = me & line, b = them & line;
        if (!b) {
            my_live = 1;
            if (__builtin_popcount(a) == K - 1) mine |= line ^ a;
        }
        if (!a) {
            their_live = 1;
            if (__builtin_popcount(b) == K - 1) theirs |= line ^ b;
        }
    }
    if (mine) return W - (marks + 1);
    if (theirs & (theirs - 1)) return marks + 2 - W;
    int ceiling = my_live ? W - (marks + 3) : 0;
    int floor = their_live ? marks + 4 - W : 0;
    if (ceiling <= floor) return ceiling;
    if (ceiling <= alpha) return ceiling;
    if (floor >= beta) return floor;
    if (ceiling < beta) beta = ceiling;
    if (floor > alpha) alpha = floor;

    uint32_t xs = marks % 2 == 0 ? me : them, os = marks % 2 == 0 ? them : me;
    uint64_t key = canonical(xs, os);
    Entry *e = &table[(key * 0x9E3779B97F4A7C15ull) >> (64 - TT_BITS)];
    int lo = floor, hi = ceiling;
    if (e->key == key + 1) {
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
    }
    int a0 = alpha, b0 = beta;

    int moves[CELLS], n = 0;
    if (theirs) {
        moves[n++] = __builtin_ctz(theirs);
    } else {
        int weight[CELLS];
        for (int i = 0; i < CELLS; i++) {
            int c = order[i];
            if (!(empty >> c & 1)) continue;
            int w = 0;
            for (int j = 0; j < nlines; j++) {
                uint32_t line = lines[j];
                if (!(line >> c & 1)) continue;
                uint32_t a = me & line, b = them & line;
                if (!b) w += 1 << (3 * __builtin_popcount(a));
                if (!a) w += 1 << (3 * __builtin_popcount(b)) >> 1;
            }
            int k = n++;
            while (k > 0 && weight[k - 1] < w) {
                weight[k] = weight[k - 1];
                moves[k] = moves[k - 1];
                k--;
            }
            weight[k] = w;
            moves[k] = c;
        }
    }
    int best = -W - 1;
    for (int i = 0; i < n; i++) {
        int v = -negamax(them, me | 1u << moves[i], marks + 1, -beta, -alpha);
        if (v > best) {
            best = v;
            if (v > alpha) {
                alpha = v;
                if (v >= beta) break;
            }
        }
    }
    if (e->key != key + 1) {
        e->key = key + 1;
        e->lo = (int8_t)floor;
        e->hi = (int8_t)ceiling;
    }
    if (best > a0 && best < b0) {
        e->lo = e->hi = (int8_t)best;
    } else if (best <= a0) {
        if (best < e->hi) e->hi = (int8_t)best;
    } else if (best > e->lo) {
        e->lo = (int8_t)best;
    }
    return best;
}

static int solve(uint32_t x, uint32_t o) {
    int marks = __builtin_popcount(x | o);
    uint32_t me = marks % 2 == 0 ? x : o, them = marks % 2 == 0 ? o : x;
    /* Bisection with null windows: is the score at least t? Most positions are draws, so 0 first. */
    int lo = marks + 1 - W, hi = W - (marks + 1), t = 0;
    while (lo < hi) {
        int v = negamax(me, them, marks, t - 1, t);
        if (v >= t) lo = v;
        else hi = v;
        t = lo + (hi - lo + 1) / 2;
    }
    return lo;
}

int main(void) {
    setup();
    char buf[64];
    while (fgets(buf, sizeof buf, stdin)) {
        uint64_t key = strtoull(buf, NULL, 10);
        uint32_t x = (uint32_t)(key >> CELLS), o = (uint32_t)(key & FULL);
        int v = solve(x, o);
        int code = v > 0 ? W - v : v < 0 ? -(W + v) : 0;
        printf("%d\n", code);
        fflush(stdout);
    }
    fprintf(stderr, "%llu nodes\n", (unsigned long long)nodes);
    return 0;
}
