#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Exact binomial tail up to this n; beyond it the normal approximation is within one rank. */
#define FP_EXACT_CI_LIMIT 20000

int fp_median_ci_ranks(size_t n, size_t *lower, size_t *upper)
{
    /* Largest l with P(B <= l - 1) <= 0.025 for B ~ Binomial(n, 1/2). */
    size_t l = 0;
    if (n <= FP_EXACT_CI_LIMIT) {
        double log_term = -(double)n * log(2.0); /* log P(B = 0) */
        double cdf = 0.0;
        for (size_t k = 0; k < n; k++) {
            cdf += exp(log_term);
            if (cdf > 0.025)
                break;
            l = k + 1;
            log_term += log((double)(n - k)) - log((double)(k + 1));
        }
    } else {
        l = (size_t)floor((double)n / 2.0 - 0.98 * sqrt((double)n));
    }
    if (l < 1)
        return 0;
    *lower = l;
    *upper = n - l + 1;
    return 1;
}

/* Relative to a median of 0 no width means anything: NAN, never 0 %. */
static double halfwidth_pct(const fp_stats_t *s)
{
    return s->p50 > 0 ? (s->p50_hi - s->p50_lo) / 2.0 / s->p50 * 100.0 : NAN;
}

void fp_stats_compute(double *x, size_t n, fp_stats_t *s)
{
    qsort(x, n, sizeof *x, compare_doubles);
    s->n = n;
    s->min = x[0];
    s->max = x[n - 1];
    double sum = 0.0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    s->mean = sum / (double)n;
    double squares = 0.0;
    for (size_t i = 0; i < n; i++)
        squares += (x[i] - s->mean) * (x[i] - s->mean);
    s->stddev = n > 1 ? sqrt(squares / (double)(n - 1)) : 0.0;
    s->p50 = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2.0;
    s->p99 = n >= 100 ? x[(99 * n + 99) / 100 - 1] /* nearest rank: ceil(0.99 n) */ : NAN;
    size_t l, u;
    s->has_ci = fp_median_ci_ranks(n, &l, &u);
    s->p50_lo = s->has_ci ? x[l - 1] : s->min;
    s->p50_hi = s->has_ci ? x[u - 1] : s->max;
    s->ci_halfwidth_pct = halfwidth_pct(s);
}

void fp_stats_resolve(fp_stats_t *s, double resolution)
{
    s->p50_lo = s->p50_lo > resolution ? s->p50_lo - resolution : 0.0;
    s->p50_hi += resolution;
    s->ci_halfwidth_pct = halfwidth_pct(s);
}

void fp_stats_batch_means(fp_stats_t *s, long batch)
{
    if (batch <= 1)
        return;
    s->min = s->max = s->p99 = s->stddev = NAN;
}
