/* The screen of a pair matrix: its median polish, the noise of one cell, and which node, round
 * and link effects are material and significant (see outlier.h). One statistical procedure whose
 * steps share the judge's state: kept in one file of about 560 lines rather than split mid-way. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outlier.h"

#define MAD_TO_SD 1.4826
#define CI95_Z 1.96
#define POLISH_ITERATIONS 30
/* Standard error of a median of m values is about sqrt(pi / 2) sigma / sqrt(m). */
#define MEDIAN_SE 1.2533
/* From this many effects their own spread is a floor of their scale: one outlier cannot size it. */
#define EFFECT_SPREAD_MIN 8

typedef struct judge {
    fp_shifts_t L;
    size_t n, ncells; /* nodes; stored cells (nshifts x n) */
    long *round_of;   /* n: the round of each shift, -1 when not measured */
    const fp_cell_t *cells;
    fp_judge_opts_t o;
    double *g;       /* goodness: log of bandwidth, or minus log of latency; NAN not measured */
    double *g_best;  /* the goodness of the CI's good end */
    double *scratch; /* max(8 nshifts + 8 + 6 n, stored cells) */
    fp_polish_t p;
    double cell_sd;   /* typical spread of one cell, from the CIs: floor of the noise */
    double per_row;      /* median measured cells a row (the fit's shrinking of residuals) */
    double sigma;     /* noise of one cell's log */
    double min_log;   /* log(1 - min_effect): the largest effect that is material */
    double z_node, z_link, z_round;
    double center[2]; /* typical sender and receiver effects */
    unsigned char *taken; /* cells already a suspect (a slow round's lowest) */
} judge_t;

static double goodness(const judge_t *J, double x)
{
    return J->o.higher_is_better ? log(x) : -log(x);
}

static double value_of(const judge_t *J, double g)
{
    return J->o.higher_is_better ? exp(g) : exp(-g);
}

/* Robust sd (1.4826 MAD about the median) of the finite values of x[0..n), reordered; skip_center:
 * values equal to the median do not count (median polish leaves residuals exactly zero), unless
 * fewer than a quarter of the values differ from it: then the matrix itself is that exact (a known
 * clock, identical cells), and the few that differ are outliers that must not size their own scale. */
static double robust_sd(double *x, size_t n, int skip_center)
{
    size_t finite = 0, m = 0, off = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]))
            x[finite++] = x[i];
    double center = fp_median_finite(x, finite);
    for (size_t i = 0; i < finite; i++)
        off += fabs(x[i] - center) > 1e-12;
    if (4 * off < finite)
        skip_center = 0;
    for (size_t i = 0; i < finite; i++)
        if (!skip_center || fabs(x[i] - center) > 1e-12)
            x[m++] = fabs(x[i] - center);
    double mad = fp_median_finite(x, m);
    return isfinite(mad) ? MAD_TO_SD * mad : 0.0;
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

/* The noise of one cell from m residuals (reordered): their robust spread, undone from the
 * shrinking of a fit made from the cell's own row and column (1 - 1/m per way for m cells a row),
 * at least the cells' CIs. */
static double resid_noise(judge_t *J, double *resid, size_t m)
{
    double sd = robust_sd(resid, m, 1);
    if (J->per_row > 1)
        sd /= 1.0 - 1.0 / J->per_row;
    return fmax(sd, J->cell_sd);
}

static double noise_sd(judge_t *J)
{
    memcpy(J->scratch, J->p.resid, J->ncells * sizeof(double));
    return resid_noise(J, J->scratch, J->ncells);
}

/* The noise of the cells that no suspect node or round touches (a fault leaves structure in the
 * residuals of its node's cells and its rounds); the whole matrix's when fewer than half remain. */
static double quiet_noise_sd(judge_t *J, const unsigned char *slow, const unsigned char *slow_round)
{
    size_t n = J->n, m = 0;
    for (size_t r = 0; r < J->L.nshifts; r++)
        for (size_t a = 0; a < n; a++) {
            size_t k = r * n + a, b = (a + J->L.shift[r]) % n;
            if (isfinite(J->g[k]) && !slow[a] && !slow[b] && !slow_round[r])
                J->scratch[m++] = J->p.resid[k];
        }
    return 2 * m < J->ncells ? J->sigma : resid_noise(J, J->scratch, m);
}

/* The screen's bound for `tests` one-sided tests at FP_SCREEN_ALPHA in all (rounds). */
static double bound(size_t tests)
{
    double z = tests ? fp_normal_upper_quantile(FP_SCREEN_ALPHA / (double)tests) : FP_OUTLIER_K;
    return fmax(z, FP_OUTLIER_K);
}

static int judge_open(judge_t *J, const fp_shifts_t *L, const fp_cell_t *cells, const fp_judge_opts_t *o)
{
    size_t n = L->n, ncells = L->n * L->nshifts, nscratch = 8 * L->nshifts + 8 + 6 * n;
    memset(J, 0, sizeof *J);
    J->L = *L;
    J->n = n;
    J->ncells = ncells;
    J->cells = cells;
    J->o = *o;
    if (!(J->o.min_effect > 0 && J->o.min_effect < 1))
        J->o.min_effect = FP_JUDGE_MIN_EFFECT;
    J->min_log = log(1.0 - J->o.min_effect);
    J->round_of = malloc((n + 1) * sizeof(long));
    J->g = malloc((ncells + 1) * sizeof(double));
    J->g_best = malloc((ncells + 1) * sizeof(double));
    J->scratch = malloc((ncells > nscratch ? ncells : nscratch) * sizeof(double));
    J->taken = calloc(ncells + 1, 1);
    if (!J->round_of || !J->g || !J->g_best || !J->scratch || !J->taken)
        return -1;
    for (size_t k = 0; k < n; k++)
        J->round_of[k] = -1;
    for (size_t r = 0; r < L->nshifts; r++)
        J->round_of[L->shift[r] % n] = (long)r;
    size_t widths = 0, measured = 0;
    for (size_t k = 0; k < ncells; k++) {
        const fp_cell_t *c = &cells[k];
        int ok = isfinite(c->median) && c->median > 0;
        J->g[k] = ok ? goodness(J, c->median) : NAN;
        double best = o->higher_is_better ? c->hi : c->lo;
        J->g_best[k] = ok && best > 0 ? goodness(J, best) : J->g[k];
        measured += ok;
        if (ok && c->lo > 0 && c->hi > 0)
            J->scratch[widths++] = fabs(log(c->hi) - log(c->lo)) / (2.0 * CI95_Z);
    }
    J->cell_sd = widths ? fp_median_finite(J->scratch, widths) : 0.0;
    if (fp_median_polish(L, J->g, POLISH_ITERATIONS, o->with_rounds && L->nshifts >= FP_JUDGE_MIN_CELLS, &J->p))
        return -1;
    J->per_row = cells_per_row(J);
    J->sigma = noise_sd(J);
    J->z_node = FP_NODE_Z;
    J->z_link = FP_LINK_Z;
    (void)measured;
    J->z_round = bound(L->nshifts);
    return 0;
}

static void judge_close(judge_t *J)
{
    free(J->round_of);
    free(J->g);
    free(J->g_best);
    free(J->scratch);
    free(J->taken);
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

/* The fit of cell k (a -> b) without a's sender effect (role 1) or b's receiver effect (role 2)
 * replaced by the typical one; role 0: the whole fit. */
static double predict(const judge_t *J, size_t k, int role)
{
    size_t a = k % J->n, b = (a + J->L.shift[k / J->n]) % J->n;
    double s = role == 1 ? J->center[0] : J->p.sender[a], r = role == 2 ? J->center[1] : J->p.receiver[b];
    return J->p.overall + s + r + J->p.round[k / J->n];
}

/* Medians of the cells' medians, bounds and predictions over the m cells listed in idx; confirmed:
 * those whose whole CI lies below their prediction for role (see predict). */
static void summarize(judge_t *J, const size_t *idx, size_t m, int role, fp_finding_t *f)
{
    double *med = J->scratch + J->n, *lo = med + m + 1, *hi = lo + m + 1, *typ = hi + m + 1;
    f->cells = m;
    f->confirmed = 0;
    for (size_t c = 0; c < m; c++) {
        size_t k = idx[c];
        double pred = predict(J, k, role);
        f->confirmed += J->g_best[k] < pred;
        med[c] = J->cells[k].median;
        lo[c] = J->cells[k].lo;
        hi[c] = J->cells[k].hi;
        typ[c] = pred;
    }
    f->median = fp_median_finite(med, m);
    f->lo = fp_median_finite(lo, m);
    f->hi = fp_median_finite(hi, m);
    f->typical = value_of(J, fp_median_finite(typ, m));
    f->median2 = f->lo2 = f->hi2 = NAN;
    f->round_trip = J->o.round_trip;
}

/* The measured cells of node i in one role (1 sender, 2 receiver) into idx; returns how many. */
static size_t node_cells(const judge_t *J, size_t i, int role, size_t *idx)
{
    size_t m = 0, j;
    for (size_t r = 0; r < J->L.nshifts; r++) {
        size_t k = node_cell(J, i, role, r, &j);
        if (isfinite(J->g[k]))
            idx[m++] = k;
    }
    return m;
}

/* A node role's finding over both roles it is slow in (slow: bit 1 sender, bit 2 receiver). */
static void node_finding(judge_t *J, size_t i, unsigned slow, size_t *idx, fp_finding_t *f)
{
    size_t m = 0;
    if (slow & 1)
        m += node_cells(J, i, 1, idx);
    if (slow & 2)
        m += node_cells(J, i, 2, idx + m);
    summarize(J, idx, m, slow == 3 ? 0 : (int)slow, f);
    if (slow == 3) { /* the typical value without either effect of the node */
        double *typ = J->scratch + J->n;
        for (size_t c = 0; c < m; c++) {
            size_t a = idx[c] % J->n;
            typ[c] = predict(J, idx[c], a == i ? 1 : 2);
        }
        f->typical = value_of(J, fp_median_finite(typ, m));
        size_t confirmed = 0;
        for (size_t c = 0; c < m; c++)
            confirmed += J->g_best[idx[c]] < predict(J, idx[c], idx[c] % J->n == i ? 1 : 2);
        f->confirmed = confirmed;
    }
}

static void set_cell(const fp_cell_t *c, double *median, double *lo, double *hi);

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

/* The effects of one role and their scale floor: the effects' own spread from EFFECT_SPREAD_MIN. */
static double effect_spread(judge_t *J, const double *effect, size_t count, double *center)
{
    memcpy(J->scratch, effect, count * sizeof(double));
    *center = fp_median_finite(J->scratch, count);
    memcpy(J->scratch, effect, count * sizeof(double));
    return count >= EFFECT_SPREAD_MIN ? robust_sd(J->scratch, count, 0) : 0.0;
}

/* slow[i] bit 1: slow as sender, bit 2: as receiver; z[2 i + role]: their standardized effects. */
static void judge_nodes(judge_t *J, unsigned char *slow, double *z, size_t *idx)
{
    double spread[2];
    for (int role = 0; role < 2; role++)
        spread[role] = effect_spread(J, role == 0 ? J->p.sender : J->p.receiver, J->n, &J->center[role]);
    memset(slow, 0, J->n);
    for (size_t i = 0; i < J->n; i++) {
        for (int role = 0; role < 2; role++) {
            double e = (role == 0 ? J->p.sender : J->p.receiver)[i] - J->center[role];
            size_t m = node_cells(J, i, role + 1, idx);
            double se = m ? fmax(MEDIAN_SE * J->sigma / sqrt((double)m), spread[role]) : INFINITY;
            z[2 * i + (size_t)role] = se > 0 ? e / se : (e < 0 ? -INFINITY : 0.0);
            if (!(e < J->min_log && z[2 * i + (size_t)role] < -J->z_node))
                continue;
            fp_finding_t f;
            summarize(J, idx, m, role + 1, &f);
            if (2 * f.confirmed > f.cells) /* most of its cells, each beyond its own CI */
                slow[i] |= (unsigned char)(1 << role);
        }
    }
}

/* One finding per slow role: a node slow both ways is two findings, re-tested apart, since a
 * cause in one direction (a shaped egress) slows the other only under the sweep's load (its acks
 * queue behind its data). Round trips have one role: the node's finding covers both. */
static int add_node_findings(judge_t *J, const unsigned char *slow, const double *z, size_t *idx,
                             finding_list_t *l)
{
    for (size_t i = 0; i < J->n; i++) {
        unsigned roles[2] = {slow[i] & 1u, slow[i] & 2u};
        if (J->o.round_trip)
            roles[0] = slow[i], roles[1] = 0;
        for (int k = 0; k < 2; k++) {
            if (!roles[k])
                continue;
            fp_finding_t f = {.kind = J->o.round_trip ? FP_FIND_NODE : roles[k] == 1 ? FP_FIND_SENDER : FP_FIND_RECEIVER,
                              .a = (int)i, .b = -1};
            node_finding(J, i, roles[k], idx, &f);
            f.z = fmin(roles[k] & 1 ? z[2 * i] : 0.0, roles[k] & 2 ? z[2 * i + 1] : 0.0);
            if (list_add(l, &f))
                return -1;
        }
    }
    return 0;
}

/* A matrix too noisy for the screen's significance (a slow node in shift rounds holds up its
 * partners' other pairs and scatters the whole matrix): every node role whose effect is material,
 * significant or not, becomes a suspect too, for the re-test alone to decide. */
static int add_material_nodes(judge_t *J, const unsigned char *slow, double *z, size_t *idx, finding_list_t *l)
{
    unsigned char *extra = calloc(J->n, 1);
    if (!extra)
        return -1;
    double keep = J->z_node;
    J->z_node = -INFINITY; /* material only: e < min_log, most cells beyond their CIs */
    judge_nodes(J, extra, z, idx);
    J->z_node = keep;
    for (size_t i = 0; i < J->n; i++)
        extra[i] &= (unsigned char)~slow[i];
    int rc = add_node_findings(J, extra, z, idx, l);
    free(extra);
    return rc;
}

/* The lowest cell of slow round r, against the fit without the round's effect, as a link suspect:
 * a slow link slows the pairs that share the cores or wires with it, so its round stands out as a
 * whole and the link not within it. Its re-test alone tells the link from the round's congestion. */
static int add_round_low_cell(judge_t *J, size_t r, const unsigned char *slow, finding_list_t *l)
{
    size_t n = J->n, low = (size_t)-1;
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        size_t k = r * n + i;
        if ((slow[i] & 1) || (slow[(i + J->L.shift[r]) % n] & 2))
            continue; /* a slow node already explains it */
        double e = J->g[k] - (predict(J, k, 0) - J->p.round[r]);
        if (isfinite(e) && e < J->min_log && (low == (size_t)-1 || e < worst))
            low = k, worst = e;
    }
    if (low == (size_t)-1)
        return 0;
    size_t a = low % n, b = (a + J->L.shift[r]) % n;
    fp_finding_t f = {.kind = FP_FIND_LINK, .a = (int)a, .b = (int)b, .cells = 1, .confirmed = 1, .of_round = (int)r + 1};
    set_cell(&J->cells[low], &f.median, &f.lo, &f.hi);
    f.median2 = f.lo2 = f.hi2 = NAN;
    f.typical = value_of(J, predict(J, low, 0) - J->p.round[r]);
    f.z = J->sigma > 0 ? worst / J->sigma : -INFINITY;
    f.round_trip = J->o.round_trip;
    J->taken[low] = 1;
    return list_add(l, &f);
}

/* Whole rounds below the others: slow_round[r] set. */
static int add_round_findings(judge_t *J, const unsigned char *slow, unsigned char *slow_round, size_t *idx,
                              finding_list_t *l)
{
    size_t R = J->L.nshifts, n = J->n;
    memset(slow_round, 0, R);
    if (!(J->o.with_rounds && R >= FP_JUDGE_MIN_CELLS))
        return 0;
    double center;
    double spread = effect_spread(J, J->p.round, R, &center);
    for (size_t r = 0; r < R; r++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (isfinite(J->g[r * n + i]))
                idx[m++] = r * n + i;
        double e = J->p.round[r] - center;
        double se = m ? fmax(MEDIAN_SE * J->sigma / sqrt((double)m), spread) : INFINITY;
        double z = se > 0 ? e / se : (e < 0 ? -INFINITY : 0.0);
        if (!(e < J->min_log && z < -J->z_round))
            continue;
        fp_finding_t f = {.kind = FP_FIND_ROUND, .a = (int)r, .b = (int)J->L.shift[r], .z = z};
        J->p.round[r] -= e; /* the prediction of a cell without the round's slowness */
        summarize(J, idx, m, 0, &f);
        J->p.round[r] += e;
        if (2 * f.confirmed <= f.cells)
            continue;
        slow_round[r] = 1;
        if (list_add(l, &f) || add_round_low_cell(J, r, slow, l))
            return -1;
    }
    return 0;
}

/* Cell k (a -> b) is a slow link when its residual is material and significant and its whole CI
 * lies below the fit; *z gets its standardized residual. */
static int link_slow(const judge_t *J, size_t k, const unsigned char *slow_round, double *z)
{
    if (k == (size_t)-1 || !isfinite(J->p.resid[k]))
        return 0;
    /* A slow link slows its whole round too (its pair's ranks wait on it while they serve other
     * pairs), so that a round effect absorbs part of it: a cell is judged against the prediction
     * without its round's slowness, unless the round is a suspect itself (its pairs are then all
     * re-measured alone). The re-test alone tells a link from a congested round. */
    double lift = J->o.with_rounds && !slow_round[k / J->n] ? fmin(0.0, J->p.round[k / J->n]) : 0.0;
    double e = J->p.resid[k] + lift;
    *z = J->sigma > 0 ? e / J->sigma : (e < 0 ? -INFINITY : 0.0);
    return e < J->min_log && *z < -FP_LINK_Z && J->g_best[k] < predict(J, k, 0) - lift;
}

static void set_cell(const fp_cell_t *c, double *median, double *lo, double *hi)
{
    *median = c->median;
    *lo = c->lo;
    *hi = c->hi;
}

static int by_z(const void *x, const void *y)
{
    double a = ((const fp_finding_t *)x)->z, b = ((const fp_finding_t *)y)->z;
    return (a > b) - (a < b);
}

static int by_cell(const void *x, const void *y)
{
    const fp_finding_t *a = x, *b = y;
    return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
}

/* Links, skipping the cells that a slow node already explains; at most the n / 2 (at least
 * FP_LINK_SUSPECTS_MIN) most severe. */
static int add_link_findings(judge_t *J, const unsigned char *slow, const unsigned char *slow_round,
                             finding_list_t *l)
{
    size_t n = J->n, first = l->count;
    for (size_t k = 0; k < J->ncells; k++) {
        size_t a = k % n, b = (a + J->L.shift[k / n]) % n, back = cell_index(J, b, a);
        double z, z_back = 0;
        if ((slow[a] & 1) || (slow[b] & 2) || J->taken[k] || !link_slow(J, k, slow_round, &z))
            continue;
        int both = !(slow[b] & 1) && !(slow[a] & 2) && back != (size_t)-1 && link_slow(J, back, slow_round, &z_back);
        if (both && b < a)
            continue; /* reported with b -> a */
        fp_finding_t f = {.kind = both ? FP_FIND_LINK_BOTH : FP_FIND_LINK, .a = (int)a, .b = (int)b};
        set_cell(&J->cells[k], &f.median, &f.lo, &f.hi);
        f.median2 = f.lo2 = f.hi2 = NAN;
        if (both)
            set_cell(&J->cells[back], &f.median2, &f.lo2, &f.hi2);
        f.typical = value_of(J, predict(J, k, 0));
        f.cells = f.confirmed = both ? 2 : 1;
        f.z = fmin(z, z_back);
        f.round_trip = J->o.round_trip;
        if (list_add(l, &f))
            return -1;
    }
    size_t cap = J->n / 2 > FP_LINK_SUSPECTS_MIN ? J->n / 2 : FP_LINK_SUSPECTS_MIN;
    if (l->count - first > cap) { /* the most severe, in cell order */
        qsort(l->items + first, l->count - first, sizeof *l->items, by_z);
        qsort(l->items + first, cap, sizeof *l->items, by_cell);
        l->count = first + cap;
    }
    return 0;
}

/* The fewest measured cells any node has as sender and as receiver. */
static size_t fewest_cells(const fp_shifts_t *L)
{
    return L->n >= 2 ? L->nshifts : 0; /* every shift round covers every node once each way */
}

unsigned fp_judge_places(const fp_shifts_t *layout, int round_trip, char *reason, size_t len)
{
    (void)round_trip;
    size_t cells = fewest_cells(layout);
    if (reason && len)
        reason[0] = '\0';
    if (layout->n < FP_JUDGE_MIN_NODES) {
        if (reason)
            snprintf(reason, len, "too few nodes to judge (%zu < %d)", layout->n, FP_JUDGE_MIN_NODES);
        return 0;
    }
    if (cells < FP_JUDGE_MIN_CELLS) {
        if (reason)
            snprintf(reason, len, "too few rounds to judge (%zu cells per node and role < %d)", cells,
                     FP_JUDGE_MIN_CELLS);
        return 0;
    }
    return FP_PLACES_SENDER | FP_PLACES_RECEIVER | FP_PLACES_LINK;
}

static void fill_summary(const judge_t *J, unsigned places, fp_judge_summary_t *s)
{
    s->decided = places != 0;
    s->places = places;
    s->sigma = J->sigma;
    s->z_node = J->z_node;
    s->z_link = J->z_link;
    s->z_round = J->z_round;
    s->link_floor = 1.0;
}

static int screen_sees_link(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts, size_t a,
                            size_t b)
{
    size_t n = layout->n;
    judge_t J;
    finding_list_t l = {0};
    unsigned char *slow = calloc(n + layout->nshifts + 1, 1);
    double *z = malloc((2 * n + 1) * sizeof *z);
    size_t *idx = malloc((2 * layout->nshifts + n + 1) * sizeof *idx);
    int seen = -1;
    memset(&J, 0, sizeof J);
    if (slow && z && idx && judge_open(&J, layout, cells, opts) == 0) {
        judge_nodes(&J, slow, z, idx);
        if (add_node_findings(&J, slow, z, idx, &l) == 0 && add_round_findings(&J, slow, slow + n, idx, &l) == 0 &&
            add_link_findings(&J, slow, slow + n, &l) == 0) {
            seen = 0;
            for (size_t i = 0; i < l.count && !seen; i++) {
                const fp_finding_t *f = &l.items[i];
                seen = (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) &&
                       (((size_t)f->a == a && (size_t)f->b == b) ||
                        (f->kind == FP_FIND_LINK_BOTH && (size_t)f->a == b && (size_t)f->b == a));
            }
        }
    }
    judge_close(&J);
    free(l.items);
    free(slow);
    free(z);
    free(idx);
    return seen;
}

int fp_outliers_find(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                     fp_finding_t *out, size_t max, size_t *count, fp_judge_summary_t *summary)
{
    size_t n = layout->n;
    judge_t J;
    finding_list_t l = {0};
    fp_judge_summary_t local;
    fp_judge_summary_t *s = summary ? summary : &local;
    memset(s, 0, sizeof *s);
    unsigned places = fp_judge_places(layout, opts->round_trip, s->reason, sizeof s->reason);
    unsigned char *slow = malloc(n + layout->nshifts + 1);
    double *z = malloc((2 * n + 1) * sizeof *z);
    size_t *idx = malloc((2 * layout->nshifts + n + 1) * sizeof *idx);
    int rc = -1;
    *count = 0;
    memset(&J, 0, sizeof J);
    if (slow && z && idx && judge_open(&J, layout, cells, opts) == 0) {
        fill_summary(&J, places, s);
        rc = 0;
        memset(slow, 0, n + layout->nshifts);
        if (places) {
            judge_nodes(&J, slow, z, idx);
            rc = add_node_findings(&J, slow, z, idx, &l) || add_round_findings(&J, slow, slow + n, idx, &l) ||
                         add_link_findings(&J, slow, slow + n, &l)
                     ? -1
                     : 0;
        }
        double quiet = quiet_noise_sd(&J, slow, slow + n), noise = exp(FP_LINK_Z * quiet), resolution = noise;
        /* The noise alone understates what a fit with few cells per node hides: the link's own
         * cell pulls its sender's and receiver's effects toward it. Measured on this matrix. */
        if (places && rc == 0 && noise <= FP_JUDGE_MAX_RESOLUTION)
            resolution = fmax(noise, fp_link_resolution(layout, cells, opts, l.items, l.count, screen_sees_link));
        if (places && resolution > FP_JUDGE_MAX_RESOLUTION) { /* a pass would claim what it cannot see */
            s->decided = 0;
            /* what a healthy link's noise can make of it alone: the floor of a link's re-test (the
             * screen's blindness is no reason to doubt a re-test alone) */
            s->link_floor = fmax(noise, 1.0);
            char shown[32];
            fp_resolution_text(resolution, shown, sizeof shown);
            /* what narrows it: more operations per cell narrow the noise; more rounds give each
             * node more cells, so that a link's own cell drags its nodes' effects less */
            if (noise > FP_JUDGE_MAX_RESOLUTION)
                snprintf(s->reason, sizeof s->reason,
                         "too noisy to judge: cell noise %.0f %%, only links slower than %s would show; more "
                         "operations per cell (-i) would narrow it",
                         100.0 * (exp(quiet) - 1.0), shown);
            else
                snprintf(s->reason, sizeof s->reason,
                         "a 2 x link would not show: cell noise %.0f %%, yet only links slower than %s would (cells "
                         "slowed and screened again); %s would narrow it",
                         100.0 * (exp(quiet) - 1.0), shown,
                         layout->nshifts + 1 < layout->n ? "more rounds (--rounds) or operations per cell (-i)"
                                                         : "more operations per cell (-i)");
            if (rc == 0)
                rc = add_material_nodes(&J, slow, z, idx, &l);
        }
    }
    judge_close(&J);
    if (rc == 0) {
        *count = l.count;
        if (l.count)
            memcpy(out, l.items, (l.count < max ? l.count : max) * sizeof *out);
    }
    free(l.items);
    free(slow);
    free(z);
    free(idx);
    return rc;
}
