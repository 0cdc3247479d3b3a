/* Finding a slow uplink in a sweep's matrix, from the topology (--topology): the uplink of switch X
 * carries every cell from a node under X to a node outside it ("up") and back ("down"). A slow
 * uplink makes those cells slow together while the cells inside X, and the cells that never cross
 * it, keep their speed; a slow node makes only its own cells slow, inside its switch too.
 *
 * The screen, per uplink and direction (both at once for round trips): the median of the log
 * goodness of its crossing cells against the median of the cells that do not cross it either way.
 * A suspect is material (at most 1 - min_effect of the rest), significant (beyond a Bonferroni
 * bound keeping the chance of any false suspect at FP_SCREEN_ALPHA per matrix, at least
 * FP_OUTLIER_K, with the cells' noise measured within the blocks of switch pairs, never across
 * them), and spread: three quarters of its cells have their whole CI below the rest's median, from
 * two senders and two receivers at least, which one slow node cannot make. Suspects are taken most
 * severe first, each one's cells then corrected (fp_uplink_correct) before the others are judged
 * again, so that a spine's slow uplink is not also its leaves'. An uplink needs two
 * ranks under its switch and two outside it to be judged. Two uplinks that carry the same cells
 * (the two ends of one path between two switches) are one suspect naming both. No MPI. */
#ifndef FP_UPLINK_H
#define FP_UPLINK_H

#include <stddef.h>

#include "outlier.h"

enum { FP_UPLINK_UP, FP_UPLINK_DOWN, FP_UPLINK_BOTH };

typedef struct fp_uplink_finding {
    int sw, dir;           /* switch whose uplink, FP_UPLINK_* */
    int alt_sw, alt_dir;   /* the other uplink that carries exactly these cells, alt_sw -1 if none */
    double median, lo, hi; /* medians over the crossing cells */
    double typical;        /* median of the cells that do not cross it */
    size_t cells, confirmed;
    double z;
    size_t flows; /* the most crossing cells of one round: flows the sweep put on it at once */
} fp_uplink_finding_t;

/* The topology as the judge needs it: the switch of every rank and each switch's parent. */
typedef struct fp_uplink_tree {
    const int *switch_of; /* n ranks */
    const int *parent;    /* nsw switches, -1 at the top */
    size_t nsw;
} fp_uplink_tree_t;

typedef struct fp_uplink_summary {
    size_t judged;    /* uplinks (either direction) with enough cells to judge */
    size_t unjudged;  /* uplinks of the job's switches with too few ranks or cells */
    double sigma, z;  /* noise of one cell's log within switch pairs; the screen's bound */
} fp_uplink_summary_t;

/* Whether rank r is under switch x (its switch or an ancestor of it is x). */
int fp_uplink_under(const fp_uplink_tree_t *t, int r, int x);
/* Whether the cell a -> b crosses finding f's uplink(s). */
int fp_uplink_crosses(const fp_uplink_tree_t *t, const fp_uplink_finding_t *f, int a, int b);

/* Screens the matrix; up to max suspects in out, most severe first; *count how many. 0, or -1 out of
 * memory. summary may be NULL. */
int fp_uplinks_find(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                    const fp_uplink_tree_t *tree, fp_uplink_finding_t *out, size_t max, size_t *count,
                    fp_uplink_summary_t *summary);

/* The cells the suspects' uplinks carry brought to the level of the rest (times typical / median),
 * in place: the node screen then judges each node on all its cells with what the uplinks explain
 * taken out, so that the ranks of a switch behind a slow uplink are not named slow nodes, and a
 * slow node inside it still is. */
void fp_uplink_correct(const fp_shifts_t *layout, fp_cell_t *cells, const fp_uplink_tree_t *tree,
                       const fp_uplink_finding_t *found, size_t count);

/* "up", "down", "both" */
const char *fp_uplink_dir_name(int dir);

#endif
