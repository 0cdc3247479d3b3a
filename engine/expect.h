/* Expectations (--expect) and their verdicts: per-size thresholds on a measured quantity, judged
 * on its median's confidence interval. Pure: no MPI, no I/O; every family (and any tool) can judge
 * one cell with fp_expect_judge.
 *
 * Grammar (several terms comma-separated, or the option repeated):
 *   TERM  = QTY OP NUMBER [@SIZES]  |  PCT%line [@SIZES]  |  PCT%wire [@SIZES]  |  uniform [@SIZES]
 *   QTY   = bw | busbw (the program's rate: MB/s point-to-point, busbw GB/s collectives) | lat (us)
 *   OP    = >= after bw and busbw, <= after lat (towards the bad side; the rest is refused)
 *   NUMBER, PCT = decimal: digits, an optional point and exponent (11000, 1.5, 1e9)
 *   SIZES = S | S: | :S | S:S   (bytes, suffixes K M G T; ranges inclusive)
 *   PCT%line: rate >= PCT % of the line rate.
 *   PCT%wire: what the NICs carried (the wire rate, evidence.h) >= PCT % of their line rate; judged
 *   by fp_expect_judge_wire on every program, never by fp_expect_judge.
 *   uniform: no slow node, link or direction stands in a pair matrix; judged by the all-pairs
 *   sweeps (pairs.h), never by fp_expect_judge; other programs refuse it (options.c).
 *   baseline=FILE[:TOL]: the bounds of a fabperf-baseline file (expect_baseline.h), one term per
 *   size of this program's entry, relaxed by TOL (a fraction, 0 to below 1); the term takes the
 *   rest of the value up to the next comma. */
#ifndef FP_EXPECT_H
#define FP_EXPECT_H

#include <stddef.h>

#include "units.h" /* fp_bitrate_parse: the line rate of %line terms */

#define FP_EXPECT_MAX 16 /* at most the bits of an unsigned (fp_expect_applies) */

typedef enum { FP_QTY_LATENCY, FP_QTY_RATE } fp_quantity_t;

/* Ordered by severity: the verdict of several terms is the worst one. */
typedef enum { FP_VERDICT_NONE, FP_VERDICT_PASS, FP_VERDICT_INCONCLUSIVE, FP_VERDICT_FAIL } fp_verdict_t;

typedef struct {
    fp_quantity_t quantity;
    int at_least;    /* 1: good when >= value; 0: good when <= value */
    int of_line;     /* value is a fraction of the line rate */
    int uniform;     /* "uniform": no value, no quantity; the sweep's findings decide */
    int on_wire;     /* PCT%wire: of_line, judged on the wire rate (fp_expect_judge_wire) */
    double value;    /* in the quantity's unit, or the fraction (0.9) */
    size_t min_size, max_size; /* inclusive */
    char text[64];   /* the term as given */
} fp_expect_term_t;

typedef struct fp_expect {
    fp_expect_term_t terms[FP_EXPECT_MAX];
    int count;
    /* baseline=FILE[:TOL] as given (path empty: none), then the terms its entry gives, set once the
     * run knows its program and placement (fp_expect_baseline_load), and what the header says. */
    char baseline_path[1024];
    double baseline_tolerance;
    fp_expect_term_t *from_baseline;
    int nfrom_baseline;
    char baseline_note[1536];
} fp_expect_t;

/* Adds the terms of one --expect value. FP_OK, or FP_ERR with one line in err naming the option
 * and the accepted grammar. */
int fp_expect_parse(fp_expect_t *e, const char *text, char *err, size_t errlen);
extern const char fp_expect_grammar[];

typedef struct {
    fp_verdict_t verdict;
    double threshold;  /* of the deciding term, in the quantity's unit; NaN when unknown */
    char expect[160];  /* the applicable terms, each with its threshold in the unit */
    char reason[192];   /* why inconclusive when it is not about the CI ("line rate unknown") */
} fp_judgement_t;

/* Judges one size: the median p50 and its 95% CI [lo, hi] of `quantity`, in its unit; line_rate
 * in the same unit (0: unknown). Pass when the whole CI is on the good side of every applicable
 * threshold (a bound equal to the threshold is on the good side), fail when the whole CI of one
 * is on the bad side, inconclusive otherwise (also: no CI, or a %line term without a line rate);
 * none when no term applies to this size and quantity. out may be NULL. */
fp_verdict_t fp_expect_judge(const fp_expect_t *e, size_t bytes, fp_quantity_t quantity, double lo, double p50,
                             double hi, double line_rate, fp_judgement_t *out);

/* The same for the PCT%wire terms only: lo, p50, hi the wire rate and its interval, line_rate
 * the NICs' in the same unit. */
fp_verdict_t fp_expect_judge_wire(const fp_expect_t *e, size_t bytes, double lo, double p50, double hi,
                                  double line_rate, fp_judgement_t *out);

const char *fp_verdict_name(fp_verdict_t v); /* "pass", "fail", "inconclusive", "none" */

/* Bit i set when term i's @SIZES hold `bytes`: a run refuses a term that holds none of its sizes. */
unsigned fp_expect_applies(const fp_expect_t *e, size_t bytes);

/* Whether a baseline's term judges `bytes`: a run refuses a baseline that judges none of its sizes. */
int fp_expect_baseline_applies(const fp_expect_t *e, size_t bytes);

/* Whether any term judges sizes (given terms or a baseline). */
int fp_expect_any(const fp_expect_t *e);

void fp_expect_release(fp_expect_t *e);

/* The first "uniform" term that applies to this size; NULL when none. */
const fp_expect_term_t *fp_expect_uniform(const fp_expect_t *e, size_t bytes);

#endif
