#include "outlier.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double fp_median_finite(double *x, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[m++] = x[i];
    if (m == 0)
        return NAN;
    qsort(x, m, sizeof *x, compare_doubles);
    return m % 2 ? x[m / 2] : (x[m / 2 - 1] + x[m / 2]) / 2.0;
}

void fp_polish_free(fp_polish_t *p)
{
    free(p->sender);
    free(p->receiver);
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

/* Moves the median of the effects into the overall value. */
static void center_effects(fp_polish_t *p, double *effect, double *scratch)
{
    memcpy(scratch, effect, p->layout.n * sizeof *scratch);
    double m = fp_median_finite(scratch, p->layout.n);
    if (!isfinite(m))
        return;
    for (size_t a = 0; a < p->layout.n; a++)
        effect[a] -= m;
    p->overall += m;
}

int fp_median_polish(const fp_shifts_t *layout, const double *y, int max_iterations, fp_polish_t *p)
{
    size_t n = layout->n, cells = layout->n * layout->nshifts;
    memset(p, 0, sizeof *p);
    p->layout = *layout;
    p->sender = calloc(n + 1, sizeof(double));
    p->receiver = calloc(n + 1, sizeof(double));
    p->resid = malloc((cells + 1) * sizeof(double));
    double *scratch = malloc((n + layout->nshifts + 1) * sizeof(double));
    if (!p->sender || !p->receiver || !p->resid || !scratch) {
        free(scratch);
        fp_polish_free(p);
        return -1;
    }
    if (cells)
        memcpy(p->resid, y, cells * sizeof(double));
    for (int it = 0; it < max_iterations; it++) {
        double change = polish_pass(p, 0, scratch);
        center_effects(p, p->receiver, scratch);
        change = fmax(change, polish_pass(p, 1, scratch));
        center_effects(p, p->sender, scratch);
        if (change < 1e-9)
            break;
    }
    free(scratch);
    return 0;
}

const char *fp_finding_kind_name(fp_finding_kind_t kind)
{
    static const char *const names[] = {"sender", "receiver", "node", "link", "link-both"};
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
    node_name(names, f->a, a, sizeof a);
    double ratio = f->typical > 0 ? f->median / f->typical : NAN;
    if (f->kind == FP_FIND_LINK) {
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
