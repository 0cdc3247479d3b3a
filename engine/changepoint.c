/* Pettitt's test for one change point in a soak's series (changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ranks[i]: the rank of x[i] among x (1-based, ties their mean rank); sorted: scratch of n. */
static void rank_values(const double *x, size_t n, double *sorted, double *ranks)
{
    memcpy(sorted, x, n * sizeof *x);
    qsort(sorted, n, sizeof *sorted, by_value);
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = n; /* first index >= x[i], first > x[i] */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (sorted[mid] < x[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t first = lo;
        hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (sorted[mid] <= x[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        ranks[i] = ((double)first + 1 + (double)lo) / 2; /* mean of ranks first+1 .. lo */
    }
}

/* Sum of absolute deviations of v[0..n-1] from their median (v reordered). */
static double spread_of(double *v, size_t n)
{
    double m = median_of(v, n), sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += fabs(v[i] - m);
    return sum;
}

/* Where the step lies: Pettitt's K says whether there is one, but its argmax drifts by a cycle or
 * two toward a side when values near the middle rank sit next to the step; the split within
 * FP_STEP_REFINE of it that leaves the least absolute deviation from each side's median is the
 * step. */
#define FP_STEP_REFINE 5
static size_t refine(const double *x, size_t n, size_t at, double *side)
{
    double best = INFINITY;
    size_t from = at > FP_STEP_MIN_SIDE + FP_STEP_REFINE ? at - FP_STEP_REFINE : FP_STEP_MIN_SIDE;
    for (size_t k = from, start = at; k <= start + FP_STEP_REFINE && k + FP_STEP_MIN_SIDE <= n; k++) {
        memcpy(side, x, n * sizeof *x);
        double cost = spread_of(side, k) + spread_of(side + k, n - k);
        if (cost < best) {
            best = cost;
            at = k;
        }
    }
    return at;
}

void fp_step_find(const double *x, size_t n, double alpha, double min_change, double *scratch, fp_step_t *out)
{
    memset(out, 0, sizeof *out);
    out->p = 1;
    out->before = out->after = out->change = NAN;
    if (n < FP_STEP_MIN_CYCLES)
        return;
    out->tested = 1;
    double *sorted = scratch, *ranks = scratch + n;
    rank_values(x, n, sorted, ranks);
    double sum = 0, best = -1;
    for (size_t k = 1; k < n; k++) {
        sum += ranks[k - 1];
        double u = fabs(2 * sum - (double)k * ((double)n + 1));
        /* a step with fewer than FP_STEP_MIN_SIDE values on a side cannot be told from an outlier */
        if (k >= FP_STEP_MIN_SIDE && n - k >= FP_STEP_MIN_SIDE && u > best) {
            best = u;
            out->at = k;
        }
    }
    double nn = (double)n;
    out->p = fmin(1.0, 2 * exp(-6 * best * best / (nn * nn * nn + nn * nn)));
    double *side = scratch + 2 * n;
    out->at = refine(x, n, out->at, scratch);
    memcpy(side, x, out->at * sizeof *x);
    out->before = median_of(side, out->at);
    memcpy(side, x + out->at, (n - out->at) * sizeof *x);
    out->after = median_of(side, n - out->at);
    out->change = out->before != 0 ? out->after / out->before - 1 : NAN;
    out->found = out->p < alpha && isfinite(out->change) && fabs(out->change) >= min_change;
}
