/* Which pairs a sweep measures, round by round (no MPI; unit-tested).
 *
 * Shift rounds (mpiGraph's pattern): in the round of shift k every node i sends to (i + k) mod n
 * and receives from (i - k) mod n, all at once; the n - 1 shifts visit every ordered pair once.
 * Sampled: a few shifts spread over 1..n-1, closed under k -> n - k so that each measured cell's
 * reverse is measured too; every shift round covers every node as sender and receiver.
 * Isolated: one pair at a time, every ordered pair (bandwidth) or every unordered pair (latency,
 * whose round trip crosses both directions). Suspects: the pairs a finding is judged on alone. */
#ifndef FP_PAIRS_SCHEDULE_H
#define FP_PAIRS_SCHEDULE_H

#include <stddef.h>

#include "outlier.h"

typedef enum { FP_PAIRS_SHIFT, FP_PAIRS_ISOLATED, FP_PAIRS_SAMPLED, FP_PAIRS_MODE_COUNT } fp_pairs_mode_t;

/* Shifts a sweep of n nodes measures, into shifts[] (capacity n - 1), ascending; returns how many.
 * rounds: sampled mode's requested number (at least 1; more when the closure adds reverses, and
 * never fewer shifts than FP_JUDGE_MIN_CELLS, the fewest that can place every fault). */
size_t fp_pairs_shifts(fp_pairs_mode_t mode, size_t n, size_t rounds, size_t *shifts);

/* Isolated steps: how many, and the pair (sender a, receiver b) of step s. */
size_t fp_pairs_isolated_steps(size_t n, int unordered);
void fp_pairs_isolated_pair(size_t n, int unordered, size_t s, size_t *a, size_t *b);

/* The cells behind a finding, to measure again alone: the link's cell (both of a two-way link),
 * or up to per_node of the node's cells in each direction it is slow in, from the measured shifts
 * of layout. At most max pairs into pairs (sender, receiver); returns how many. */
size_t fp_pairs_suspects(const fp_shifts_t *layout, const fp_finding_t *f, size_t per_node, int *pairs, size_t max);

#endif
