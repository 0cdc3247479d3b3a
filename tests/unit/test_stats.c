/* Statistics against hand-computed vectors. */
#include <math.h>

#include "check.h"
#include "core.h"
#include "stats.h"

static void test_small_vector(void)
{
    /* 5 samples: no 95% interval of the median exists (P(B = 0) = 1/32 > 0.025). */
    double x[] = {5, 1, 4, 2, 3};
    fp_stats_t s;
    fp_stats_compute(x, 5, &s);
    CHECK(s.n == 5);
    CHECK_NEAR(s.min, 1, 0);
    CHECK_NEAR(s.max, 5, 0);
    CHECK_NEAR(s.p50, 3, 0);
    CHECK_NEAR(s.mean, 3, 1e-12);
    CHECK_NEAR(s.stddev, sqrt(2.5), 1e-12); /* sum of squares 10 over n - 1 = 4 */
    CHECK(!s.has_ci);
    CHECK_NEAR(s.p50_lo, 1, 0);
    CHECK_NEAR(s.p50_hi, 5, 0);
    CHECK(isnan(s.p99));
}

static void test_even_median_and_ci(void)
{
    /* 10 samples 10..100: median (50 + 60) / 2; CI ranks (2, 9) from the binomial table. */
    double x[10];
    for (int i = 0; i < 10; i++)
        x[i] = 100 - 10 * i;
    fp_stats_t s;
    fp_stats_compute(x, 10, &s);
    CHECK_NEAR(s.p50, 55, 0);
    CHECK(s.has_ci);
    CHECK_NEAR(s.p50_lo, 20, 0);
    CHECK_NEAR(s.p50_hi, 90, 0);
    CHECK_NEAR(s.ci_halfwidth_pct, (90 - 20) / 2.0 / 55 * 100, 1e-9);
}

static void test_ci_ranks(void)
{
    size_t l, u;
    CHECK(!fp_median_ci_ranks(5, &l, &u));
    CHECK(fp_median_ci_ranks(6, &l, &u) && l == 1 && u == 6);
    CHECK(fp_median_ci_ranks(10, &l, &u) && l == 2 && u == 9);
    CHECK(fp_median_ci_ranks(20, &l, &u) && l == 6 && u == 15);
    CHECK(fp_median_ci_ranks(100, &l, &u) && l == 40 && u == 61);
    /* Beyond the exact limit the normal approximation: floor(n/2 - 0.98 sqrt(n)). */
    CHECK(fp_median_ci_ranks(40000, &l, &u) && l == 19804 && u == 40000 - 19804 + 1);
}

static void test_p99(void)
{
    double x[200];
    for (int i = 0; i < 200; i++)
        x[i] = i + 1; /* 1..200: nearest rank ceil(0.99 * 200) = 198 */
    fp_stats_t s;
    fp_stats_compute(x, 200, &s);
    CHECK_NEAR(s.p99, 198, 0);
    CHECK_NEAR(s.p50, 100.5, 0);
    double y[100];
    for (int i = 0; i < 100; i++)
        y[i] = i + 1;
    fp_stats_compute(y, 100, &s);
    CHECK_NEAR(s.p99, 99, 0);
    CHECK_NEAR(s.p50_lo, 40, 0);
    CHECK_NEAR(s.p50_hi, 61, 0);
}

static void test_single_sample(void)
{
    double x[] = {7.5};
    fp_stats_t s;
    fp_stats_compute(x, 1, &s);
    CHECK_NEAR(s.stddev, 0, 0);
    CHECK_NEAR(s.p50, 7.5, 0);
}

static void test_batch_rule(void)
{
    /* 100 x 50 ns = 5 us: a 0.3 us operation needs 32 per sample (17 rounded up to a power of
     * two), a 2 us one 4, a 5 us one 1. */
    CHECK(fp_batch_for(0.3e-6, 50e-9, 1e-9) == 32);
    CHECK(fp_batch_for(2e-6, 50e-9, 1e-9) == 4);
    CHECK(fp_batch_for(5e-6, 50e-9, 1e-9) == 1);
    CHECK(fp_batch_for(0.0, 50e-9, 1e-9) == 1024); /* capped */
    /* A clock of 1 us steps: a sample must last 100 us, so a 0.3 us operation needs 512 and a
     * 5 us one 32, whatever the timer's cost. */
    CHECK(fp_batch_for(0.3e-6, 50e-9, 1e-6) == 512);
    CHECK(fp_batch_for(5e-6, 50e-9, 1e-6) == 32);
    /* Hysteresis near the boundary only (5 us resolved): 3 us x 1 < 10 us keeps 2; 6 us x 1 and
     * 100 us x 1 step down to 1, so a batch of 2 is not kept by every larger size; a drop of more
     * than half, or a step up, is never held back. */
    CHECK(fp_batch_keeps_previous(1, 2, 3e-6, 5e-6));
    CHECK(!fp_batch_keeps_previous(1, 2, 12e-6, 5e-6));
    CHECK(!fp_batch_keeps_previous(1, 2, 100e-6, 5e-6));
    CHECK(fp_batch_keeps_previous(4, 8, 2e-6, 5e-6));
    CHECK(!fp_batch_keeps_previous(2, 8, 1e-6, 5e-6));
    CHECK(!fp_batch_keeps_previous(2, 1, 1e-6, 5e-6));
}

static void test_unresolved(void)
{
    /* Every sample on one tick of 0: no width relative to a median of 0, never "0 %". */
    double zeros[50] = {0};
    fp_stats_t s;
    fp_stats_compute(zeros, 50, &s);
    CHECK(isnan(s.ci_halfwidth_pct));
    /* Samples that all read 3 ticks: the interval is widened by a tick on each side. */
    double ticks[50];
    for (int i = 0; i < 50; i++)
        ticks[i] = 3e-6;
    fp_stats_compute(ticks, 50, &s);
    CHECK_NEAR(s.ci_halfwidth_pct, 0, 0);
    fp_stats_resolve(&s, 1e-6);
    CHECK_NEAR(s.p50_lo, 2e-6, 1e-15);
    CHECK_NEAR(s.p50_hi, 4e-6, 1e-15);
    CHECK_NEAR(s.ci_halfwidth_pct, 100.0 / 3, 1e-9);
    /* Batch means: the tails are not the operations', and are not reported. */
    fp_stats_batch_means(&s, 8);
    CHECK(isnan(s.min) && isnan(s.max) && isnan(s.p99) && isnan(s.stddev));
    CHECK_NEAR(s.p50, 3e-6, 0);
}

int main(void)
{
    test_small_vector();
    test_even_median_and_ci();
    test_ci_ranks();
    test_p99();
    test_unresolved();
    test_single_sample();
    test_batch_rule();
    return CHECK_DONE();
}
