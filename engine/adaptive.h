/* The adaptive stopping rule, apart from MPI and timers so that a simulation can check its
 * coverage (tests/unit/test_adaptive.c).
 *
 * Stopping at the first checkpoint whose interval is narrow enough picks, among the intervals
 * the samples could give, the ones that happen to be narrow, and those miss the median more
 * often than 5 % (94 % coverage in simulation). So the rule has two phases: a pilot decides how
 * many samples the target needs (both sides of the 95 % interval within the target); then that
 * many again and half as many more are taken afresh, and only those are reported. The reported
 * interval comes from samples that had no say in when to stop: its coverage is the fixed-count
 * one (>= 95 %). */
#ifndef FP_ADAPTIVE_H
#define FP_ADAPTIVE_H

#include <stddef.h>

#include "stats.h"

#define FP_ADAPTIVE_FIRST_CHECK 32
/* Share of the time budget the pilot may spend: the fresh phase takes 1.5x the pilot's samples,
 * so that pilot + fresh stay within the budget at a steady rate. */
#define FP_ADAPTIVE_PILOT_SHARE 0.4

typedef struct fp_adaptive {
    double target_pct, budget_s;
    size_t capacity;
    int fresh;         /* 0: pilot; 1: fresh samples, the ones reported */
    size_t fresh_goal; /* samples of the fresh phase */
    int met;           /* after FP_ADAPT_STOP: the reported interval meets the target */
    int undecided;     /* set by the caller: an --expect term is still undecided, the pilot goes on */
} fp_adaptive_t;

enum { FP_ADAPT_MORE, FP_ADAPT_RESTART, FP_ADAPT_STOP };

void fp_adaptive_init(fp_adaptive_t *a, double target_pct, double budget_s, size_t capacity);

/* Both sides of the median's interval within target_pct of a positive median. */
int fp_adaptive_target_met(const fp_stats_t *s, double target_pct);

/* At a checkpoint: n samples of the current phase with statistics s, elapsed seconds since the
 * size began. FP_ADAPT_MORE: sample on to *next; FP_ADAPT_RESTART: drop the samples and take
 * *next fresh ones; FP_ADAPT_STOP: report the current phase's samples (a->met says whether they
 * meet the target). */
int fp_adaptive_check(fp_adaptive_t *a, const fp_stats_t *s, size_t n, double elapsed, size_t *next);

/* The first checkpoint. */
size_t fp_adaptive_first(const fp_adaptive_t *a);

#endif
