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
/* A link's cell is re-measured this many times, each beside another healthy partner, and stands
 * only when slow every time: one cell has no other cells to outvote a pair that happened to share
 * a core or a burst of other traffic for a moment (8 ranks on 2 cores: 1 clean sweep in 10 had
 * such a link stand with two runs). */
#define LINK_RUNS 3
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

/* The suspect uplinks of the sweep being judged (screen(), rank 0): a node's or link's re-test
 * keeps off the cells they carry, where an uplink's slowness would pass for the node's. */
static struct {
    const fp_uplink_tree_t *tree;
    const fp_uplink_finding_t *found;
    const fp_retest_t *status; /* their re-tests' outcomes, once decided */
    size_t count;
} suspect_uplinks;

static int on_suspect_uplink(int a, int b)
{
    for (size_t i = 0; i < suspect_uplinks.count; i++)
        if (fp_uplink_crosses(suspect_uplinks.tree, &suspect_uplinks.found[i], a, b))
            return 1;
    return 0;
}

/* Index + 1 of a suspect uplink not cleared (standing, or undecided: not excluded) that carries
 * a -> b, 0 when none. */
static int on_standing_uplink(int a, int b)
{
    for (size_t i = 0; i < suspect_uplinks.count; i++)
        if (suspect_uplinks.status[i] != FP_RETEST_CLEARED &&
            fp_uplink_crosses(suspect_uplinks.tree, &suspect_uplinks.found[i], a, b))
            return (int)i + 1;
    return 0;
}

/* a -> b measured as the sweep did: for round trips the lower rank pings the higher. */
static void plan_measure(retest_plan_t *p, int a, int b, int round_trip)
{
    plan_add(p, round_trip && b < a ? b : a, round_trip && b < a ? a : b);
}

/* suspect a -> b and its healthy partner: keep the end that the suspicion is not about; a partner
 * whose cell crosses no suspect uplink where one exists. */
static void plan_cell(retest_plan_t *p, int n, int a, int b, int keep_receiver, int round_trip, int nth,
                      const fp_finding_t *found, size_t nfound)
{
    int c = -1;
    for (int k = 0, skipped = 0; k < n && c < 0; k++) {
        int x = healthy_node(n, keep_receiver ? a : b, keep_receiver ? b : a, k, found, nfound);
        if (x >= 0 && (keep_receiver ? on_suspect_uplink(x, b) : on_suspect_uplink(a, x)))
            continue;
        if (x >= 0 && skipped++ == nth)
            c = x;
    }
    if (c < 0)
        c = healthy_node(n, keep_receiver ? a : b, keep_receiver ? b : a, nth, found, nfound);
    if (c < 0)
        c = healthy_node(n, keep_receiver ? a : b, keep_receiver ? b : a, 0, found, nfound);
    if (c < 0 || p->count + 2 > MAX_RETEST_PAIRS)
        return;
    plan_measure(p, a, b, round_trip);
    plan_measure(p, keep_receiver ? c : a, keep_receiver ? b : c, round_trip);
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
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) { /* one cell: LINK_RUNS times */
        for (int run = 0; run < LINK_RUNS; run++) {
            plan_cell(p, n, f->a, f->b, 0, f->round_trip, run, found, nfound);
            if (f->kind == FP_FIND_LINK_BOTH && !f->round_trip)
                plan_cell(p, n, f->b, f->a, 0, 0, run, found, nfound);
        }
        return;
    }
    /* a node: up to MAX_RECHECK of its cells per role, on the measured shifts, those that cross no
     * suspect uplink first (then any: a node whose every cell crosses one is re-tested all the same) */
    int roles = f->round_trip ? 1 : f->kind == FP_FIND_SENDER ? 1 : f->kind == FP_FIND_RECEIVER ? 2 : 3;
    for (int role = 1; role <= 2; role++) {
        if (!(roles & role))
            continue;
        size_t done = 0;
        for (int pass = 0; pass < 2 && done < MAX_RECHECK; pass++)
            for (size_t r = 0; r < L->nshifts && done < MAX_RECHECK; r++) {
                int k = (int)L->shift[r], a = role == 1 ? f->a : (f->a + n - k) % n, b = role == 1 ? (f->a + k) % n : f->a;
                if (on_suspect_uplink(a, b) != pass)
                    continue;
                plan_cell(p, n, a, b, role == 1, role == 1 && f->round_trip, 0, found, nfound);
                done++;
            }
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

static int is_link(const fp_finding_t *f)
{
    return f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH;
}

/* A link slow both ways whose re-test found one direction slow: that direction alone stands. */
static void keep_direction(fp_finding_t *f, int back)
{
    f->kind = FP_FIND_LINK;
    f->cells = f->confirmed = 1;
    if (back) {
        int a = f->a;
        f->a = f->b;
        f->b = a;
        f->median = f->median2, f->lo = f->lo2, f->hi = f->hi2;
    }
    f->median2 = f->lo2 = f->hi2 = NAN;
}

/* Rank 0: finding i decided from its measurements (suspect, healthy, suspect, healthy...); a link
 * stands only when every run of its cell was slow; a link slow both ways in the sweep has its two
 * directions decided apart (fp_retest_two_ways), and one slow direction makes it that one-way link. */
static fp_retest_t decide(const fp_run_t *run, const retest_plan_t *p, int i, fp_finding_t *f, fp_cell_t *alone,
                          fp_cell_t *healthy, int *confounded)
{
    fp_cell_t s[2][MAX_RETEST_PAIRS / 2], h[2][MAX_RETEST_PAIRS / 2];
    size_t m[2] = {0, 0}, clear = 0;
    int two_ways = f->kind == FP_FIND_LINK_BOTH && !f->round_trip;
    *confounded = 0;
    for (int k = p->first[i]; k + 1 < p->first[i + 1]; k += 2) {
        int d = two_ways && p->pair[k].a == f->b && p->pair[k].b == f->a; /* the way back's turn */
        s[d][m[d]] = p->cell[k];
        h[d][m[d]++] = p->cell[k + 1];
    }
    int higher = fp_pairs_ctx((fp_ctx_t *)&run->ctx)->kind->quantity == FP_QTY_RATE, ways;
    double min_effect = run->params.pairs_min_effect;
    if (f->kind <= FP_FIND_NODE) {
        /* A node's pair where one side crosses a suspect uplink not cleared and the other not
         * compares the uplink, not the node: decided on the others; with none left, it cannot be
         * told apart. */
        fp_cell_t cs[MAX_RETEST_PAIRS / 2], ch[MAX_RETEST_PAIRS / 2];
        for (int k = p->first[i]; k + 1 < p->first[i + 1]; k += 2)
            if (on_standing_uplink(p->pair[k].a, p->pair[k].b) == on_standing_uplink(p->pair[k + 1].a, p->pair[k + 1].b))
                cs[clear] = p->cell[k], ch[clear++] = p->cell[k + 1];
        if (clear)
            return fp_retest_decide(cs, ch, clear, higher, min_effect, 0, alone, healthy);
        if (m[0]) {
            fp_retest_t r = fp_retest_decide(s[0], h[0], m[0], higher, min_effect, 0, alone, healthy);
            *confounded = r == FP_RETEST_STANDS;
            return *confounded ? FP_RETEST_UNDECIDED : r;
        }
    }
    if (!two_ways)
        return fp_retest_decide(s[0], h[0], m[0], higher, min_effect, is_link(f), alone, healthy);
    const fp_cell_t *const sp[2] = {s[0], s[1]}, *const hp[2] = {h[0], h[1]};
    fp_retest_t r = fp_retest_two_ways(sp, hp, m, higher, min_effect, &ways, alone, healthy);
    if (ways == 1 || ways == 2)
        keep_direction(f, ways == 2);
    return r;
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

/* The round a slow round's re-run confirmed, split: each of its pairs measured alone (phase two of
 * the re-test), so that a link that slowed its whole round (its ranks wait on it while they send
 * and receive) is named, and a round slow only when all its pairs run at once stays a round. */
static void plan_round_cells(retest_plan_t *p, const fp_shifts_t *L, const fp_finding_t *f)
{
    for (size_t a = 0; a < L->n && p->count < MAX_RETEST_PAIRS; a++)
        plan_add(p, (int)a, (int)((a + (size_t)f->b) % L->n));
}

/* Rank 0: the links of round finding f, from its pairs measured alone in p[first, first + n): a
 * pair stands when slow against the pair of the round's median value alone (fp_retest_decide).
 * Returns how many stand (written to links, alone, ref); 0 when none does, or when more than half
 * do (then no pair is typical). */
static size_t round_links(const fp_run_t *run, const retest_plan_t *p, int first, const fp_finding_t *f,
                          fp_finding_t *links, fp_cell_t *alone, fp_cell_t *ref, int *all_fine, int *incomplete)
{
    *all_fine = 0;
    fp_pairs_ctx_t *pc = fp_pairs_ctx((fp_ctx_t *)&run->ctx);
    size_t n = pc->matrix.layout.n, m = 0, found = 0;
    double w[n + 1];
    for (size_t a = 0; a < n && first + (int)a < p->count; a++)
        if (p->cell[first + a].median > 0)
            w[m++] = p->cell[first + a].median;
    *incomplete = m < n; /* the budget ran out before every pair of the round was measured alone */
    if (m < FP_JUDGE_MIN_NODES)
        return 0;
    double mid = fp_median_finite(w, m);
    int higher = pc->kind->quantity == FP_QTY_RATE;
    const fp_cell_t *typical = NULL;
    for (size_t a = 0; a < n && first + (int)a < p->count; a++) {
        const fp_cell_t *c = &p->cell[first + a];
        if (c->median > 0 && (!typical || fabs(c->median - mid) < fabs(typical->median - mid)))
            typical = c;
    }
    for (size_t a = 0; a < n && first + (int)a < p->count; a++) {
        const fp_cell_t *c = &p->cell[first + a];
        fp_cell_t s_out, h_out;
        if (c == typical || !(c->median > 0) ||
            fp_retest_decide(c, typical, 1, higher, run->params.pairs_min_effect, 0, &s_out, &h_out) != FP_RETEST_STANDS)
            continue;
        size_t b = (a + (size_t)f->b) % n;
        const fp_cell_t *swept = fp_pairs_matrix_cell(&pc->matrix, a, b);
        fp_finding_t *l = &links[found];
        *l = (fp_finding_t){.kind = FP_FIND_LINK, .a = (int)a, .b = (int)b, .cells = 1, .confirmed = 1,
                            .of_round = f->a + 1, .z = NAN, .median2 = NAN, .lo2 = NAN, .hi2 = NAN};
        l->median = swept ? swept->median : NAN;
        l->lo = swept ? swept->lo : NAN;
        l->hi = swept ? swept->hi : NAN;
        l->typical = f->typical;
        alone[found] = s_out;
        ref[found++] = h_out;
    }
    /* every pair as fast alone as the sweep's typical cell: the round is slow only all at once */
    double ratio = mid / f->typical, floor = 1.0 - run->params.pairs_min_effect;
    *all_fine = !found && (higher ? ratio >= floor : ratio <= 1.0 / floor);
    return 2 * found > m ? 0 : found;
}

static double budget_of(const fp_run_t *run, double sweep_s)
{
    double b = run->params.pairs_retest_s;
    return b >= 0 ? b : fmax(AUTO_BUDGET_MIN_S, AUTO_BUDGET_FACTOR * sweep_s);
}

/* The uplinks of a sweep with --topology (uplink.h): suspects and their re-test plan. */
#define MAX_UPLINKS 16
#define UPLINK_PAIRS 3 /* pairs across a suspect uplink re-measured, each beside one inside its switch */
typedef struct uplinks {
    fp_uplink_tree_t tree;
    int *parent;
    fp_uplink_finding_t found[MAX_UPLINKS];
    size_t count;
    fp_uplink_summary_t summary;
    retest_plan_t plan;
    int first[MAX_UPLINKS + 1];
    fp_retest_t status[MAX_UPLINKS];
} uplinks_t;

/* Whether half or more of slow round f's cells cross suspect uplinks that their re-test decided
 * (slow alone, or congested by the sweep): the round is slow because of them. */
static int round_on_uplinks(const fp_shifts_t *L, const fp_finding_t *f, const uplinks_t *u)
{
    size_t n = L->n, across = 0;
    for (size_t a = 0; a < n; a++) {
        int b = (int)((a + (size_t)f->b) % n), hit = 0;
        for (size_t i = 0; i < u->count && !hit; i++)
            hit = u->status[i] != FP_RETEST_UNDECIDED && fp_uplink_crosses(&u->tree, &u->found[i], (int)a, b);
        across += hit;
    }
    return u->count && 2 * across >= n;
}

/* The k-th rank under (inside = 1) or outside switch x, cyclically; -1 when none. */
static int rank_at(const fp_uplink_tree_t *t, int n, int x, int inside, int k)
{
    int count = 0;
    for (int r = 0; r < n; r++)
        count += fp_uplink_under(t, r, x) == inside;
    if (!count)
        return -1;
    for (int r = 0, seen = 0; r < n; r++)
        if (fp_uplink_under(t, r, x) == inside && seen++ == k % count)
            return r;
    return -1;
}

/* Pairs across uplink f alone, each beside a pair inside its switch that keeps the crossing pair's
 * rank inside it: the sender for "up" (a -> b beside a -> c), the receiver for "down" (a -> b
 * beside c -> b), so that a slow node there slows both alike and clears the uplink. */
static void plan_uplink(retest_plan_t *p, int n, const fp_uplink_tree_t *t, const fp_uplink_finding_t *f,
                        int round_trip)
{
    int x = f->sw, down = f->dir == FP_UPLINK_DOWN;
    for (int k = 0; k < UPLINK_PAIRS && p->count + 2 <= MAX_RETEST_PAIRS; k++) {
        int in = rank_at(t, n, x, 1, k), out = rank_at(t, n, x, 0, k), other = rank_at(t, n, x, 1, k + 1);
        if (in < 0 || out < 0 || other < 0 || other == in)
            return;
        plan_measure(p, down ? out : in, down ? in : out, round_trip);
        plan_measure(p, down ? other : in, down ? in : other, round_trip);
    }
}

static int uplinks_screen(fp_run_t *run, const fp_judge_opts_t *o, uplinks_t *u)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    u->count = 0;
    u->plan.count = 0;
    memset(&u->summary, 0, sizeof u->summary);
    if (!pc->has_topology || !pc->switch_of)
        return FP_OK;
    size_t nsw = pc->topology.nsw;
    free(u->parent);
    if (!(u->parent = malloc((nsw + 1) * sizeof *u->parent)))
        return fp_fail("out of memory for the %zu switches of the topology", nsw);
    for (size_t s = 0; s < nsw; s++)
        u->parent[s] = pc->topology.sw[s].parent;
    u->tree = (fp_uplink_tree_t){pc->switch_of, u->parent, nsw};
    if (fp_uplinks_find(&pc->matrix.layout, pc->matrix.cells, o, &u->tree, u->found, MAX_UPLINKS, &u->count,
                        &u->summary) != 0)
        return fp_fail("out of memory judging the uplinks of the %zu x %zu matrix", pc->matrix.layout.n,
                       pc->matrix.layout.n);
    u->count = u->count < MAX_UPLINKS ? u->count : MAX_UPLINKS;
    for (size_t i = 0; i < u->count; i++) {
        u->first[i] = u->plan.count;
        plan_uplink(&u->plan, (int)pc->matrix.layout.n, &u->tree, &u->found[i], o->round_trip);
    }
    u->first[u->count] = u->plan.count;
    return FP_OK;
}

/* Whether link f's cell crosses an uplink that stands; carried gets "carried by the slow uplink of
 * SWITCH". */
static int link_on_uplink(const fp_finding_t *f, const uplinks_t *u, const fp_topology_t *t, char *carried,
                          size_t len)
{
    for (size_t i = 0; i < u->count; i++)
        if (u->status[i] == FP_RETEST_STANDS && fp_uplink_crosses(&u->tree, &u->found[i], f->a, f->b)) {
            snprintf(carried, len, "carried by the slow uplink of %s", t->sw[u->found[i].sw].name);
            return 1;
        }
    return 0;
}

/* Whether slow round f puts two flows or more on one switch's uplink in one direction (the busiest
 * such uplink said in why: "congestion of the uplink of leaf1: the round put 3 flows on it at
 * once, each pair as fast alone as the typical cell"). */
static int round_congests(const fp_shifts_t *L, const fp_finding_t *f, const uplinks_t *u, const fp_topology_t *t,
                          char *why, size_t len)
{
    size_t n = L->n, best = 0;
    int best_sw = -1;
    for (size_t x = 0; x < u->tree.nsw; x++) {
        if (u->tree.parent[x] < 0)
            continue;
        size_t flows[2] = {0, 0};
        for (size_t a = 0; a < n; a++) {
            int b = (int)((a + (size_t)f->b) % n), ua = fp_uplink_under(&u->tree, (int)a, (int)x),
                ub = fp_uplink_under(&u->tree, b, (int)x);
            flows[0] += ua && !ub;
            flows[1] += !ua && ub;
        }
        for (int d = 0; d < 2; d++)
            if (flows[d] > best)
                best = flows[d], best_sw = (int)x;
    }
    if (best < 2)
        return 0;
    snprintf(why, len, "congestion of the uplink of %s: the round put %zu flows on it at once", t->sw[best_sw].name,
             best);
    return 1;
}

/* Rank 0: each suspect uplink decided from its pairs alone and said. */
static void uplinks_decide(fp_run_t *run, size_t bytes, uplinks_t *u, fp_pairs_verdict_t *v)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int higher = pc->kind->quantity == FP_QTY_RATE;
    for (size_t i = 0; i < u->count; i++) {
        fp_cell_t s[UPLINK_PAIRS], h[UPLINK_PAIRS], alone = {NAN, NAN, NAN}, healthy = {NAN, NAN, NAN};
        size_t m = 0;
        for (int k = u->first[i]; k + 1 < u->first[i + 1] && m < UPLINK_PAIRS; k += 2)
            s[m] = u->plan.cell[k], h[m++] = u->plan.cell[k + 1];
        int planned = m > 0;
        fp_retest_t r = planned ? fp_retest_decide(s, h, m, higher, run->params.pairs_min_effect, 0, &alone, &healthy)
                                : FP_RETEST_UNDECIDED;
        u->status[i] = r;
        v->suspects++;
        v->stands += r == FP_RETEST_STANDS;
        v->cleared += r == FP_RETEST_CLEARED;
        v->undecided += r == FP_RETEST_UNDECIDED;
        v->unmeasured += planned && !(alone.median > 0);
        fp_pairs_emit_uplink(run, bytes, &u->tree, &u->found[i], &alone, &healthy, r, planned);
        if (r == FP_RETEST_STANDS && v->stands == 1)
            fp_pairs_uplink_line(pc, &u->found[i], fp_pairs_unit(run), v->first_line, sizeof v->first_line);
    }
}

/* Medians of the cells' medians and bounds over finding f's cells in `cells` (the measured ones:
 * the screen saw them corrected for the suspect uplinks, the finding says what was measured). */
static void measured_values(const fp_shifts_t *L, const fp_cell_t *cells, fp_finding_t *f)
{
    size_t n = L->n, m = 0, m2 = 0, cap = 2 * n + 2; /* a node's row and column at most */
    double w[3][4];
    double *v0 = malloc(3 * cap * sizeof(double)), *v[3] = {v0, v0 + cap, v0 + 2 * cap};
    if (!v0)
        return; /* the corrected values stay: the finding's line is still right in its ratio */
    for (size_t r = 0; r < L->nshifts; r++)
        for (size_t a = 0; a < n; a++) {
            const fp_cell_t *c = &cells[r * n + a];
            int b = (int)((a + L->shift[r]) % n), sa = f->a == (int)a, rb = f->a == b, in;
            switch (f->kind) {
            case FP_FIND_SENDER: in = sa; break;
            case FP_FIND_RECEIVER: in = rb; break;
            case FP_FIND_NODE: in = sa || rb; break;
            case FP_FIND_ROUND: in = (int)L->shift[r] == f->b; break;
            default: in = sa && b == f->b; break;
            }
            if (!(c->median > 0))
                continue;
            if (in && m < cap)
                v[0][m] = c->median, v[1][m] = c->lo, v[2][m++] = c->hi;
            if (f->kind == FP_FIND_LINK_BOTH && f->b == (int)a && b == f->a && m2 < 4)
                w[0][m2] = c->median, w[1][m2] = c->lo, w[2][m2++] = c->hi;
        }
    if (m) {
        f->median = fp_median_finite(v[0], m);
        f->lo = fp_median_finite(v[1], m);
        f->hi = fp_median_finite(v[2], m);
    }
    if (m2) {
        f->median2 = fp_median_finite(w[0], m2);
        f->lo2 = fp_median_finite(w[1], m2);
        f->hi2 = fp_median_finite(w[2], m2);
    }
    free(v0);
}

/* The screen on rank 0: suspects sorted by severity and their re-test plan. */
static int screen(fp_run_t *run, fp_finding_t *found, size_t *nfound, fp_judge_summary_t *summary, retest_plan_t *p,
                  uplinks_t *u)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int isolated = run->params.pairs_mode == FP_PAIRS_ISOLATED;
    fp_judge_opts_t o = {.higher_is_better = pc->kind->quantity == FP_QTY_RATE,
                         .with_rounds = !isolated,
                         .round_trip = isolated && pc->kind->quantity == FP_QTY_LATENCY,
                         .min_effect = run->params.pairs_min_effect};
    const fp_cell_t *cells = pc->matrix.cells;
    fp_cell_t *corrected = NULL;
    if (uplinks_screen(run, &o, u) != FP_OK)
        return FP_ERR;
    suspect_uplinks.tree = &u->tree;
    suspect_uplinks.found = u->found;
    suspect_uplinks.status = u->status;
    suspect_uplinks.count = u->count;
    if (u->count) { /* the nodes judged on what the suspect uplinks do not explain */
        size_t ncells = pc->matrix.layout.n * pc->matrix.layout.nshifts;
        if (!(corrected = malloc((ncells + 1) * sizeof *corrected)))
            return fp_fail("out of memory for the %zu cells of the matrix", ncells);
        memcpy(corrected, cells, ncells * sizeof *corrected);
        fp_uplink_correct(&pc->matrix.layout, corrected, &u->tree, u->found, u->count);
        cells = corrected;
    }
    int rc = fp_outliers_find(&pc->matrix.layout, cells, &o, found, MAX_FINDINGS, nfound, summary);
    for (size_t i = 0; corrected && rc == 0 && i < *nfound && i < MAX_FINDINGS; i++)
        measured_values(&pc->matrix.layout, pc->matrix.cells, &found[i]);
    free(corrected);
    if (rc != 0)
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
    static retest_plan_t split;
    static int split_first[MAX_FINDINGS];
    static uplinks_t up;
    double spent2 = 0.0, spent_up = 0.0;
    up.plan.count = 0;
    up.count = 0;
    if (run->ctx.rank == 0) /* a failure here ends the job (MPI_Abort): the others wait in run_plan */
        FP_CHECK(screen(run, found, &nfound, &summary, &plan, &up));
    FP_CHECK(run_plan(run, bytes, &up.plan, v->budget_s, &spent_up, all)); /* the uplinks first: */
    FP_CHECK(run_plan(run, bytes, &plan, v->budget_s - spent_up, &v->spent_s, all)); /* they explain nodes */
    v->spent_s += spent_up;
    if (run->ctx.rank != 0) /* phase two, planned by rank 0 below */
        return run_plan(run, bytes, &split, v->budget_s - v->spent_s, &spent2, all);
    v->uplinks = pc->has_topology;
    v->uplinks_judged = up.summary.judged;
    v->uplinks_unjudged = up.summary.unjudged;
    uplinks_decide(run, bytes, &up, v);
    v->decided = summary.decided;
    v->places = summary.places;
    v->suspects += nfound;
    snprintf(v->reason, sizeof v->reason, "%s", summary.reason);
    int higher = pc->kind->quantity == FP_QTY_RATE;
    static fp_retest_t status[MAX_FINDINGS];
    static int confounded[MAX_FINDINGS]; /* a node re-tested only across an uplink not cleared */
    static fp_cell_t alone[MAX_FINDINGS], healthy[MAX_FINDINGS];
    for (size_t i = 0; i < nfound; i++) {
        alone[i] = healthy[i] = (fp_cell_t){NAN, NAN, NAN};
        confounded[i] = 0;
        status[i] = plan.first[i + 1] > plan.first[i] ? decide(run, &plan, (int)i, &found[i], &alone[i], &healthy[i],
                                                               &confounded[i])
                                                      : FP_RETEST_UNDECIDED;
    }
    /* phase two: the pairs of every confirmed round that no standing element explains, alone */
    split.count = 0;
    for (size_t i = 0; i < nfound; i++) {
        split_first[i] = -1;
        if (found[i].kind == FP_FIND_ROUND && status[i] == FP_RETEST_STANDS &&
            !round_explained(&pc->matrix.layout, &found[i], found, status, nfound) &&
            !round_on_uplinks(&pc->matrix.layout, &found[i], &up) &&
            split.count + (int)pc->matrix.layout.n <= MAX_RETEST_PAIRS) {
            split_first[i] = split.count;
            plan_round_cells(&split, &pc->matrix.layout, &found[i]);
        }
    }
    FP_CHECK(run_plan(run, bytes, &split, v->budget_s - v->spent_s, &spent2, all));
    v->spent_s += spent2;
    for (size_t i = 0; i < nfound; i++) {
        int planned = plan.first[i + 1] > plan.first[i];
        fp_retest_t r = status[i];
        int explained = r != FP_RETEST_CLEARED && found[i].kind == FP_FIND_ROUND &&
                        (round_explained(&pc->matrix.layout, &found[i], found, status, nfound) ||
                         round_on_uplinks(&pc->matrix.layout, &found[i], &up));
        fp_finding_t links[MAX_RETEST_PAIRS];
        fp_cell_t links_alone[MAX_RETEST_PAIRS], links_ref[MAX_RETEST_PAIRS];
        int all_fine = 0, incomplete = 1;
        size_t nlinks = split_first[i] >= 0 ? round_links(run, &split, split_first[i], &found[i], links,
                                                          links_alone, links_ref, &all_fine, &incomplete)
                                            : 0;
        char congestion[FP_TOPO_NAME + 260] = "";
        if (r == FP_RETEST_STANDS && (all_fine || (incomplete && !nlinks && !explained)) && pc->has_topology &&
            up.tree.parent &&
            round_congests(&pc->matrix.layout, &found[i], &up, &pc->topology, congestion, sizeof congestion)) {
            size_t at = strlen(congestion);
            if (all_fine) { /* slow only all at once, through an uplink it loads: congestion */
                r = FP_RETEST_CLEARED;
                snprintf(congestion + at, sizeof congestion - at, ", each pair as fast alone as the typical cell");
            } else { /* its pairs not all measured alone: congestion not told from a slow round */
                r = FP_RETEST_UNDECIDED;
                snprintf(congestion + at, sizeof congestion - at,
                         ", not ruled out: its pairs were not all re-measured alone (re-test budget)");
            }
        }
        if (explained || nlinks) /* the round is slow because a standing node or link is in it */
            r = FP_RETEST_CLEARED;
        double floor = 1.0; /* a link within a too-noisy matrix's noise does not stand */
        if (r == FP_RETEST_STANDS && is_link(&found[i]) && fp_retest_within_noise(&alone[i], &healthy[i], higher,
                                                                                    summary.link_floor))
            r = FP_RETEST_UNDECIDED, floor = summary.link_floor;
        char carried[FP_TOPO_NAME + 200] = "";
        int on_uplink = r == FP_RETEST_STANDS && is_link(&found[i]) &&
                        link_on_uplink(&found[i], &up, &pc->topology, carried, sizeof carried);
        if (on_uplink) /* a link across a slow uplink: the uplink's slowness, not its own */
            r = FP_RETEST_CLEARED;
        if (confounded[i])
            snprintf(carried, sizeof carried, "its cells re-measured cross a slow or undecided uplink: not told apart from it");
        if (congestion[0])
            snprintf(carried, sizeof carried, "%s", congestion), on_uplink = 1;
        on_uplink |= confounded[i];
        v->stands += r == FP_RETEST_STANDS;
        v->cleared += r == FP_RETEST_CLEARED;
        v->undecided += r == FP_RETEST_UNDECIDED;
        v->unmeasured += planned && !(alone[i].median > 0);
        fp_pairs_emit_finding(run, bytes, &found[i], &alone[i], &healthy[i], r, planned, floor,
                              on_uplink ? carried : NULL);
        if (r == FP_RETEST_STANDS && v->stands == 1)
            fp_finding_format(&found[i], pc->name_list, fp_pairs_unit(run), v->first_line, sizeof v->first_line);
        for (size_t k = 0; k < nlinks; k++) { /* the links that slowed round i, each alone */
            int noise = fp_retest_within_noise(&links_alone[k], &links_ref[k], higher, summary.link_floor);
            v->stands += !noise;
            v->undecided += noise;
            fp_pairs_emit_finding(run, bytes, &links[k], &links_alone[k], &links_ref[k],
                                  noise ? FP_RETEST_UNDECIDED : FP_RETEST_STANDS, 1, noise ? summary.link_floor : 1.0,
                                  NULL);
            if (!noise && v->stands == 1)
                fp_finding_format(&links[k], pc->name_list, fp_pairs_unit(run), v->first_line,
                                  sizeof v->first_line);
        }
    }
    if (v->decided && v->unmeasured)
        snprintf(v->reason, sizeof v->reason, "re-test budget spent: %zu suspect(s) not re-measured", v->unmeasured);
    fp_pairs_emit_judge(run, bytes, v, &summary);
    return FP_OK;
}
