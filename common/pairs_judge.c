/* The judgement of one size's sweep: the screen of its matrix (outlier.h), then every suspect
 * re-measured alone, each of its cells beside a healthy pair measured alone just after it (same
 * receiver for a sender, same sender for a receiver or a link; a slow round beside a typical round
 * run again), within a time budget; each suspect stands, is cleared, or stays undecided
 * (fp_retest_decide). Every mode re-tests alike. Rank 0 decides; every rank measures. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"

#define MAX_FINDINGS 256
#define MAX_RECHECK 3       /* suspect cells of one node and role re-measured */
#define MAX_RETEST_PAIRS 96 /* measurements per size: suspects and their healthy partners */
#define AUTO_BUDGET_FACTOR 2.0
#define AUTO_BUDGET_MIN_S 10.0

/* One measurement of the re-test: a pair alone (a -> b), or with a < 0 the whole round b again. */
typedef struct retest_pair {
    int a, b;
} retest_pair_t;

typedef struct retest_plan {
    retest_pair_t pair[MAX_RETEST_PAIRS];
    fp_cell_t cell[MAX_RETEST_PAIRS]; /* rank 0: measured; NAN: not (budget) */
    int count;
    int first[MAX_FINDINGS + 1]; /* finding i's measurements: [first[i], first[i + 1]), suspect then healthy */
} retest_plan_t;

/* Nodes named by a node finding: never a healthy partner. */
static int named(const fp_finding_t *found, size_t nfound, int node)
{
    for (size_t i = 0; i < nfound; i++)
        if (found[i].kind <= FP_FIND_NODE && found[i].a == node)
            return 1;
    return 0;
}

/* The nth healthy partner: a node other than x and y, not named by a finding; any other when too
 * few are. */
static int healthy_node(int n, int x, int y, int nth, const fp_finding_t *found, size_t nfound)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 1, seen = 0; k < n; k++) {
            int c = (x + k) % n;
            if (c != y && c != x && (pass || !named(found, nfound, c)) && seen++ == nth)
                return c;
        }
    return -1;
}

static void plan_add(retest_plan_t *p, int a, int b)
{
    if (p->count < MAX_RETEST_PAIRS)
        p->pair[p->count++] = (retest_pair_t){a, b};
}

/* suspect a -> b and its healthy partner: keep the end that the suspicion is not about. */
static void plan_cell(retest_plan_t *p, int n, int a, int b, int keep_receiver, int round_trip, int nth,
                      const fp_finding_t *found, size_t nfound)
{
    int c = healthy_node(n, keep_receiver ? a : b, keep_receiver ? b : a, nth, found, nfound);
    if (c < 0)
        c = healthy_node(n, keep_receiver ? a : b, keep_receiver ? b : a, 0, found, nfound);
    if (c < 0 || p->count + 2 > MAX_RETEST_PAIRS)
        return;
    int ha = keep_receiver ? c : a, hb = keep_receiver ? b : c;
    if (round_trip) { /* measured as the sweep did: the lower rank pings the higher */
        plan_add(p, a < b ? a : b, a < b ? b : a);
        plan_add(p, ha < hb ? ha : hb, ha < hb ? hb : ha);
        return;
    }
    plan_add(p, a, b);
    plan_add(p, ha, hb);
}

/* The typical round to run beside slow round r: the next one not found slow. */
static int reference_round(const fp_shifts_t *L, int r, const fp_finding_t *found, size_t nfound)
{
    for (size_t k = 1; k < L->nshifts; k++) {
        int q = (int)(((size_t)r + k) % L->nshifts), slow = 0;
        for (size_t i = 0; i < nfound; i++)
            slow |= found[i].kind == FP_FIND_ROUND && found[i].a == q;
        if (!slow)
            return q;
    }
    return -1;
}

static void plan_finding(retest_plan_t *p, const fp_shifts_t *L, const fp_finding_t *f, const fp_finding_t *found,
                         size_t nfound)
{
    int n = (int)L->n;
    if (f->kind == FP_FIND_ROUND) {
        int q = reference_round(L, f->a, found, nfound);
        for (int twice = 0; twice < 2 && q >= 0 && p->count + 2 <= MAX_RETEST_PAIRS; twice++) {
            plan_add(p, -1, f->a); /* twice: a transient must not hit both runs */
            plan_add(p, -1, q);
        }
        return;
    }
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) { /* one cell: measured twice */
        for (int twice = 0; twice < 2; twice++) {
            plan_cell(p, n, f->a, f->b, 0, f->round_trip, twice, found, nfound);
            if (f->kind == FP_FIND_LINK_BOTH && !f->round_trip)
                plan_cell(p, n, f->b, f->a, 0, 0, twice, found, nfound);
        }
        return;
    }
    /* a node: up to MAX_RECHECK of its cells per role, on the measured shifts */
    int roles = f->round_trip ? 1 : f->kind == FP_FIND_SENDER ? 1 : f->kind == FP_FIND_RECEIVER ? 2 : 3;
    for (size_t r = 0, done = 0; r < L->nshifts && done < MAX_RECHECK; r++, done++) {
        int k = (int)L->shift[r];
        if (roles & 1)
            plan_cell(p, n, f->a, (f->a + k) % n, 1, f->round_trip, 0, found, nfound);
        if (roles & 2)
            plan_cell(p, n, (f->a + n - k) % n, f->a, 0, 0, 0, found, nfound);
    }
}

/* Suspects by severity (most standardized effect first): the budget goes to the clearest. */
static int by_severity(const void *x, const void *y)
{
    double a = ((const fp_finding_t *)x)->z, b = ((const fp_finding_t *)y)->z;
    return (a > b) - (a < b);
}

/* Median, CI bounds of the medians of the cells of a round, gathered in all (4 per rank). */
static void round_cell(const double *all, size_t n, double out[4])
{
    double v[3][n + 1];
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(all[4 * i])) {
            v[0][m] = all[4 * i];
            v[1][m] = all[4 * i + 1];
            v[2][m++] = all[4 * i + 2];
        }
    for (int k = 0; k < 3; k++)
        out[k] = fp_median_finite(v[k], m);
    out[3] = (double)m;
}

/* Every rank: the plan's measurements while rank 0 says the budget allows. */
static int run_plan(fp_run_t *run, size_t bytes, retest_plan_t *p, double budget_s, double *spent_s, double *all)
{
    fp_ctx_t *ctx = &run->ctx;
    double start = MPI_Wtime();
    FP_MPI_CHECK(MPI_Bcast(&p->count, 1, MPI_INT, 0, ctx->comm));
    FP_MPI_CHECK(MPI_Bcast(p->pair, 2 * p->count, MPI_INT, 0, ctx->comm));
    for (int i = 0; i < p->count; i++)
        p->cell[i] = (fp_cell_t){NAN, NAN, NAN};
    for (int i = 0; i < p->count; i++) {
        int go = MPI_Wtime() - start < budget_s;
        FP_MPI_CHECK(MPI_Bcast(&go, 1, MPI_INT, 0, ctx->comm));
        if (!go)
            break;
        double cell[4];
        if (p->pair[i].a < 0) {
            FP_CHECK(fp_pairs_measure_shift(run, bytes, (size_t)p->pair[i].b, all));
            if (ctx->rank == 0)
                round_cell(all, (size_t)ctx->nranks, cell);
        } else {
            FP_CHECK(fp_pairs_measure_alone(run, bytes, p->pair[i].a, p->pair[i].b, all, cell));
        }
        if (ctx->rank == 0)
            p->cell[i] = (fp_cell_t){cell[0], cell[1], cell[2]};
    }
    *spent_s = MPI_Wtime() - start;
    return FP_OK;
}

/* Rank 0: finding i decided from its measurements (suspect, healthy, suspect, healthy...). */
static fp_retest_t decide(const fp_run_t *run, const retest_plan_t *p, int i, fp_cell_t *alone, fp_cell_t *healthy)
{
    fp_cell_t s[MAX_RETEST_PAIRS / 2], h[MAX_RETEST_PAIRS / 2], a_, h_;
    if (!alone)
        alone = &a_;
    if (!healthy)
        healthy = &h_;
    size_t m = 0;
    for (int k = p->first[i]; k + 1 < p->first[i + 1]; k += 2) {
        s[m] = p->cell[k];
        h[m++] = p->cell[k + 1];
    }
    int higher = fp_pairs_ctx((fp_ctx_t *)&run->ctx)->kind->quantity == FP_QTY_RATE;
    return fp_retest_decide(s, h, m, higher, run->params.pairs_min_effect, alone, healthy);
}

/* Whether a standing node (in every round) or a standing link of round f's shift explains it. */
static int round_explained(const fp_shifts_t *L, const fp_finding_t *f, const fp_finding_t *found,
                           const fp_retest_t *status, size_t nfound)
{
    for (size_t j = 0; j < nfound; j++) {
        const fp_finding_t *g = &found[j];
        if (status[j] != FP_RETEST_STANDS || g->kind == FP_FIND_ROUND)
            continue;
        if (g->kind <= FP_FIND_NODE)
            return 1;
        size_t there = ((size_t)g->b + L->n - (size_t)g->a) % L->n, back = L->n - there;
        if (there == (size_t)f->b || (g->kind == FP_FIND_LINK_BOTH && back == (size_t)f->b))
            return 1;
    }
    return 0;
}

static double budget_of(const fp_run_t *run, double sweep_s)
{
    double b = run->params.pairs_retest_s;
    return b >= 0 ? b : fmax(AUTO_BUDGET_MIN_S, AUTO_BUDGET_FACTOR * sweep_s);
}

/* The screen on rank 0: suspects sorted by severity and their re-test plan. */
static int screen(fp_run_t *run, fp_finding_t *found, size_t *nfound, fp_judge_summary_t *summary, retest_plan_t *p)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int isolated = run->params.pairs_mode == FP_PAIRS_ISOLATED;
    fp_judge_opts_t o = {.higher_is_better = pc->kind->quantity == FP_QTY_RATE,
                         .with_rounds = !isolated,
                         .round_trip = isolated && pc->kind->quantity == FP_QTY_LATENCY,
                         .min_effect = run->params.pairs_min_effect};
    if (fp_outliers_find(&pc->matrix.layout, pc->matrix.cells, &o, found, MAX_FINDINGS, nfound, summary) != 0)
        return fp_fail("out of memory judging the %zu x %zu matrix", pc->matrix.layout.n, pc->matrix.layout.n);
    *nfound = *nfound < MAX_FINDINGS ? *nfound : MAX_FINDINGS;
    qsort(found, *nfound, sizeof *found, by_severity);
    for (size_t i = 0; i < *nfound; i++) {
        p->first[i] = p->count;
        plan_finding(p, &pc->matrix.layout, &found[i], found, *nfound);
    }
    p->first[*nfound] = p->count;
    return FP_OK;
}

int fp_pairs_judge(fp_run_t *run, size_t bytes, double sweep_s, double *all, fp_pairs_verdict_t *v)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    static fp_finding_t found[MAX_FINDINGS];
    static retest_plan_t plan;
    fp_judge_summary_t summary;
    size_t nfound = 0;
    memset(v, 0, sizeof *v);
    plan.count = 0;
    v->budget_s = budget_of(run, sweep_s);
    if (run->ctx.rank == 0) /* a failure here ends the job (MPI_Abort): the others wait in run_plan */
        FP_CHECK(screen(run, found, &nfound, &summary, &plan));
    FP_CHECK(run_plan(run, bytes, &plan, v->budget_s, &v->spent_s, all));
    if (run->ctx.rank != 0)
        return FP_OK;
    v->decided = summary.decided;
    v->places = summary.places;
    v->suspects = nfound;
    snprintf(v->reason, sizeof v->reason, "%s", summary.reason);
    static fp_retest_t status[MAX_FINDINGS];
    for (size_t i = 0; i < nfound; i++)
        status[i] = plan.first[i + 1] > plan.first[i] ? decide(run, &plan, (int)i, NULL, NULL) : FP_RETEST_UNDECIDED;
    for (size_t i = 0; i < nfound; i++) {
        fp_cell_t alone, healthy;
        int planned = plan.first[i + 1] > plan.first[i];
        fp_retest_t r = planned ? decide(run, &plan, (int)i, &alone, &healthy) : FP_RETEST_UNDECIDED;
        if (!planned)
            alone = healthy = (fp_cell_t){NAN, NAN, NAN};
        int explained = r == FP_RETEST_STANDS && found[i].kind == FP_FIND_ROUND &&
                        round_explained(&pc->matrix.layout, &found[i], found, status, nfound);
        if (explained) /* the round is slow because a standing node or link is in it */
            r = FP_RETEST_CLEARED;
        v->stands += r == FP_RETEST_STANDS;
        v->cleared += r == FP_RETEST_CLEARED;
        v->undecided += r == FP_RETEST_UNDECIDED;
        v->unmeasured += planned && !(alone.median > 0);
        fp_pairs_emit_finding(run, bytes, &found[i], &alone, &healthy, r, planned);
        if (r == FP_RETEST_STANDS && v->stands == 1)
            fp_finding_format(&found[i], pc->name_list, fp_pairs_unit(run), v->first_line, sizeof v->first_line);
    }
    if (v->decided && v->unmeasured)
        snprintf(v->reason, sizeof v->reason, "re-test budget spent: %zu suspect(s) not re-measured", v->unmeasured);
    fp_pairs_emit_judge(run, bytes, v, &summary);
    return FP_OK;
}
