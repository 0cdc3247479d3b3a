/* --expect: what a run should give, judged on confidence intervals (no MPI; unit-tested).
 *
 *   LIST  = ITEM[,ITEM...]
 *   ITEM  = bw>=MB/s[@SIZES] | lat<=US[@SIZES] | uniform
 *   SIZES = SIZE | MIN:MAX | MIN:      (suffixes K M G; no @: every size)
 *
 * A threshold passes where the whole 95% CI lies on its good side, fails where the whole CI lies
 * on the bad side, and is inconclusive otherwise. "uniform": no slow node, link or direction. */
#ifndef FP_EXPECT_H
#define FP_EXPECT_H

#include <stddef.h>

#define FP_EXPECT_MAX 16

typedef enum { FP_QTY_BANDWIDTH, FP_QTY_LATENCY } fp_quantity_t;

typedef struct fp_expect_item {
    fp_quantity_t quantity;
    double value;           /* MB/s (at least) or us (at most) */
    size_t min_size, max_size;
    char text[64];          /* as given, for messages */
} fp_expect_item_t;

typedef struct fp_expect {
    size_t count;
    fp_expect_item_t item[FP_EXPECT_MAX];
    int uniform;
} fp_expect_t;

enum { FP_VERDICT_FAIL = -1, FP_VERDICT_INCONCLUSIVE = 0, FP_VERDICT_PASS = 1 };

/* text NULL or empty: nothing expected. FP_ERR (-1) with one line in err on bad input. */
int fp_expect_parse(const char *text, fp_expect_t *e, char *err, size_t errlen);

/* The verdict of item on an interval [lo, hi] of its quantity. */
int fp_expect_verdict(const fp_expect_item_t *item, double lo, double hi);

/* Whether item applies to this quantity and size. */
int fp_expect_applies(const fp_expect_item_t *item, fp_quantity_t quantity, size_t size);

#endif
