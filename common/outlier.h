/* Finding the slow node, link or direction in a matrix of pair medians (sender x receiver).
 *
 * The matrix is decomposed robustly (Tukey's median polish) on the logarithm of each cell's
 * "goodness" (bandwidth, or the reciprocal of latency) as
 *     overall + sender effect + receiver effect + residual,
 * so that effects are ratios: a node ten times slower as a sender has a sender effect of
 * log(0.1) whatever the typical value. An effect is large when it lies beyond FP_OUTLIER_K robust
 * standard deviations (1.4826 x median absolute deviation) of its kind, with the cells' own CIs
 * as the floor of that spread, and when most of the cells concerned have their whole CI below the
 * value the rest of the matrix predicts for them. No MPI: rank 0 calls it on the gathered matrix. */
#ifndef FP_OUTLIER_H
#define FP_OUTLIER_H

#include <stddef.h>

/* Robust z beyond which an effect is an outlier (Iglewicz and Hoaglin's 3.5). */
#define FP_OUTLIER_K 3.5

/* One cell: median of its samples and the median's 95% CI; median NAN: not measured. */
typedef struct fp_cell {
    double median, lo, hi;
} fp_cell_t;

/* Cells are stored by shift, as sweeps measure them: round r holds the cells
 * i -> (i + shifts[r]) mod n of every node i, at index r * n + i. A full sweep has the n - 1 shifts
 * 1..n-1 (each ordered pair once); a sampled one a few, so memory is n x nshifts, never n x n
 * unless every pair is measured. */
typedef struct fp_shifts {
    size_t n, nshifts;
    const size_t *shift; /* nshifts distinct values in 1..n-1 */
} fp_shifts_t;

/* Index of the cell that node i receives in round r (its sender is (i - shift[r]) mod n). */
static inline size_t fp_shifts_recv_index(const fp_shifts_t *s, size_t r, size_t i)
{
    return r * s->n + (i + s->n - s->shift[r]) % s->n;
}

typedef struct fp_polish {
    fp_shifts_t layout;
    double overall;
    double *sender;   /* n row effects */
    double *receiver; /* n column effects */
    double *resid;    /* nshifts x n, as the cells; NAN where not measured */
} fp_polish_t;

/* y: nshifts x n by shift, NAN = missing. Returns 0, or -1 when out of memory; free with
 * fp_polish_free. */
int fp_median_polish(const fp_shifts_t *layout, const double *y, int max_iterations, fp_polish_t *out);
void fp_polish_free(fp_polish_t *p);

typedef enum {
    FP_FIND_SENDER,   /* node a slow when it sends */
    FP_FIND_RECEIVER, /* node a slow when it receives */
    FP_FIND_NODE,     /* node a slow both ways */
    FP_FIND_LINK,     /* a -> b slow, b -> a not */
    FP_FIND_LINK_BOTH /* a -> b and b -> a slow */
} fp_finding_kind_t;

typedef struct fp_finding {
    fp_finding_kind_t kind;
    int a, b;                /* nodes (b = -1 for node findings) */
    double median, lo, hi;   /* measured: the cell a -> b, or the median over the node's cells */
    double median2, lo2, hi2; /* FP_FIND_LINK_BOTH: the cell b -> a; NAN otherwise */
    double typical;          /* what the rest of the matrix predicts for those cells */
    size_t cells, confirmed; /* cells concerned; of them, CI wholly on the bad side */
} fp_finding_t;

/* Judges the cells of a sweep (higher_is_better: 1 bandwidth, 0 latency). Writes up to max
 * findings (the nodes' in node order, then the links' in cell order); *count gets how many there are. Returns 0, -1 out of memory. */
int fp_outliers_find(const fp_shifts_t *layout, const fp_cell_t *cells, int higher_is_better, fp_finding_t *out,
                     size_t max, size_t *count);

/* One line, e.g. "slow node h3 as sender: 11.6 MB/s [11.2, 11.9] over 5 cells, typical 118 MB/s (0.10 x)":
 * the median of the cells' medians and of their CI bounds; names NULL: "rank I". */
void fp_finding_format(const fp_finding_t *f, const char *const *names, const char *unit, char *buf,
                       size_t len);
/* Short word for JSON: "sender", "receiver", "node", "link", "link-both". */
const char *fp_finding_kind_name(fp_finding_kind_t kind);

/* Median of the finite values among x[0..n) (reorders x); NAN when none. */
double fp_median_finite(double *x, size_t n);

#endif
