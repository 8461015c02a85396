/* The side-by-side benchmark's driver for mustitz/virus-war (C, 128-bit
 * boards): scripts/bench-peers compiles this file with that engine's own
 * sources/game.c, from a checkout the caller names, and runs it.
 *
 * It measures what `virus-wars bench` measures, the same way, through the
 * engine's public API (init_state, state_step, state_get_steps), so both
 * engines do the same work:
 *   - uniform random games on classic 10x10 (a1 and j10 entries, three steps
 *     a turn), drawn with the same SplitMix64 and multiply-shift as ours;
 *   - perft of the referee's midgame-0 (classic, 40 steps in), counting the
 *     last ply in bulk (a popcount of the legal cells), as ours does.
 * The lines it prints have the layout of `virus-wars bench`'s.
 *
 * Usage: mustitz-bench SECONDS PERFT_DEPTH
 */

#include "virus-war.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const MIDGAME =
    "a1 b1 c2 j10 j9 j8 d1 d3 e1 i7 j7 h7 b2 f1 d4 h8 g6 i6 c5 d2 c3 h9 g9 "
    "f10 b5 b4 d6 h5 j5 h6 b6 d5 e3 i9 g5 h4 a7 f3 f4 f5";

static uint64_t rng_state = 0x5EED;

static inline uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline int below(int bound)
{
    return (int)(((next_u64() >> 32) * (uint64_t)bound) >> 32);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t perft(const struct state *s, int depth)
{
    const bb_t steps = state_get_steps(s);
    if (depth == 1) {
        return pop_count(steps);
    }
    uint64_t total = 0;
    for (bb_t rest = steps; rest != 0; rest &= rest - 1) {
        struct state next = *s;
        state_step(&next, first_one(rest));
        total += perft(&next, depth - 1);
    }
    return total;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SECONDS PERFT_DEPTH\n", argv[0]);
        return 2;
    }
    const double budget = atof(argv[1]);
    const int depth = atoi(argv[2]);
    if (!(budget > 0) || depth < 1) {
        fprintf(stderr, "SECONDS must be above 0 and PERFT_DEPTH at least 1\n");
        return 2;
    }
    struct geometry *geometry = create_std_geometry(10);
    if (geometry == NULL) {
        perror("create_std_geometry");
        return 1;
    }

    uint64_t games = 0, steps = 0;
    const double start = now();
    double secs;
    for (;;) {
        for (int k = 0; k < 256; ++k) {
            struct state s;
            init_state(&s, geometry);
            for (;;) {
                const bb_t legal = state_get_steps(&s);
                if (legal == 0) {
                    break;
                }
                state_step(&s, nth_one_index(legal, below(pop_count(legal))));
                ++steps;
            }
            ++games;
        }
        secs = now() - start;
        if (secs >= budget) {
            break;
        }
    }
    printf("%-34s %14.0f %14.0f\n", "random games, classic 10x10", games / secs, steps / secs);

    struct state s;
    init_state(&s, geometry);
    for (const char *p = MIDGAME; *p != '\0';) {
        if (*p == ' ') {
            ++p;
            continue;
        }
        const int file = *p++ - 'a';
        const int rank = (int)strtol(p, (char **)&p, 10) - 1;
        if (state_step(&s, rank * 10 + file) != 0) {
            fprintf(stderr, "midgame-0: step %c%d refused\n", 'a' + file, rank + 1);
            return 1;
        }
    }
    const double t = now();
    const uint64_t leaves = perft(&s, depth);
    secs = now() - t;
    char label[64], detail[64];
    snprintf(label, sizeof label, "perft leaves, midgame-0 depth %d", depth);
    snprintf(detail, sizeof detail, "(%llu in %.2fs)", (unsigned long long)leaves, secs);
    printf("%-34s %14.0f %14s\n", label, leaves / secs, detail);
    destroy_geometry(geometry);
    return 0;
}
