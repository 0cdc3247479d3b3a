/* The soak's step finder on series whose answer is known: exact figures of a clean step, and its
 * false-alarm and detection rates on synthetic soaks (FP_POWER_TABLE=1 prints the table). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "changepoint.h"
#include "check.h"
#include "synthetic.h"

static void test_exact(void)
{
    double scratch[3 * 20];
    fp_step_t s;
    /* 10 cycles at 100, then 10 at 60: the step at index 10, ranks 15.5 and 5.5, K = 100 */
    double x[20];
    for (int i = 0; i < 20; i++)
        x[i] = i < 10 ? 100 : 60;
    fp_step_find(x, 20, 0.05, 0.10, scratch, &s);
    CHECK(s.tested && s.found && s.at == 10);
    CHECK_NEAR(s.p, 2 * exp(-6.0 * 100 * 100 / (8000 + 400)), 1e-15);
    CHECK_NEAR(s.before, 100, 0);
    CHECK_NEAR(s.after, 60, 0);
    CHECK_NEAR(s.change, -0.4, 1e-15);
    /* the same step, 5% only: below min_change, not claimed */
    for (int i = 0; i < 20; i++)
        x[i] = i < 10 ? 100 : 95;
    fp_step_find(x, 20, 0.05, 0.10, scratch, &s);
    CHECK(s.tested && !s.found && s.at == 10 && s.p < 0.05);
    /* 10 cycles: even a clean split cannot reach p < 0.05 (the bound is 0.066) */
    for (int i = 0; i < 10; i++)
        x[i] = i < 5 ? 100 : 60;
    fp_step_find(x, 10, 0.05, 0.01, scratch, &s);
    CHECK(s.tested && !s.found && s.at == 5);
    CHECK_NEAR(s.p, 2 * exp(-6.0 * 25 * 25 / 1100), 1e-15);
    /* Pettitt's argmax alone would say 6 here (a 51 ranks above the middle); the split is at 5 */
    for (int i = 0; i < 20; i++)
        x[i] = i < 5 ? 100 + i % 3 : 50 + i % 2;
    fp_step_find(x, 20, 0.05, 0.10, scratch, &s);
    CHECK(s.found && s.at == 5);
    /* fewer than 6 cycles: not tested */
    fp_step_find(x, 5, 0.05, 0.01, scratch, &s);
    CHECK(!s.tested && !s.found && s.p == 1);
    /* a single outlier at the end is no step (a side needs 3 values) */
    for (int i = 0; i < 20; i++)
        x[i] = 100 + (i % 3);
    x[19] = 10;
    fp_step_find(x, 20, 0.05, 0.10, scratch, &s);
    CHECK(!s.found);
}

/* Share of `trials` soaks of n cycles in which a step is claimed: with a step of `change` at a
 * cycle drawn from the middle half (0: none); *placed counts those within one cycle of it. */
static double rate(size_t n, noise_t kind, double change, int trials, double *placed)
{
    double x[400], scratch[3 * 400];
    int found = 0, near = 0;
    for (int t = 0; t < trials; t++) {
        size_t at = n / 4 + (size_t)(uniform() * (double)(n / 2));
        for (size_t i = 0; i < n; i++)
            x[i] = noisy(i < at || change == 0 ? 100 : 100 * (1 + change), kind);
        fp_step_t s;
        fp_step_find(x, n, 0.05, 0.10, scratch, &s);
        found += s.found;
        near += s.found && (s.at + 1 >= at && s.at <= at + 1);
    }
    *placed = (double)near / trials;
    return (double)found / trials;
}

static void test_power(void)
{
    const size_t sizes[] = {20, 50, 200};
    const char *names[] = {"normal 5%", "bimodal 1.3x", "10% outliers"};
    int table = getenv("FP_POWER_TABLE") != NULL;
    if (table)
        printf("| cycles | noise | false alarms | -20%% step found (placed) | -50%% step found (placed) |\n"
               "|---|---|---|---|---|\n");
    for (int k = 0; k < 3; k++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            double placed20, placed50, ignored;
            double fa = rate(sizes[i], (noise_t)k, 0, 1000, &ignored);
            double d20 = rate(sizes[i], (noise_t)k, -0.2, 500, &placed20);
            double d50 = rate(sizes[i], (noise_t)k, -0.5, 500, &placed50);
            if (table)
                printf("| %zu | %s | %.1f%% | %.1f%% (%.1f%%) | %.1f%% (%.1f%%) |\n", sizes[i], names[k], 100 * fa,
                       100 * d20, 100 * placed20, 100 * d50, 100 * placed50);
            CHECK(fa <= 0.05); /* the false-alarm bound, every noise and length */
            if (sizes[i] >= 50) { /* a halving found and placed within a cycle, whatever the noise */
                CHECK(d50 >= 0.95);
                CHECK(placed50 >= 0.90);
            }
            if (k == NOISE_NORMAL) { /* 5% noise: a 20% step from 20 cycles */
                CHECK(d20 >= 0.95 && placed20 >= 0.95);
                CHECK(d50 >= 0.95 && placed50 >= 0.95);
            }
        }
}

int main(void)
{
    test_exact();
    test_power();
    return CHECK_DONE();
}
