/* The adaptive stopping rule (engine/adaptive.c), run on simulated samples with the real interval
 * code: the reported 95% interval of the median must cover the true median in >= 95% of runs.
 * The first-checkpoint rule that this replaced is simulated alongside: it covered less (its
 * figure is printed), which is why the rule reports samples taken after the decision. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "adaptive.h"
#include "check.h"

#define RUNS 4000
#define CAPACITY 20000

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static double uniform01(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* A skewed latency: 10 us plus an exponential tail of mean 1 us; median 10 + ln 2. */
static double draw(void)
{
    return 10.0 - log(uniform01());
}

static const double true_median = 10.0 + 0.69314718055994531;

static int covers(double *samples, size_t n, double *scratch, int *met, double target)
{
    fp_stats_t s;
    memcpy(scratch, samples, n * sizeof *scratch);
    fp_stats_compute(scratch, n, &s);
    if (met)
        *met = fp_adaptive_target_met(&s, target);
    return s.p50_lo <= true_median && true_median <= s.p50_hi;
}

/* One size under the rule, as measure.c drives it; elapsed time: 1 ms per sample. */
static int one_run(double *x, double *scratch, double target, double budget, int *met, size_t *used)
{
    fp_adaptive_t a;
    fp_adaptive_init(&a, target, budget, CAPACITY);
    size_t n = 0, next = fp_adaptive_first(&a), total = 0;
    for (;;) {
        for (; n < next; n++, total++)
            x[n] = draw();
        fp_stats_t s;
        memcpy(scratch, x, n * sizeof *scratch);
        fp_stats_compute(scratch, n, &s);
        int d = fp_adaptive_check(&a, &s, n, (double)total * 1e-3, &next);
        if (d == FP_ADAPT_STOP)
            break;
        if (d == FP_ADAPT_RESTART)
            n = 0;
    }
    *met = a.met;
    *used = total;
    return covers(x, n, scratch, NULL, target);
}

/* The replaced rule: stop at the first checkpoint whose half-width is within the target. */
static int one_run_first_checkpoint(double *x, double *scratch, double target)
{
    size_t n = 0, next = FP_ADAPTIVE_FIRST_CHECK;
    for (;;) {
        for (; n < next; n++)
            x[n] = draw();
        fp_stats_t s;
        memcpy(scratch, x, n * sizeof *scratch);
        fp_stats_compute(scratch, n, &s);
        if ((s.has_ci && s.ci_halfwidth_pct <= target) || n >= CAPACITY)
            break;
        next = n + (n / 4 > 16 ? n / 4 : 16);
    }
    return covers(x, n, scratch, NULL, target);
}

static void test_coverage(double target)
{
    double *x = malloc(CAPACITY * sizeof *x), *scratch = malloc(CAPACITY * sizeof *scratch);
    int covered = 0, covered_old = 0, met_runs = 0;
    double samples = 0;
    for (int r = 0; r < RUNS; r++) {
        int met;
        size_t used;
        covered += one_run(x, scratch, target, 1e9, &met, &used);
        met_runs += met;
        samples += (double)used;
    }
    for (int r = 0; r < RUNS; r++)
        covered_old += one_run_first_checkpoint(x, scratch, target);
    double coverage = (double)covered / RUNS, old = (double)covered_old / RUNS;
    printf("target %.1f%%: coverage %.2f%% (first-checkpoint rule %.2f%%), target met in %.1f%% of runs, "
           "%.0f samples per run\n", target, 100 * coverage, 100 * old, 100.0 * met_runs / RUNS, samples / RUNS);
    CHECK(coverage >= 0.95);
    CHECK(met_runs >= RUNS * 0.75); /* the fresh samples mostly meet the target too */
    free(x);
    free(scratch);
}

/* Both sides are judged: an interval whose upper side is beyond the target is not met, even
 * when its half-width is within it. */
static void test_both_sides(void)
{
    fp_stats_t s = {.n = 100, .has_ci = 1, .p50 = 100, .p50_lo = 99.9, .p50_hi = 101.5};
    s.ci_halfwidth_pct = (s.p50_hi - s.p50_lo) / 2 / s.p50 * 100;
    CHECK(s.ci_halfwidth_pct <= 1.0);
    CHECK(!fp_adaptive_target_met(&s, 1.0));
    s.p50_hi = 100.9;
    CHECK(fp_adaptive_target_met(&s, 1.0));
    s.p50 = 0; /* unresolved: never met */
    CHECK(!fp_adaptive_target_met(&s, 1.0));
}

/* The pilot goes on while one side of the interval is beyond the target, whichever side, and
 * hands over to the fresh samples once both are within it. Binary-exact edges: 1 % of 256 is
 * 2.56, so sides of 2 (0.78125 %) and 4 (1.5625 %). */
static void test_one_side_goes_on(void)
{
    fp_stats_t upper = {.n = 64, .has_ci = 1, .p50 = 256, .p50_lo = 254, .p50_hi = 260};
    fp_stats_t lower = {.n = 64, .has_ci = 1, .p50 = 256, .p50_lo = 252, .p50_hi = 258};
    fp_stats_t both = {.n = 64, .has_ci = 1, .p50 = 256, .p50_lo = 254, .p50_hi = 258};
    const fp_stats_t *one_side[] = {&upper, &lower};
    for (int i = 0; i < 2; i++) {
        fp_adaptive_t a;
        fp_adaptive_init(&a, 1.0, 1e9, CAPACITY);
        size_t next = 0;
        CHECK(!fp_adaptive_target_met(one_side[i], 1.0));
        CHECK(fp_adaptive_check(&a, one_side[i], 64, 0.0, &next) == FP_ADAPT_MORE);
        CHECK(!a.fresh && next == 80); /* the next checkpoint: 64 + 64 / 4 */
    }
    fp_adaptive_t a;
    fp_adaptive_init(&a, 1.0, 1e9, CAPACITY);
    size_t next = 0;
    CHECK(fp_adaptive_target_met(&both, 1.0));
    CHECK(fp_adaptive_check(&a, &both, 64, 0.0, &next) == FP_ADAPT_RESTART);
    CHECK(a.fresh && a.fresh_goal == 96 && next == FP_ADAPTIVE_FIRST_CHECK);
}

/* A budget that runs out in the pilot stops there, target missed; the pilot may use only its
 * share, so that the fresh samples fit in the rest. */
static void test_budget(void)
{
    fp_adaptive_t a;
    fp_adaptive_init(&a, 0.001, 1.0, CAPACITY);
    fp_stats_t wide = {.n = 100, .has_ci = 1, .p50 = 1, .p50_lo = 0.5, .p50_hi = 1.5};
    size_t next = 0;
    CHECK(fp_adaptive_check(&a, &wide, 100, FP_ADAPTIVE_PILOT_SHARE * 0.99, &next) == FP_ADAPT_MORE);
    CHECK(fp_adaptive_check(&a, &wide, 125, FP_ADAPTIVE_PILOT_SHARE * 1.0, &next) == FP_ADAPT_STOP);
    CHECK(!a.met);
}

int main(void)
{
    test_both_sides();
    test_one_side_goes_on();
    test_budget();
    test_coverage(1.0);
    test_coverage(2.0);
    return check_failures ? 1 : 0;
}
