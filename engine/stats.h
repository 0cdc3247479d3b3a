/* Order statistics of one size's samples. */
#ifndef FP_STATS_H
#define FP_STATS_H

#include <stddef.h>

typedef struct fp_stats {
    size_t n;
    double min, max, mean, stddev;
    double p50, p50_lo, p50_hi; /* median and its 95% confidence interval */
    double p99;                 /* NAN when n < 100 */
    int has_ci;                 /* 0 when n < 6: no 95% interval exists, lo/hi = min/max */
    double ci_halfwidth_pct;    /* (hi - lo) / 2 / median x 100; NAN when the median is 0 */
} fp_stats_t;

/* Sorts samples in place and fills out. n must be >= 1. */
void fp_stats_compute(double *samples, size_t n, fp_stats_t *out);

/* Widens the median's interval by the clock's resolution on each side (in the samples' unit):
 * each sample is a difference of two readings, each off by up to one step of the clock, so an
 * interval narrower than that claims more than the clock can tell. */
void fp_stats_resolve(fp_stats_t *s, double resolution);

/* With batch > 1 a sample is the mean of `batch` operations: its median and interval estimate
 * the operations' median well enough, but min, max, p99 and stddev of batch means are not the
 * operations' (they shrink with the batch): set to NAN, reported as not measured. */
void fp_stats_batch_means(fp_stats_t *s, long batch);

/* 1-based ranks (l, u) of the order statistics bounding the median with >= 95% coverage
 * (binomial method); returns 0 when n is too small for one. */
int fp_median_ci_ranks(size_t n, size_t *lower, size_t *upper);

#endif
