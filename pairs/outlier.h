/* Finding the slow node, link, direction or round in a matrix of pair medians (sender x receiver).
 *
 * The matrix is decomposed robustly (Tukey's median polish) on the logarithm of each cell's
 * "goodness" (bandwidth, or the reciprocal of latency) as
 *     overall + sender effect + receiver effect [+ round effect] + residual,
 * so that effects are ratios: a node ten times slower as a sender has a sender effect of
 * log(0.1) whatever the typical value. Rounds measured all at once (shift, sampled) get an effect
 * of their own, so that a whole slow round is one finding, not n slow links.
 *
 * The screen: an effect is a suspect when it is both material (the cells concerned at most
 * 1 - min_effect of what the rest predicts) and significant: beyond FP_NODE_Z (nodes) or
 * FP_LINK_Z (links) standard errors, or for a round the Bonferroni bound that keeps the chance of
 * a false suspect at FP_SCREEN_ALPHA per matrix (at least 3.5), the noise estimated from the residuals
 * (MAD) with the cells' own CIs as floor: never from the effects themselves, which on a small
 * matrix would let the outlier size its own scale. Most of a node's cells must also have their
 * whole CI below the prediction. A suspect is then re-measured alone beside healthy pairs measured
 * alone (fp_retest_decide), which decides it. Below FP_JUDGE_MIN_NODES nodes, or with fewer than
 * FP_JUDGE_MIN_CELLS cells per node and role, a robust fit cannot hold out one bad node: the judge
 * says so (fp_judge_summary_t.decided = 0) instead of finding nothing. No MPI: rank 0 calls it. */
#ifndef FP_OUTLIER_H
#define FP_OUTLIER_H

#include <stddef.h>

/* Smallest z of the screen (Iglewicz and Hoaglin's 3.5), raised by the Bonferroni bound. */
#define FP_OUTLIER_K 3.5
/* Chance of any false suspect of a slow round per clean matrix. */
#define FP_SCREEN_ALPHA 0.05
/* Nodes are few and their re-test cheap: a node whose effect is material is a suspect from 2
 * standard errors (one-sided 2.3 %), so that a noisy sweep (oversubscribed, congested) still puts
 * a 2x node to its re-test, which decides it. */
#define FP_NODE_Z 2.0
/* Links likewise from 2.5 standard errors, at most n / 2 of them (at least 4), the most severe:
 * the noise of a congested sweep would otherwise hide a 10x link; each is re-tested twice. */
#define FP_LINK_Z 2.5
#define FP_LINK_SUSPECTS_MIN 4
/* A row or column median ignores one bad cell only from three cells on: four nodes at least. */
#define FP_JUDGE_MIN_NODES 4
#define FP_JUDGE_MIN_CELLS 3
/* The slowest link the screen must be able to see: noisier matrices are not judged (decided = 0),
 * though what their re-tests confirm still stands. */
#define FP_JUDGE_MAX_RESOLUTION 2.0
/* Default smallest slowdown claimed: a cell at 0.75 x of its healthy peers (--min-effect). */
#define FP_JUDGE_MIN_EFFECT 0.25

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
    double *round;    /* nshifts round effects; all zero without rounds */
    double *resid;    /* nshifts x n, as the cells; NAN where not measured */
} fp_polish_t;

/* y: nshifts x n by shift, NAN = missing; with_rounds: fit a round effect too. Returns 0, or -1
 * when out of memory; free with fp_polish_free. */
int fp_median_polish(const fp_shifts_t *layout, const double *y, int max_iterations, int with_rounds,
                     fp_polish_t *out);
void fp_polish_free(fp_polish_t *p);

typedef enum {
    FP_FIND_SENDER,   /* node a slow when it sends */
    FP_FIND_RECEIVER, /* node a slow when it receives */
    FP_FIND_NODE,     /* node a slow both ways */
    FP_FIND_LINK,      /* a -> b slow, b -> a not */
    FP_FIND_LINK_BOTH, /* a -> b and b -> a slow */
    FP_FIND_ROUND      /* round a (shift b): every pair of it slow at once */
} fp_finding_kind_t;

typedef struct fp_finding {
    fp_finding_kind_t kind;
    int a, b;                /* nodes (b = -1 for node findings) */
    double median, lo, hi;   /* measured: the cell a -> b, or the median over the node's cells */
    double median2, lo2, hi2; /* FP_FIND_LINK_BOTH: the cell b -> a; NAN otherwise */
    double typical;          /* what the rest of the matrix predicts for those cells */
    size_t cells, confirmed; /* cells concerned; of them, CI wholly on the bad side */
    double z;                /* the screen's standardized effect (negative: slow); orders re-tests */
    int round_trip;          /* cells are round trips of unordered pairs: no direction to claim */
    int of_round;            /* a link: 1 + the slow round whose lowest cell it is (its re-test tells
                              * the link from the round's congestion); 0 otherwise */
} fp_finding_t;

typedef struct fp_judge_opts {
    int higher_is_better; /* 1 bandwidth, 0 latency */
    int with_rounds;      /* rounds measured all at once: fit and judge round effects */
    int round_trip;       /* every cell a -> b is also b -> a (isolated latency) */
    double min_effect;    /* 0 < min_effect < 1; 0: FP_JUDGE_MIN_EFFECT */
} fp_judge_opts_t;

/* What a matrix allows the judge to place. */
enum { FP_PLACES_SENDER = 1, FP_PLACES_RECEIVER = 2, FP_PLACES_LINK = 4 };

typedef struct fp_judge_summary {
    int decided;       /* 0: too small (no finding claimed) or too noisy (only what the re-tests
                        * confirm is claimed) to judge; reason says why */
    unsigned places;   /* FP_PLACES_* */
    double sigma;      /* noise of one cell's log, as used */
    double z_node, z_link, z_round; /* the screen's bounds */
    /* Not decided: the factor a link must be slower than, alone against healthy pairs alone, to
     * stand (the slowest link the matrix's noise would make of a healthy one); 1 when the matrix
     * is decided. Where the noise is low but a 2 x link would not show (fp_link_resolution), the
     * noise's factor still: the re-test alone is as good as ever. */
    double link_floor;
    char reason[256];
} fp_judge_summary_t;

/* Screens the cells of a sweep. Writes up to max suspects (nodes in node order, rounds, then links
 * in cell order); *count gets how many there are; summary (may be NULL) what could be judged.
 * Returns 0, -1 out of memory. */
int fp_outliers_find(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                     fp_finding_t *out, size_t max, size_t *count, fp_judge_summary_t *summary);

/* The slowest link this matrix could hide (outlier_resolution.c), measured on the matrix itself
 * with its suspects put back to their typical values: 1 when, slowing any of up to
 * FP_RESOLUTION_PROBES probe cells spread over it (not the suspects') by FP_JUDGE_MAX_RESOLUTION,
 * the screen names that cell a slow link for at least FP_RESOLUTION_POWER of them; else the
 * smallest factor of a ladder up to 10 that does, INFINITY when none. Deterministic. Measured on
 * every matrix of up to FP_RESOLUTION_MAX_CELLS cells, and on larger ones with fewer than
 * FP_RESOLUTION_PER_ROW cells per node (sampled sweeps); else 1: with many cells per node a link's
 * cell barely pulls its nodes' fitted effects, the noise alone tells the resolution, and a screen
 * of a million cells per probe would cost seconds. */
#define FP_RESOLUTION_PROBES 16
#define FP_RESOLUTION_POWER 0.9
#define FP_RESOLUTION_PER_ROW 8
#define FP_RESOLUTION_MAX_CELLS 512
/* Whether the screen names a -> b a slow link in these cells (1), not (0), or -1 out of memory: the
 * screen's own test (outlier_judge.c), handed in so that the probe does not call back into it. */
typedef int (*fp_sees_link_fn)(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                               size_t a, size_t b);
double fp_link_resolution(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                          const fp_finding_t *suspects, size_t nsuspects, fp_sees_link_fn sees);
/* "2.3 x", or "10 x (or none)" for INFINITY. */
void fp_resolution_text(double resolution, char *buf, size_t len);

/* Whether a sweep of these shifts can place slow senders, receivers and links (FP_PLACES_*); with
 * reason (may be NULL) saying what is missing. */
unsigned fp_judge_places(const fp_shifts_t *layout, int round_trip, char *reason, size_t len);

/* The re-test of a suspect: its cells measured alone, each beside a healthy pair measured alone
 * just after it. A pair is slow when the suspect's CI lies wholly on the bad side of the healthy
 * one's and its median is at most 1 - min_effect of the healthy median; fine when its median is
 * above that. The suspect stands when most pairs are slow (all_slow: every pair, measured: one cell
 * re-measured several times has nothing to outvote a run that shared a core for a moment), is
 * cleared when most are fine, and is undecided otherwise. suspect_out and healthy_out get the
 * medians of the medians and bounds. */
typedef enum { FP_RETEST_UNDECIDED, FP_RETEST_STANDS, FP_RETEST_CLEARED } fp_retest_t;
/* Whether a link that stood in its re-test is slower alone than healthy pairs alone by less than
 * floor (fp_judge_summary_t.link_floor): on a machine too noisy to judge the matrix, that is
 * within what its noise makes of a healthy link, and the link is undecided, not standing. */
int fp_retest_within_noise(const fp_cell_t *alone, const fp_cell_t *healthy, int higher_is_better, double floor);
fp_retest_t fp_retest_decide(const fp_cell_t *suspect, const fp_cell_t *healthy, size_t count, int higher_is_better,
                             double min_effect, int all_slow, fp_cell_t *suspect_out, fp_cell_t *healthy_out);
/* A link slow both ways in the sweep, its two directions re-tested in turn (suspect[0]/healthy[0]
 * a -> b, [1] b -> a), each decided as a link (every run slow): *ways = 1 a -> b, 2 b -> a, 3 both
 * stand (then STANDS), 0 neither; CLEARED when both are cleared, else UNDECIDED. The sweep's load
 * slows a slow link's way back too (its acknowledgements queue behind the data): one slow
 * direction is that one-way link, never a clearance of both. *_out: the standing direction's
 * medians (a -> b's unless only b -> a stands). */
fp_retest_t fp_retest_two_ways(const fp_cell_t *const suspect[2], const fp_cell_t *const healthy[2],
                               const size_t count[2], int higher_is_better, double min_effect, int *ways,
                               fp_cell_t *suspect_out, fp_cell_t *healthy_out);
const char *fp_retest_name(fp_retest_t r); /* "undecided", "stands", "cleared" */

/* Upper-tail standard normal quantile: z with P(Z > z) = p, 0 < p < 0.5. */
double fp_normal_upper_quantile(double p);

/* One line, e.g. "slow node h3 as sender: 11.6 MB/s [11.2, 11.9] over 5 cells, typical 118 MB/s (0.10 x)":
 * the median of the cells' medians and of their CI bounds; names NULL: "rank I". */
void fp_finding_format(const fp_finding_t *f, const char *const *names, const char *unit, char *buf,
                       size_t len);
/* Short word for JSON: "sender", "receiver", "node", "link", "link-both", "round". */
const char *fp_finding_kind_name(fp_finding_kind_t kind);

/* Median of the finite values among x[0..n) (reorders x); NAN when none. */
double fp_median_finite(double *x, size_t n);

#endif
