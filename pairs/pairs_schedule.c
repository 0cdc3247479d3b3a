#include "pairs_schedule.h"


/* Sampled: shifts near j n / (rounds + 1), j = 1..rounds, each with its reverse n - k, ascending.
 * A shift is in the set when some j lands on it or on its reverse. */
static size_t sampled_shifts(size_t n, size_t rounds, size_t *shifts)
{
    size_t count = 0;
    for (size_t k = 1; k < n; k++) {
        int in = 0;
        for (size_t j = 1; j <= rounds && !in; j++) {
            size_t pick = (j * n + (rounds + 1) / 2) / (rounds + 1);
            in = pick >= 1 && pick < n && (pick == k || n - pick == k);
        }
        if (in)
            shifts[count++] = k;
    }
    return count;
}

size_t fp_pairs_shifts(fp_pairs_mode_t mode, size_t n, size_t rounds, size_t *shifts)
{
    if (n < 2)
        return 0;
    if (mode == FP_PAIRS_SAMPLED && rounds < n - 1) {
        /* At least FP_JUDGE_MIN_CELLS shifts: with fewer cells per node the judge cannot place a
         * slow receiver or link (outlier.h). */
        size_t count = 0, want = n - 1 < FP_JUDGE_MIN_CELLS ? n - 1 : FP_JUDGE_MIN_CELLS;
        for (size_t r = rounds ? rounds : 1; count < want && r < n; r++)
            count = sampled_shifts(n, r, shifts);
        return count;
    }
    for (size_t k = 1; k < n; k++)
        shifts[k - 1] = k;
    return n - 1;
}

size_t fp_pairs_isolated_steps(size_t n, int unordered)
{
    return unordered ? n * (n - 1) / 2 : n * (n - 1);
}

void fp_pairs_isolated_pair(size_t n, int unordered, size_t s, size_t *a, size_t *b)
{
    if (!unordered) {
        *a = s / (n - 1);
        size_t j = s % (n - 1);
        *b = j < *a ? j : j + 1;
        return;
    }
    size_t i = 0, row = n - 1;
    while (s >= row) { /* row i holds the pairs (i, i+1..n-1) */
        s -= row;
        i++;
        row--;
    }
    *a = i;
    *b = i + 1 + s;
}

size_t fp_pairs_suspects(const fp_shifts_t *layout, const fp_finding_t *f, size_t per_node, int *pairs, size_t max)
{
    size_t count = 0, n = layout->n;
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) {
        if (count < max)
            pairs[count * 2] = f->a, pairs[count * 2 + 1] = f->b, count++;
        if (f->kind == FP_FIND_LINK_BOTH && count < max)
            pairs[count * 2] = f->b, pairs[count * 2 + 1] = f->a, count++;
        return count;
    }
    size_t as_sender = f->kind != FP_FIND_RECEIVER, as_receiver = f->kind != FP_FIND_SENDER;
    for (size_t r = 0; r < layout->nshifts && count + as_sender + as_receiver <= max; r++) {
        size_t k = layout->shift[r];
        if (count >= per_node * (as_sender + as_receiver))
            break;
        if (as_sender)
            pairs[count * 2] = f->a, pairs[count * 2 + 1] = (int)(((size_t)f->a + k) % n), count++;
        if (as_receiver)
            pairs[count * 2] = (int)(((size_t)f->a + n - k) % n), pairs[count * 2 + 1] = f->a, count++;
    }
    return count;
}
