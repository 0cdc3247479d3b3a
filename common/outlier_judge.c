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
    fp_shifts_t L;
    size_t n, ncells; /* nodes; stored cells (nshifts x n) */
    long *round_of;   /* n: the round of each shift, -1 when not measured */
    const fp_cell_t *cells;
    int higher_is_better;
    double *g;       /* goodness: log of bandwidth, or minus log of latency; NAN not measured */
    double *g_best;  /* the goodness of the CI's good end */
    double *scratch; /* max(8 nshifts + 8 + n, stored cells) */
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

static int judge_open(judge_t *J, const fp_shifts_t *L, const fp_cell_t *cells, int higher_is_better)
{
    size_t n = L->n, ncells = L->n * L->nshifts, nscratch = 8 * L->nshifts + 8 + n;
    memset(J, 0, sizeof *J);
    J->L = *L;
    J->n = n;
    J->ncells = ncells;
    J->cells = cells;
    J->higher_is_better = higher_is_better;
    J->round_of = malloc((n + 1) * sizeof(long));
    J->g = malloc((ncells + 1) * sizeof(double));
    J->g_best = malloc((ncells + 1) * sizeof(double));
    J->scratch = malloc((ncells > nscratch ? ncells : nscratch) * sizeof(double));
    if (!J->round_of || !J->g || !J->g_best || !J->scratch)
        return -1;
    for (size_t k = 0; k < n; k++)
        J->round_of[k] = -1;
    for (size_t r = 0; r < L->nshifts; r++)
        J->round_of[L->shift[r] % n] = (long)r;
    size_t widths = 0;
    for (size_t k = 0; k < ncells; k++) {
        const fp_cell_t *c = &cells[k];
        int ok = isfinite(c->median) && c->median > 0;
        J->g[k] = ok ? goodness(J, c->median) : NAN;
        double best = higher_is_better ? c->hi : c->lo;
        J->g_best[k] = ok && best > 0 ? goodness(J, best) : J->g[k];
        if (ok && c->lo > 0 && c->hi > 0)
            J->scratch[widths++] = fabs(log(c->hi) - log(c->lo)) / (2.0 * CI95_Z);
    }
    J->cell_sd = widths ? fp_median_finite(J->scratch, widths) : 0.0;
    return fp_median_polish(L, J->g, POLISH_ITERATIONS, &J->p);
}

static void judge_close(judge_t *J)
{
    free(J->round_of);
    free(J->g);
    free(J->g_best);
    free(J->scratch);
    fp_polish_free(&J->p);
}

/* Index of cell a -> b, or (size_t)-1 when that shift was not measured. */
static size_t cell_index(const judge_t *J, size_t a, size_t b)
{
    long r = a == b ? -1 : J->round_of[(b + J->n - a) % J->n];
    return r < 0 ? (size_t)-1 : (size_t)r * J->n + a;
}

/* Cells of node i as sender (role 1) or receiver (role 2): index of round r's cell and its partner. */
static size_t node_cell(const judge_t *J, size_t i, int role, size_t r, size_t *partner)
{
    size_t n = J->n, k = role == 1 ? r * n + i : fp_shifts_recv_index(&J->L, r, i);
    *partner = role == 1 ? (i + J->L.shift[r]) % n : k % n;
    return k;
}

/* Cells of node i as sender (roles & 1) and as receiver (roles & 2): how many, how many have their
 * whole CI below what the matrix predicts without i's own effect (center: the typical sender and
 * receiver effects), and the medians of their medians, bounds and predictions. */
static void node_cells(judge_t *J, size_t i, int roles, const double center[2], fp_finding_t *f)
{
    size_t m = 0, stride = 2 * J->L.nshifts + 2;
    double *med = J->scratch, *lo = med + stride, *hi = lo + stride, *typ = hi + stride;
    f->cells = f->confirmed = 0;
    for (int role = 1; role <= 2; role++) {
        for (size_t r = 0; (roles & role) && r < J->L.nshifts; r++) {
            size_t j, k = node_cell(J, i, role, r, &j);
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

/* Cell k (a -> b) is a slow link when its residual is large and its whole CI lies below the fit. */
static int link_slow(const judge_t *J, size_t k, size_t a, size_t b, double center, double scale)
{
    if (k == (size_t)-1 || !isfinite(J->p.resid[k]) || !(J->p.resid[k] - center < -FP_OUTLIER_K * scale))
        return 0;
    return J->g_best[k] < J->p.overall + J->p.sender[a] + J->p.receiver[b];
}

static void set_cell(const fp_cell_t *c, double *median, double *lo, double *hi)
{
    *median = c->median;
    *lo = c->lo;
    *hi = c->hi;
}

/* Median number of measured cells in a row. */
static double cells_per_row(judge_t *J)
{
    double *count = J->scratch;
    for (size_t i = 0; i < J->n; i++) {
        size_t m = 0;
        for (size_t r = 0; r < J->L.nshifts; r++)
            m += isfinite(J->g[r * J->n + i]);
        count[i] = m ? (double)m : NAN;
    }
    return fp_median_finite(count, J->n);
}

/* Links, skipping the cells that a slow node already explains. */
static int add_link_findings(judge_t *J, const unsigned char *slow, finding_list_t *l)
{
    size_t n = J->n;
    double center, scale, m = cells_per_row(J);
    memcpy(J->scratch, J->p.resid, J->ncells * sizeof(double));
    robust_spread(J->scratch, J->ncells, J->cell_sd, &center, &scale);
    /* A residual is the cell minus a fit made from that cell's own row and column, which shrinks
     * it: by (1 - 1/m) per way for m cells a row, as for an additive least-squares fit. */
    if (m > 1)
        scale /= 1.0 - 1.0 / m;
    for (size_t k = 0; k < J->ncells; k++) {
        size_t a = k % n, b = (a + J->L.shift[k / n]) % n, back = cell_index(J, b, a);
        if ((slow[a] & 1) || (slow[b] & 2) || !link_slow(J, k, a, b, center, scale))
            continue;
        int both = !(slow[b] & 1) && !(slow[a] & 2) && link_slow(J, back, b, a, center, scale);
        if (both && b < a)
            continue; /* reported with b -> a */
        fp_finding_t f = {.kind = both ? FP_FIND_LINK_BOTH : FP_FIND_LINK, .a = (int)a, .b = (int)b};
        set_cell(&J->cells[k], &f.median, &f.lo, &f.hi);
        f.median2 = f.lo2 = f.hi2 = NAN;
        if (both)
            set_cell(&J->cells[back], &f.median2, &f.lo2, &f.hi2);
        f.typical = value_of(J, J->p.overall + J->p.sender[a] + J->p.receiver[b]);
        f.cells = f.confirmed = both ? 2 : 1;
        if (list_add(l, &f))
            return -1;
    }
    return 0;
}

int fp_outliers_find(const fp_shifts_t *layout, const fp_cell_t *cells, int higher_is_better, fp_finding_t *out,
                     size_t max, size_t *count)
{
    size_t n = layout->n;
    judge_t J;
    finding_list_t l = {0};
    double center[2];
    unsigned char *slow = malloc(n ? n : 1);
    int rc = -1;
    *count = 0;
    memset(&J, 0, sizeof J);
    if (slow && judge_open(&J, layout, cells, higher_is_better) == 0) {
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
