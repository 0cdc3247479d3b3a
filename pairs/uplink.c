/* The uplink screen (uplink.h). */
#include "uplink.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEDIAN_SE 1.2533 /* standard error of a median: sqrt(pi / 2) sigma / sqrt(m) */
#define MAD_TO_SD 1.4826
#define CI95_Z 1.96
#define SPREAD_SHARE 0.75 /* of the crossing cells wholly below the rest */

const char *fp_uplink_dir_name(int dir)
{
    static const char *const names[] = {"up", "down", "both"};
    return names[dir];
}

int fp_uplink_under(const fp_uplink_tree_t *t, int r, int x)
{
    for (int s = t->switch_of[r], hops = 0; s >= 0 && hops <= (int)t->nsw; s = t->parent[s], hops++)
        if (s == x)
            return 1;
    return 0;
}

static int crosses(const fp_uplink_tree_t *t, int sw, int dir, int a, int b)
{
    int ua = fp_uplink_under(t, a, sw), ub = fp_uplink_under(t, b, sw);
    return dir == FP_UPLINK_UP ? ua && !ub : dir == FP_UPLINK_DOWN ? !ua && ub : ua != ub;
}

int fp_uplink_crosses(const fp_uplink_tree_t *t, const fp_uplink_finding_t *f, int a, int b)
{
    return crosses(t, f->sw, f->dir, a, b) || (f->alt_sw >= 0 && crosses(t, f->alt_sw, f->alt_dir, a, b));
}

typedef struct screen {
    const fp_shifts_t *L;
    const fp_cell_t *cells; /* a copy, corrected for the suspects found so far */
    const fp_judge_opts_t *o;
    const fp_uplink_tree_t *t;
    size_t n, ncells;
    double *g, *g_best; /* log goodness of each cell and of its CI's better bound; NAN unmeasured */
    double *scratch, *scratch2;
    unsigned char *under; /* under[x * n + r] */
} screen_t;

static double goodness(const screen_t *S, double v)
{
    return S->o->higher_is_better ? log(v) : -log(v);
}

static int receiver(const screen_t *S, size_t k);
/* crosses() from the table of who is under which switch */
static int crossing(const screen_t *S, int x, int dir, size_t a, size_t b)
{
    int ua = S->under[(size_t)x * S->n + a], ub = S->under[(size_t)x * S->n + b];
    return dir == FP_UPLINK_UP ? ua && !ub : dir == FP_UPLINK_DOWN ? !ua && ub : ua != ub;
}

static int receiver(const screen_t *S, size_t k)
{
    size_t r = k / S->n, a = k % S->n;
    return (int)((a + S->L->shift[r]) % S->n);
}

typedef struct keyed {
    size_t key;
    double g;
} keyed_t;

static int by_key(const void *p, const void *q)
{
    size_t a = ((const keyed_t *)p)->key, b = ((const keyed_t *)q)->key;
    return (a > b) - (a < b);
}

/* Noise of one cell's log: the robust spread of each cell about its block's median (the cells
 * from one switch to another), so that a slow uplink, the same for its whole block, does not
 * widen it; at least the cells' own CIs. -1 out of memory. */
static double block_noise(screen_t *S)
{
    size_t nsw = S->t->nsw, m = 0, widths = 0, dev = 0;
    keyed_t *cells = malloc((S->ncells + 1) * sizeof *cells);
    if (!cells)
        return -1.0;
    for (size_t k = 0; k < S->ncells; k++)
        if (isfinite(S->g[k]))
            cells[m++] = (keyed_t){(size_t)S->t->switch_of[k % S->n] * nsw + (size_t)S->t->switch_of[receiver(S, k)],
                                   S->g[k]};
    qsort(cells, m, sizeof *cells, by_key);
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i; j < m && cells[j].key == cells[i].key; j++)
            S->scratch[j - i] = cells[j].g;
        if (j - i < 2)
            continue;
        double mid = fp_median_finite(S->scratch, j - i);
        for (size_t k = i; k < j; k++)
            S->scratch2[dev++] = fabs(cells[k].g - mid);
    }
    free(cells);
    double sd = dev ? MAD_TO_SD * fp_median_finite(S->scratch2, dev) : 0.0;
    for (size_t k = 0; k < S->ncells; k++) {
        const fp_cell_t *c = &S->cells[k];
        if (isfinite(S->g[k]) && c->lo > 0 && c->hi > 0)
            S->scratch[widths++] = fabs(log(c->hi) - log(c->lo)) / (2.0 * CI95_Z);
    }
    double cell_sd = widths ? fp_median_finite(S->scratch, widths) : 0.0;
    return fmax(isfinite(sd) ? sd : 0.0, cell_sd);
}

/* A switch whose ranks are those of an earlier candidate (a parent with one child in the job): the
 * same uplink as far as this job can tell, judged once, at the lower switch. */
static int same_ranks(const screen_t *S, size_t x, size_t y)
{
    return memcmp(S->under + x * S->n, S->under + y * S->n, S->n) == 0;
}

static int candidate(const screen_t *S, size_t x, size_t *inside)
{
    size_t m = 0;
    for (size_t r = 0; r < S->n; r++)
        m += S->under[x * S->n + r];
    *inside = m;
    return S->t->parent[x] >= 0 && m >= 2 && S->n - m >= 2;
}

typedef struct verdict {
    int suspect;
    fp_uplink_finding_t f;
} verdict_t;

/* One uplink and direction judged: 0 too few cells, 1 judged (v set). */
static int judge_one(screen_t *S, int x, int dir, double sigma, double zbound, verdict_t *v)
{
    size_t c = 0, rest = 0, rounds_flows = 0;
    double *yc = S->scratch, *yr = S->scratch2;
    size_t nr = S->L->nshifts, n = S->n;
    for (size_t r = 0; r < nr; r++) {
        size_t in_round = 0;
        for (size_t a = 0; a < n; a++) {
            size_t k = r * n + a;
            if (!isfinite(S->g[k]))
                continue;
            int b = receiver(S, k);
            int ua = S->under[(size_t)x * n + a], ub = S->under[(size_t)x * n + (size_t)b];
            if (crossing(S, x, dir, a, (size_t)b))
                yc[c++] = S->g[k], in_round++;
            else if (ua == ub)
                yr[rest++] = S->g[k];
        }
        rounds_flows = in_round > rounds_flows ? in_round : rounds_flows;
    }
    if (c < FP_JUDGE_MIN_CELLS || rest < FP_JUDGE_MIN_CELLS)
        return 0;
    double mid_rest = fp_median_finite(yr, rest);
    double mid = fp_median_finite(yc, c);
    double se = MEDIAN_SE * sigma * sqrt(1.0 / (double)c + 1.0 / (double)rest);
    double d = mid - mid_rest, z = se > 0 ? d / se : (d < 0 ? -INFINITY : 0.0);
    /* the crossing cells' values and their spread over senders and receivers */
    size_t confirmed = 0, m = 0;
    unsigned char *send_seen = calloc(2 * n + 1, 1);
    if (!send_seen)
        return -1;
    unsigned char *recv_seen = send_seen + n;
    size_t senders = 0, receivers = 0;
    double *med = malloc(3 * (c + 1) * sizeof(double));
    if (!med) {
        free(send_seen);
        return -1;
    }
    double *lo = med + c + 1, *hi = lo + c + 1;
    for (size_t k = 0; k < S->ncells; k++) {
        int a = (int)(k % n), b;
        if (!isfinite(S->g[k]) || !crossing(S, x, dir, (size_t)a, (size_t)(b = receiver(S, k))))
            continue;
        const fp_cell_t *cell = &S->cells[k];
        med[m] = cell->median, lo[m] = cell->lo, hi[m++] = cell->hi;
        if (S->g_best[k] < mid_rest) {
            confirmed++;
            senders += !send_seen[a]++;
            receivers += !recv_seen[b]++;
        }
    }
    v->f = (fp_uplink_finding_t){.sw = x, .dir = dir, .alt_sw = -1, .alt_dir = 0, .cells = c,
                                 .confirmed = confirmed, .z = z, .flows = rounds_flows};
    v->f.median = fp_median_finite(med, m);
    v->f.lo = fp_median_finite(lo, m);
    v->f.hi = fp_median_finite(hi, m);
    v->f.typical = S->o->higher_is_better ? exp(mid_rest) : exp(-mid_rest);
    free(med);
    free(send_seen);
    double min_log = log(1.0 - S->o->min_effect);
    v->suspect = d <= min_log && z <= -zbound && (double)confirmed >= SPREAD_SHARE * (double)c && senders >= 2 &&
                 receivers >= 2;
    return 1;
}

/* x's uplink in direction dx carries the cells of y's in dy: y's ranks are the others of x's, the
 * one's "up" being the other's "down". */
static int same_cells(const screen_t *S, int x, int dx, int y, int dy)
{
    if (dx == FP_UPLINK_BOTH ? dy != FP_UPLINK_BOTH : dx == dy)
        return 0;
    for (size_t r = 0; r < S->n; r++)
        if (S->under[(size_t)x * S->n + r] == S->under[(size_t)y * S->n + r])
            return 0;
    return 1;
}

/* log goodness of every cell and of its CI's better bound, from S->work */
static void goodness_all(screen_t *S)
{
    for (size_t k = 0; k < S->ncells; k++) {
        const fp_cell_t *c = &S->cells[k];
        int ok = isfinite(c->median) && c->median > 0;
        double best = S->o->higher_is_better ? c->hi : c->lo;
        S->g[k] = ok ? goodness(S, c->median) : NAN;
        S->g_best[k] = ok && best > 0 ? goodness(S, best) : S->g[k];
    }
}

void fp_uplink_correct(const fp_shifts_t *layout, fp_cell_t *cells, const fp_uplink_tree_t *tree,
                       const fp_uplink_finding_t *found, size_t count)
{
    size_t n = layout->n;
    for (size_t i = 0; i < count; i++) {
        double factor = found[i].typical / found[i].median;
        if (!(factor > 0) || !isfinite(factor))
            continue;
        for (size_t r = 0; r < layout->nshifts; r++)
            for (size_t a = 0; a < n; a++) {
                fp_cell_t *c = &cells[r * n + a];
                if (fp_uplink_crosses(tree, &found[i], (int)a, (int)((a + layout->shift[r]) % n)))
                    c->median *= factor, c->lo *= factor, c->hi *= factor;
            }
    }
}

int fp_uplinks_find(const fp_shifts_t *layout, const fp_cell_t *cells, const fp_judge_opts_t *opts,
                    const fp_uplink_tree_t *tree, fp_uplink_finding_t *out, size_t max, size_t *count,
                    fp_uplink_summary_t *summary)
{
    screen_t S = {.L = layout, .t = tree, .n = layout->n};
    fp_judge_opts_t o = *opts;
    if (!(o.min_effect > 0 && o.min_effect < 1))
        o.min_effect = FP_JUDGE_MIN_EFFECT;
    S.o = &o;
    S.ncells = layout->n * layout->nshifts;
    *count = 0;
    fp_uplink_summary_t sum = {0};
    size_t nsw = tree->nsw, n = S.n;
    fp_cell_t *work = malloc((S.ncells + 1) * sizeof *work);
    S.g = malloc((2 * S.ncells + 1) * sizeof(double));
    S.scratch = malloc((2 * S.ncells + 2) * sizeof(double));
    S.under = malloc(nsw * n + 1);
    unsigned char *state = calloc(3 * nsw + 1, 1); /* per switch and direction: 1 candidate, 2 taken */
    int rc = -1;
    if (!work || !S.g || !S.scratch || !S.under || !state)
        goto done;
    memcpy(work, cells, S.ncells * sizeof *work);
    S.cells = work;
    S.g_best = S.g + S.ncells;
    S.scratch2 = S.scratch + S.ncells + 1;
    goodness_all(&S);
    for (size_t x = 0; x < nsw; x++)
        for (size_t r = 0; r < n; r++)
            S.under[x * n + r] = (unsigned char)fp_uplink_under(tree, (int)r, (int)x);
    double sigma = block_noise(&S);
    if (sigma < 0)
        goto done;
    /* the candidates first, for the bound: every uplink and direction with ranks on both sides */
    int first_dir = o.round_trip ? FP_UPLINK_BOTH : FP_UPLINK_UP, last_dir = o.round_trip ? 3 : 2;
    size_t tests = 0;
    for (size_t x = 0; x < nsw; x++) {
        size_t inside;
        int dup = 0;
        if (!candidate(&S, x, &inside)) {
            /* a switch of the job's with ranks on both sides that cannot be judged is said */
            sum.unjudged += tree->parent[x] >= 0 && inside > 0 && inside < n;
            continue;
        }
        for (size_t y = 0; y < x && !dup; y++)
            dup = state[3 * y + (size_t)first_dir] && same_ranks(&S, x, y);
        if (dup)
            continue;
        for (int d = first_dir; d < last_dir; d++)
            state[3 * x + (size_t)d] = 1;
        tests += (size_t)(last_dir - first_dir);
    }
    double zbound = fmax(FP_OUTLIER_K, tests ? fp_normal_upper_quantile(FP_SCREEN_ALPHA / (double)tests) : 0.0);
    /* Forward selection: the most severe suspect first, its cells then brought to the level of the
     * rest, and the others judged again on what it does not explain (a spine's slow uplink makes
     * its leaves' cross cells slow too, but explains them all). */
    size_t kept = 0;
    for (int pass = 0;; pass++) {
        verdict_t best = {0}, v;
        int have = 0;
        for (size_t x = 0; x < nsw; x++)
            for (int d = first_dir; d < last_dir; d++) {
                if (state[3 * x + (size_t)d] != 1)
                    continue;
                int got = judge_one(&S, (int)x, d, sigma, zbound, &v);
                if (got < 0)
                    goto done;
                if (pass == 0 && d == first_dir)
                    sum.judged += got, sum.unjudged += !got;
                if (got && v.suspect && (!have || v.f.z < best.f.z))
                    best = v, have = 1;
            }
        if (!have)
            break;
        state[3 * (size_t)best.f.sw + (size_t)best.f.dir] = 2;
        for (size_t y = 0; y < nsw && best.f.alt_sw < 0; y++) /* the other end of the same path */
            for (int d = first_dir; d < last_dir; d++)
                if (state[3 * y + (size_t)d] == 1 && same_cells(&S, best.f.sw, best.f.dir, (int)y, d)) {
                    best.f.alt_sw = (int)y, best.f.alt_dir = d;
                    state[3 * y + (size_t)d] = 2;
                    break;
                }
        if (kept < max)
            out[kept] = best.f;
        kept++;
        fp_uplink_correct(layout, work, tree, &best.f, 1);
        goodness_all(&S);
    }
    *count = kept;
    sum.sigma = sigma;
    sum.z = zbound;
    rc = 0;
done:
    if (summary)
        *summary = sum;
    free(work);
    free(S.g);
    free(S.scratch);
    free(S.under);
    free(state);
    return rc;
}
