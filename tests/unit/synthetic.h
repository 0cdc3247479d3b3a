/* Synthetic series for the step tests (test_changepoint.c, test_soak.c): a seeded xorshift
 * generator, normal deviates, and the three kinds of noise the power tables are measured under.
 * Each test sets synthetic_rng to its own seed, so that its table is the same on every run. */
#ifndef FP_TEST_SYNTHETIC_H
#define FP_TEST_SYNTHETIC_H

#include <math.h>
#include <stdint.h>

static uint64_t synthetic_rng = 88172645463325252ULL;

static inline double uniform(void)
{
    synthetic_rng ^= synthetic_rng << 13;
    synthetic_rng ^= synthetic_rng >> 7;
    synthetic_rng ^= synthetic_rng << 17;
    return ((double)(synthetic_rng >> 11) + 0.5) / 9007199254740992.0;
}

static inline double normal(void)
{
    return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

typedef enum { NOISE_NORMAL, NOISE_BIMODAL, NOISE_OUTLIERS } noise_t;

/* level with 5% normal noise; in one of two modes 1.3x apart; or at half speed 10% of the time. */
static inline double noisy(double level, noise_t kind)
{
    switch (kind) {
    case NOISE_NORMAL: return level * (1 + 0.05 * normal());
    case NOISE_BIMODAL: return level * (uniform() < 0.5 ? 1.0 : 1.3) * (1 + 0.02 * normal());
    case NOISE_OUTLIERS: return level * (uniform() < 0.1 ? 0.5 : 1 + 0.03 * normal());
    }
    return level;
}

#endif
