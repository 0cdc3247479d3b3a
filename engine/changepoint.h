/* One step in a series of a soak's cycles (one size's medians, cycle after cycle): Pettitt's
 * rank test for a single change point. No distribution is assumed: under no change every order of
 * the values is equally likely, and the statistic's tail is bounded by
 *     p <= 2 exp(-6 K^2 / (n^3 + n^2)),  K = max_k |U_k|,  U_k = 2 (r_1 + ... + r_k) - k (n + 1)
 * (ranks r, ties given their mean rank). A step is claimed where p < alpha (the caller divides its
 * false-alarm budget among the sizes) and the medians before and after it differ by at least
 * min_change: a step too small to matter is not one. Pure. */
#ifndef FP_CHANGEPOINT_H
#define FP_CHANGEPOINT_H

#include <stddef.h>

/* Fewest cycles on each side of a step, and in all, for a test to be made. */
#define FP_STEP_MIN_SIDE 3
#define FP_STEP_MIN_CYCLES (2 * FP_STEP_MIN_SIDE)

typedef struct {
    int tested;        /* 0: fewer than FP_STEP_MIN_CYCLES values */
    int found;         /* a step: p < alpha and |change| >= min_change */
    size_t at;         /* the first value after the step (index into the series) */
    double p;          /* Pettitt's bound on the chance of so large a K without a change */
    double before, after; /* medians of the values before and from `at` */
    double change;     /* after / before - 1 */
} fp_step_t;

/* The most likely step in x[0..n-1] and whether it stands; scratch holds 3n doubles. */
void fp_step_find(const double *x, size_t n, double alpha, double min_change, double *scratch, fp_step_t *out);

#endif
