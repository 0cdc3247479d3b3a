#include "outlier.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double fp_median_finite(double *x, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[m++] = x[i];
    if (m == 0)
        return NAN;
    /* Hoare's selection of the (m / 2)-th value: linear time, where sorting cost the uplink screen of
     * 10,000 nodes seconds. After it, x[0..k) <= x[k] <= x[k + 1..m). */
    size_t k = m / 2, lo = 0, hi = m - 1;
    while (lo < hi) {
        double pivot = x[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (x[i] < pivot)
                i++;
            while (x[j] > pivot)
                j--;
            if (i <= j) {
                double t = x[i];
                x[i] = x[j], x[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    if (m % 2)
        return x[k];
    double below = x[0];
    for (size_t i = 1; i < k; i++)
        below = x[i] > below ? x[i] : below;
    return (below + x[k]) / 2.0;
}

void fp_polish_free(fp_polish_t *p)
{
    free(p->sender);
    free(p->receiver);
    free(p->round);
    free(p->resid);
    memset(p, 0, sizeof *p);
}

/* Subtracts from each node's row (senders) or column (receivers) its median residual and adds it to
 * its effect; returns the largest change. */
static double polish_pass(fp_polish_t *p, int receivers, double *scratch)
{
    const fp_shifts_t *s = &p->layout;
    double *effect = receivers ? p->receiver : p->sender, change = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        for (size_t r = 0; r < s->nshifts; r++)
            scratch[r] = p->resid[receivers ? fp_shifts_recv_index(s, r, i) : r * s->n + i];
        double m = fp_median_finite(scratch, s->nshifts);
        if (!isfinite(m))
            continue;
        effect[i] += m;
        for (size_t r = 0; r < s->nshifts; r++)
            p->resid[receivers ? fp_shifts_recv_index(s, r, i) : r * s->n + i] -= m;
        change = fmax(change, fabs(m));
    }
    return change;
}

/* Subtracts from each round its median residual and adds it to the round's effect. */
static double round_pass(fp_polish_t *p, double *scratch)
{
    const fp_shifts_t *s = &p->layout;
    double change = 0.0;
    for (size_t r = 0; r < s->nshifts; r++) {
        memcpy(scratch, &p->resid[r * s->n], s->n * sizeof *scratch);
        double m = fp_median_finite(scratch, s->n);
        if (!isfinite(m))
            continue;
        p->round[r] += m;
        for (size_t i = 0; i < s->n; i++)
            p->resid[r * s->n + i] -= m;
        change = fmax(change, fabs(m));
    }
    return change;
}

/* Moves the median of the count effects into the overall value. */
static void center_effects(fp_polish_t *p, double *effect, size_t count, double *scratch)
{
    memcpy(scratch, effect, count * sizeof *scratch);
    double m = fp_median_finite(scratch, count);
    if (!isfinite(m))
        return;
    for (size_t a = 0; a < count; a++)
        effect[a] -= m;
    p->overall += m;
}

int fp_median_polish(const fp_shifts_t *layout, const double *y, int max_iterations, int with_rounds,
                     fp_polish_t *p)
{
    size_t n = layout->n, cells = layout->n * layout->nshifts;
    memset(p, 0, sizeof *p);
    p->layout = *layout;
    p->sender = calloc(n + 1, sizeof(double));
    p->receiver = calloc(n + 1, sizeof(double));
    p->round = calloc(layout->nshifts + 1, sizeof(double));
    p->resid = malloc((cells + 1) * sizeof(double));
    double *scratch = malloc((n + layout->nshifts + 1) * sizeof(double));
    if (!p->sender || !p->receiver || !p->round || !p->resid || !scratch) {
        free(scratch);
        fp_polish_free(p);
        return -1;
    }
    if (cells)
        memcpy(p->resid, y, cells * sizeof(double));
    for (int it = 0; it < max_iterations; it++) {
        double change = 0.0;
        if (with_rounds) { /* first: a whole slow round would otherwise bend every row's median */
            change = round_pass(p, scratch);
            center_effects(p, p->round, layout->nshifts, scratch);
        }
        change = fmax(change, polish_pass(p, 0, scratch));
        center_effects(p, p->receiver, n, scratch);
        change = fmax(change, polish_pass(p, 1, scratch));
        center_effects(p, p->sender, n, scratch);
        if (change < 1e-9)
            break;
    }
    free(scratch);
    return 0;
}

const char *fp_finding_kind_name(fp_finding_kind_t kind)
{
    static const char *const names[] = {"sender", "receiver", "node", "link", "link-both", "round"};
    return names[kind];
}

static void node_name(const char *const *names, int i, char *buf, size_t len)
{
    if (names && names[i])
        snprintf(buf, len, "%s", names[i]);
    else
        snprintf(buf, len, "rank %d", i);
}

void fp_finding_format(const fp_finding_t *f, const char *const *names, const char *unit, char *buf,
                       size_t len)
{
    static const char *const roles[] = {"as sender", "as receiver", "as sender and receiver"};
    char a[128], b[128];
    double ratio = f->typical > 0 ? f->median / f->typical : NAN;
    if (f->kind == FP_FIND_ROUND) {
        snprintf(buf, len, "slow round %d (shift %d): %.4g %s [%.4g, %.4g] over %zu cells, typical %.4g %s (%.2f x)",
                 f->a + 1, f->b, f->median, unit, f->lo, f->hi, f->cells, f->typical, unit, ratio);
        return;
    }
    node_name(names, f->a, a, sizeof a);
    if (f->round_trip && f->kind == FP_FIND_LINK_BOTH) {
        node_name(names, f->b, b, sizeof b);
        snprintf(buf, len, "slow link %s <-> %s (round trip): %.4g %s [%.4g, %.4g], typical %.4g %s (%.2f x)", a, b,
                 f->median, unit, f->lo, f->hi, f->typical, unit, ratio);
    } else if (f->round_trip) {
        snprintf(buf, len, "slow node %s (round trips): %.4g %s [%.4g, %.4g] over %zu cells, typical %.4g %s (%.2f x)",
                 a, f->median, unit, f->lo, f->hi, f->cells, f->typical, unit, ratio);
    } else if (f->kind == FP_FIND_LINK) {
        node_name(names, f->b, b, sizeof b);
        snprintf(buf, len, "slow link %s -> %s: %.4g %s [%.4g, %.4g], typical %.4g %s (%.2f x)", a, b,
                 f->median, unit, f->lo, f->hi, f->typical, unit, ratio);
    } else if (f->kind == FP_FIND_LINK_BOTH) {
        node_name(names, f->b, b, sizeof b);
        snprintf(buf, len,
                 "slow link %s <-> %s: %.4g %s [%.4g, %.4g] and back %.4g %s [%.4g, %.4g], typical %.4g %s "
                 "(%.2f x)",
                 a, b, f->median, unit, f->lo, f->hi, f->median2, unit, f->lo2, f->hi2, f->typical, unit, ratio);
    } else {
        snprintf(buf, len, "slow node %s %s: %.4g %s [%.4g, %.4g] over %zu cells, typical %.4g %s (%.2f x)", a,
                 roles[f->kind], f->median, unit, f->lo, f->hi, f->cells, f->typical, unit, ratio);
    }
}

const char *fp_retest_name(fp_retest_t r)
{
    static const char *const names[] = {"undecided", "stands", "cleared"};
    return names[r];
}

/* Goodness ratio suspect / healthy of two values: above 1 the suspect is better. */
static double better_ratio(double suspect, double healthy, int higher_is_better)
{
    return higher_is_better ? suspect / healthy : healthy / suspect;
}

fp_retest_t fp_retest_decide(const fp_cell_t *suspect, const fp_cell_t *healthy, size_t count, int higher_is_better,
                             double min_effect, int all_slow, fp_cell_t *suspect_out, fp_cell_t *healthy_out)
{
    size_t slow = 0, fine = 0, m = 0;
    double *v = malloc((6 * count + 6) * sizeof *v);
    if (!v)
        return FP_RETEST_UNDECIDED;
    double *sm = v, *sl = sm + count + 1, *sh = sl + count + 1, *hm = sh + count + 1, *hl = hm + count + 1,
           *hh = hl + count + 1;
    for (size_t i = 0; i < count; i++) {
        const fp_cell_t *s = &suspect[i], *h = &healthy[i];
        if (!(s->median > 0) || !(h->median > 0))
            continue; /* a pair not measured (budget) decides nothing */
        sm[m] = s->median, sl[m] = s->lo, sh[m] = s->hi;
        hm[m] = h->median, hl[m] = h->lo, hh[m++] = h->hi;
        int material = better_ratio(s->median, h->median, higher_is_better) <= 1.0 - min_effect;
        int apart = higher_is_better ? s->hi < h->lo : s->lo > h->hi;
        slow += material && apart;
        fine += !material;
    }
    fp_cell_t none = {NAN, NAN, NAN};
    *suspect_out = *healthy_out = none;
    if (m) {
        *suspect_out = (fp_cell_t){fp_median_finite(sm, m), fp_median_finite(sl, m), fp_median_finite(sh, m)};
        *healthy_out = (fp_cell_t){fp_median_finite(hm, m), fp_median_finite(hl, m), fp_median_finite(hh, m)};
    }
    free(v);
    if (count == 0)
        return FP_RETEST_UNDECIDED;
    if (all_slow ? slow == count : 2 * slow > count)
        return FP_RETEST_STANDS;
    return 2 * fine > count ? FP_RETEST_CLEARED : FP_RETEST_UNDECIDED;
}

fp_retest_t fp_retest_two_ways(const fp_cell_t *const suspect[2], const fp_cell_t *const healthy[2],
                               const size_t count[2], int higher_is_better, double min_effect, int *ways,
                               fp_cell_t *suspect_out, fp_cell_t *healthy_out)
{
    fp_cell_t s[2], h[2];
    fp_retest_t r[2];
    for (int d = 0; d < 2; d++)
        r[d] = fp_retest_decide(suspect[d], healthy[d], count[d], higher_is_better, min_effect, 1, &s[d], &h[d]);
    int back = r[1] == FP_RETEST_STANDS && r[0] != FP_RETEST_STANDS;
    *suspect_out = s[back];
    *healthy_out = h[back];
    *ways = r[0] == FP_RETEST_STANDS ? (r[1] == FP_RETEST_STANDS ? 3 : 1) : r[1] == FP_RETEST_STANDS ? 2 : 0;
    if (*ways)
        return FP_RETEST_STANDS;
    return r[0] == FP_RETEST_CLEARED && r[1] == FP_RETEST_CLEARED ? FP_RETEST_CLEARED : FP_RETEST_UNDECIDED;
}

int fp_retest_within_noise(const fp_cell_t *alone, const fp_cell_t *healthy, int higher_is_better, double floor)
{
    if (!(floor > 1.0) || !(alone->median > 0) || !(healthy->median > 0))
        return 0;
    return 1.0 / better_ratio(alone->median, healthy->median, higher_is_better) < floor;
}

double fp_normal_upper_quantile(double p)
{
    double lo = 0.0, hi = 40.0; /* P(Z > z) = erfc(z / sqrt 2) / 2 falls with z: bisection */
    for (int i = 0; i < 200 && hi - lo > 1e-12; i++) {
        double mid = (lo + hi) / 2;
        if (0.5 * erfc(mid / 1.4142135623730951) > p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}
