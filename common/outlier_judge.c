/* Judging the median polish of a pair matrix: which effects are large, confirmed by the cells'
 * own CIs (see outlier.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "outlier.h"

#define MAD_TO_SD 1.4826
#define CI95_Z 1.96
#define POLISH_ITERATIONS 20

typedef struct judge {
    size_t n;
    const fp_cell_t *cells;
    int higher_is_better;
    double *g;       /* goodness: log of bandwidth, or minus log of latency; NAN not measured */
    double *g_best;  /* the goodness of the CI's good end */
    double *scratch; /* max(8 n, n x n) */
    fp_polish_t p;
    double cell_sd; /* typical spread of one cell, from the CIs: floor of every scale */
} judge_t;

static double goodness(const judge_t *J, double x)
{
    return J->higher_is_better ? log(x) : -log(x);
}

static double value_of(const judge_t *J, double g)
{
    return J->higher_is_better ? exp(g) : exp(-g);
}

/* Center (median) and robust scale (1.4826 MAD, at least floor) of x[0..n), reordered. The values
 * equal to the center do not count in the MAD: median polish leaves one residual of each row and
 * column exactly zero, and with few cells per row those zeros would shrink the spread. */
static void robust_spread(double *x, size_t n, double floor_sd, double *center, double *scale)
{
    *center = fp_median_finite(x, n);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && fabs(x[i] - *center) > 1e-12)
            x[m++] = fabs(x[i] - *center);
    double mad = fp_median_finite(x, m);
    *scale = isfinite(mad) ? fmax(MAD_TO_SD * mad, floor_sd) : floor_sd;
}

static int judge_open(judge_t *J, size_t n, const fp_cell_t *cells, int higher_is_better)
{
    memset(J, 0, sizeof *J);
    J->n = n;
    J->cells = cells;
    J->higher_is_better = higher_is_better;
    J->g = malloc(n * n * sizeof(double));
    J->g_best = malloc(n * n * sizeof(double));
    J->scratch = malloc((n * n > 8 * n ? n * n : 8 * n) * sizeof(double));
    if (!J->g || !J->g_best || !J->scratch)
        return -1;
    size_t widths = 0;
    for (size_t k = 0; k < n * n; k++) {
        const fp_cell_t *c = &cells[k];
        int ok = isfinite(c->median) && c->median > 0 && k / n != k % n;
        J->g[k] = ok ? goodness(J, c->median) : NAN;
        double best = higher_is_better ? c->hi : c->lo;
        J->g_best[k] = ok && best > 0 ? goodness(J, best) : J->g[k];
        if (ok && c->lo > 0 && c->hi > 0)
            J->scratch[widths++] = fabs(log(c->hi) - log(c->lo)) / (2.0 * CI95_Z);
    }
    J->cell_sd = widths ? fp_median_finite(J->scratch, widths) : 0.0;
    return fp_median_polish(n, J->g, POLISH_ITERATIONS, &J->p);
}

static void judge_close(judge_t *J)
{
    free(J->g);
    free(J->g_best);
    free(J->scratch);
    fp_polish_free(&J->p);
}

/* Cells of node i as sender (its row, roles & 1) and as receiver (its column, roles & 2): how many,
 * how many have their whole CI below what the matrix predicts without i's own effect (center: the
 * typical sender and receiver effects), and the medians of their medians, bounds and predictions. */
static void node_cells(judge_t *J, size_t i, int roles, const double center[2], fp_finding_t *f)
{
    size_t n = J->n, m = 0;
    double *med = J->scratch, *lo = med + 2 * n, *hi = lo + 2 * n, *typ = hi + 2 * n;
    f->cells = f->confirmed = 0;
    for (int role = 1; role <= 2; role++) {
        if (!(roles & role))
            continue;
        for (size_t j = 0; j < n; j++) {
            size_t k = role == 1 ? i * n + j : j * n + i;
            if (!isfinite(J->g[k]))
                continue;
            double pred = J->p.overall + (role == 1 ? center[0] + J->p.receiver[j] : center[1] + J->p.sender[j]);
            f->confirmed += J->g_best[k] < pred;
            f->cells++;
            med[m] = J->cells[k].median;
            lo[m] = J->cells[k].lo;
            hi[m] = J->cells[k].hi;
            typ[m++] = pred;
        }
    }
    f->median = fp_median_finite(med, m);
    f->lo = fp_median_finite(lo, m);
    f->hi = fp_median_finite(hi, m);
    f->typical = value_of(J, fp_median_finite(typ, m));
    f->median2 = f->lo2 = f->hi2 = NAN;
}

typedef struct finding_list {
    fp_finding_t *items;
    size_t count, capacity;
} finding_list_t;

static int list_add(finding_list_t *l, const fp_finding_t *f)
{
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? 2 * l->capacity : 8;
        fp_finding_t *items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return -1;
        l->items = items;
        l->capacity = cap;
    }
    l->items[l->count++] = *f;
    return 0;
}

/* slow[i] bit 1: slow as sender, bit 2: as receiver. center[] gets the typical effects. */
static void judge_nodes(judge_t *J, unsigned char *slow, double center[2])
{
    size_t n = J->n;
    double scale[2];
    for (int role = 0; role < 2; role++) {
        const double *effect = role == 0 ? J->p.sender : J->p.receiver;
        memcpy(J->scratch, effect, n * sizeof(double));
        robust_spread(J->scratch, n, J->cell_sd, &center[role], &scale[role]);
    }
    memset(slow, 0, n);
    for (size_t i = 0; i < n; i++) {
        for (int role = 0; role < 2; role++) {
            const double *effect = role == 0 ? J->p.sender : J->p.receiver;
            if (!(effect[i] - center[role] < -FP_OUTLIER_K * scale[role]))
                continue;
            fp_finding_t f;
            node_cells(J, i, 1 << role, center, &f);
            if (2 * f.confirmed > f.cells) /* most of its cells, each beyond its own CI */
                slow[i] |= (unsigned char)(1 << role);
        }
    }
}

static int add_node_findings(judge_t *J, const unsigned char *slow, const double center[2],
                             finding_list_t *l)
{
    static const fp_finding_kind_t kinds[4] = {0, FP_FIND_SENDER, FP_FIND_RECEIVER, FP_FIND_NODE};
    for (size_t i = 0; i < J->n; i++) {
        if (!slow[i])
            continue;
        fp_finding_t f = {.kind = kinds[slow[i]], .a = (int)i, .b = -1};
        node_cells(J, i, slow[i], center, &f);
        if (list_add(l, &f))
            return -1;
    }
    return 0;
}

/* Cell (i, j) is a slow link when its residual is large and its whole CI lies below the fit. */
static int link_slow(const judge_t *J, size_t i, size_t j, double center, double scale)
{
    size_t k = i * J->n + j;
    if (!isfinite(J->p.resid[k]) || !(J->p.resid[k] - center < -FP_OUTLIER_K * scale))
        return 0;
    return J->g_best[k] < J->p.overall + J->p.sender[i] + J->p.receiver[j];
}

static void set_cell(const judge_t *J, size_t i, size_t j, double *median, double *lo, double *hi)
{
    const fp_cell_t *c = &J->cells[i * J->n + j];
    *median = c->median;
    *lo = c->lo;
    *hi = c->hi;
}

/* Median number of measured cells in a row. */
static double cells_per_row(judge_t *J)
{
    size_t n = J->n;
    for (size_t i = 0; i < n; i++) {
        size_t m = 0;
        for (size_t j = 0; j < n; j++)
            m += isfinite(J->g[i * n + j]);
        J->scratch[i] = m ? (double)m : NAN;
    }
    return fp_median_finite(J->scratch, n);
}

/* Links, skipping the cells that a slow node already explains. */
static int add_link_findings(judge_t *J, const unsigned char *slow, finding_list_t *l)
{
    size_t n = J->n;
    double center, scale, m = cells_per_row(J);
    memcpy(J->scratch, J->p.resid, n * n * sizeof(double));
    robust_spread(J->scratch, n * n, J->cell_sd, &center, &scale);
    /* A residual is the cell minus a fit made from that cell's own row and column, which shrinks
     * it: by (1 - 1/m) per way for m cells a row, as for an additive least-squares fit. */
    if (m > 1)
        scale /= 1.0 - 1.0 / m;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < n; j++) {
            if ((slow[i] & 1) || (slow[j] & 2) || !link_slow(J, i, j, center, scale))
                continue;
            int back = !(slow[j] & 1) && !(slow[i] & 2) && link_slow(J, j, i, center, scale);
            if (back && j < i)
                continue; /* reported with (j, i) */
            fp_finding_t f = {.kind = back ? FP_FIND_LINK_BOTH : FP_FIND_LINK, .a = (int)i, .b = (int)j};
            set_cell(J, i, j, &f.median, &f.lo, &f.hi);
            f.median2 = f.lo2 = f.hi2 = NAN;
            if (back)
                set_cell(J, j, i, &f.median2, &f.lo2, &f.hi2);
            f.typical = value_of(J, J->p.overall + J->p.sender[i] + J->p.receiver[j]);
            f.cells = f.confirmed = back ? 2 : 1;
            if (list_add(l, &f))
                return -1;
        }
    }
    return 0;
}

int fp_outliers_find(size_t n, const fp_cell_t *cells, int higher_is_better, fp_finding_t *out, size_t max,
                     size_t *count)
{
    judge_t J;
    finding_list_t l = {0};
    double center[2];
    unsigned char *slow = malloc(n ? n : 1);
    int rc = -1;
    *count = 0;
    memset(&J, 0, sizeof J);
    if (slow && judge_open(&J, n, cells, higher_is_better) == 0) {
        judge_nodes(&J, slow, center);
        rc = add_node_findings(&J, slow, center, &l) || add_link_findings(&J, slow, &l) ? -1 : 0;
    }
    judge_close(&J);
    if (rc == 0) {
        *count = l.count;
        if (l.count)
            memcpy(out, l.items, (l.count < max ? l.count : max) * sizeof *out);
    }
    free(l.items);
    free(slow);
    return rc;
}
