/* The all-pairs sweep of one size: rounds of pairs measured at once (or one pair at a time), each
 * rank's own samples making its cell as sender, gathered by rank 0 round by round and streamed;
 * then the judgement, suspects re-measured alone, --expect per cell, and the size's row. Memory:
 * one round of cells on rank 0 while gathering, plus the store of the measured shifts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"
#include "pairs.h"

#define MAX_FINDINGS 256
#define MAX_RECHECK 3      /* cells of a suspect node re-measured alone */
#define MAX_RECHECK_ALL 64 /* cells re-measured per size */
#define MAX_THRESHOLD_LINES 20

/* This rank's cell as sender after a measurement: median, CI and sample count (NAN: sent nothing). */
static void own_cell(fp_run_t *run, size_t bytes, long batch, size_t n, double cell[4])
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    cell[0] = cell[1] = cell[2] = NAN;
    cell[3] = (double)n;
    if (pc->send_to < 0 || n == 0)
        return;
    fp_stats_t s;
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= 1e6 / (double)batch; /* us per operation */
    fp_stats_compute(run->samples, n, &s);
    if (pc->kind->quantity == FP_QTY_LATENCY) { /* half a round trip */
        cell[0] = s.p50 / 2;
        cell[1] = s.p50_lo / 2;
        cell[2] = s.p50_hi / 2;
    } else { /* MB/s: bytes per us */
        double moved = (double)bytes * (double)run->ctx.window;
        cell[0] = moved / s.p50;
        cell[1] = moved / s.p50_hi;
        cell[2] = moved / s.p50_lo;
    }
}

/* Samples this round's partners; rank 0 gets every rank's cell into all (4 n doubles). */
static int measure_round(fp_run_t *run, size_t bytes, double *all)
{
    long batch = 0;
    size_t n;
    int met;
    double cell[4];
    fp_guard_arm(bytes, run->plan.timeout_s, "--timeout"); /* the limit holds per round */
    FP_CHECK(fp_sample_size(run, bytes, &batch, &n, &met));
    own_cell(run, bytes, batch, n, cell);
    FP_MPI_CHECK(MPI_Gather(cell, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, run->ctx.comm));
    return FP_OK;
}

static void set_partners(fp_ctx_t *ctx, int send_to, int recv_from)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    pc->send_to = send_to;
    pc->recv_from = recv_from;
    ctx->peer = send_to >= 0 ? send_to : recv_from;
}

static void store_cell(fp_pairs_matrix_t *m, size_t a, size_t b, const double *c)
{
    fp_cell_t *cell = fp_pairs_matrix_cell(m, a, b);
    if (!cell)
        return;
    *cell = (fp_cell_t){c[0], c[1], c[2]};
    m->samples[cell - m->cells] = c[3];
}

/* Shift rounds: every rank sends to rank + k and receives from rank - k, all at once. */
static int sweep_shifts(fp_run_t *run, size_t bytes, double *all)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_matrix_t *m = &fp_pairs_ctx(ctx)->matrix;
    size_t n = (size_t)ctx->nranks;
    for (size_t r = 0; r < m->layout.nshifts; r++) {
        size_t k = m->layout.shift[r];
        set_partners(ctx, (int)(((size_t)ctx->rank + k) % n), (int)(((size_t)ctx->rank + n - k) % n));
        FP_CHECK(measure_round(run, bytes, all));
        if (ctx->rank != 0)
            continue;
        for (size_t i = 0; i < n; i++)
            store_cell(m, i, (i + k) % n, &all[4 * i]);
        fp_pairs_emit_round(run, bytes, r, all);
    }
    return FP_OK;
}

/* One pair alone, a -> b (latency: a pings b); the others take part in the sampler's barriers
 * only. Rank 0 gets a's cell into cell[4]. */
static int measure_alone(fp_run_t *run, size_t bytes, int a, int b, double *all, double cell[4])
{
    fp_ctx_t *ctx = &run->ctx;
    set_partners(ctx, ctx->rank == a ? b : -1, ctx->rank == b ? a : -1);
    FP_CHECK(measure_round(run, bytes, all));
    if (ctx->rank == 0)
        memcpy(cell, &all[4 * a], 4 * sizeof(double));
    return FP_OK;
}

/* Isolated mode: every ordered pair (latency: every unordered pair, both cells the same). */
static int sweep_isolated(fp_run_t *run, size_t bytes, double *all)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    size_t n = (size_t)ctx->nranks;
    int unordered = pc->kind->quantity == FP_QTY_LATENCY;
    for (size_t s = 0; s < fp_pairs_isolated_steps(n, unordered); s++) {
        size_t a, b;
        double cell[4];
        fp_pairs_isolated_pair(n, unordered, s, &a, &b);
        FP_CHECK(measure_alone(run, bytes, (int)a, (int)b, all, cell));
        if (ctx->rank != 0)
            continue;
        store_cell(&pc->matrix, a, b, cell);
        if (unordered)
            store_cell(&pc->matrix, b, a, cell);
    }
    return FP_OK;
}

/* Up to max cells behind a finding: the link's cell(s), or a few of the node's row / column. */
static size_t suspect_cells(const fp_pairs_matrix_t *m, const fp_finding_t *f, int *pairs, size_t max)
{
    size_t count = 0, n = m->layout.n;
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) {
        pairs[count * 2] = f->a, pairs[count * 2 + 1] = f->b, count++;
        if (f->kind == FP_FIND_LINK_BOTH && count < max)
            pairs[count * 2] = f->b, pairs[count * 2 + 1] = f->a, count++;
        return count;
    }
    int as_sender = f->kind != FP_FIND_RECEIVER, as_receiver = f->kind != FP_FIND_SENDER;
    for (size_t r = 0; r < m->layout.nshifts && count + as_sender + as_receiver <= max; r++) {
        size_t k = m->layout.shift[r], other_out = ((size_t)f->a + k) % n, other_in = ((size_t)f->a + n - k) % n;
        if (as_sender)
            pairs[count * 2] = f->a, pairs[count * 2 + 1] = (int)other_out, count++;
        if (as_receiver)
            pairs[count * 2] = (int)other_in, pairs[count * 2 + 1] = f->a, count++;
        if (count >= MAX_RECHECK * (size_t)(as_sender + as_receiver))
            break;
    }
    return count;
}

/* A finding stands in isolation when most re-measured cells still lie wholly on the bad side of
 * the midpoint (geometric mean) of the value the sweep measured and the value the matrix predicted:
 * a cell that recovers more than half-way when alone was slowed by the sweep's other traffic.
 * isolated[] gets the medians of their medians and bounds. */
static int stands_alone(const fp_pairs_ctx_t *pc, const fp_finding_t *f, const double *cells, const int *pairs,
                        size_t count, int role, fp_cell_t *isolated)
{
    double med[2 * MAX_RECHECK + 2], lo[2 * MAX_RECHECK + 2], hi[2 * MAX_RECHECK + 2];
    size_t bad = 0, m = 0;
    int higher = pc->kind->quantity == FP_QTY_BANDWIDTH;
    double midpoint = sqrt(f->typical * f->median);
    for (size_t i = 0; i < count; i++) {
        const double *c = &cells[4 * i];
        if (!((role & 1) && pairs[2 * i] == f->a) && !((role & 2) && pairs[2 * i + 1] == f->a) && role != 3)
            continue;
        med[m] = c[0], lo[m] = c[1], hi[m++] = c[2];
        bad += higher ? c[2] < midpoint : c[1] > midpoint;
    }
    isolated->median = fp_median_finite(med, m);
    isolated->lo = fp_median_finite(lo, m);
    isolated->hi = fp_median_finite(hi, m);
    return m > 0 && 2 * bad > m;
}

/* A node slow both ways is re-judged per direction: the one that recovers alone is dropped. */
static int node_stands_alone(const fp_pairs_ctx_t *pc, fp_finding_t *f, const double *cells, const int *pairs,
                             size_t count, fp_cell_t *isolated)
{
    if (f->kind != FP_FIND_NODE)
        return stands_alone(pc, f, cells, pairs, count, 3, isolated);
    fp_cell_t as_sender, as_receiver;
    int s = stands_alone(pc, f, cells, pairs, count, 1, &as_sender);
    int r = stands_alone(pc, f, cells, pairs, count, 2, &as_receiver);
    if (s != r)
        f->kind = s ? FP_FIND_SENDER : FP_FIND_RECEIVER;
    *isolated = s || !r ? as_sender : as_receiver;
    return s || r;
}

/* Every rank: rank 0's suspects of this size re-measured one pair at a time; returns on rank 0
 * the cells into out (4 per pair). pairs: 2 per suspect, significant on rank 0. */
static int recheck(fp_run_t *run, size_t bytes, int *pairs, int count, double *out, double *all)
{
    FP_MPI_CHECK(MPI_Bcast(&count, 1, MPI_INT, 0, run->ctx.comm));
    FP_MPI_CHECK(MPI_Bcast(pairs, 2 * count, MPI_INT, 0, run->ctx.comm));
    for (int i = 0; i < count; i++)
        FP_CHECK(measure_alone(run, bytes, pairs[2 * i], pairs[2 * i + 1], all, &out[4 * i]));
    return FP_OK;
}

/* Rank 0: the judgement of the matrix; every rank: the re-measurement of its suspects. */
static int judge(fp_run_t *run, size_t bytes, double *all)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    static fp_finding_t found[MAX_FINDINGS];
    int pairs[2 * MAX_RECHECK_ALL], first[MAX_FINDINGS + 1];
    double cells[4 * MAX_RECHECK_ALL];
    size_t nfound = 0, total = 0;
    int alone = run->params.pairs_mode == FP_PAIRS_ISOLATED;
    if (run->ctx.rank == 0) {
        if (fp_outliers_find(&pc->matrix.layout, pc->matrix.cells, pc->kind->quantity == FP_QTY_BANDWIDTH, found,
                             MAX_FINDINGS, &nfound) != 0)
            return fp_fail("out of memory judging the %zu x %zu matrix", pc->matrix.layout.n, pc->matrix.layout.n);
        nfound = nfound < MAX_FINDINGS ? nfound : MAX_FINDINGS;
        for (size_t i = 0; i < nfound; i++) {
            first[i] = (int)total;
            if (!alone)
                total += suspect_cells(&pc->matrix, &found[i], pairs + 2 * total, MAX_RECHECK_ALL - total);
        }
        first[nfound] = (int)total;
    }
    FP_CHECK(recheck(run, bytes, pairs, (int)total, cells, all));
    for (size_t i = 0; run->ctx.rank == 0 && i < nfound; i++) {
        fp_cell_t isolated;
        size_t count = (size_t)(first[i + 1] - first[i]);
        int cleared = count > 0 &&
                      !node_stands_alone(pc, &found[i], cells + 4 * first[i], pairs + 2 * first[i], count, &isolated);
        fp_pairs_emit_finding(run, bytes, &found[i], count ? &isolated : NULL, cleared);
        if (!cleared && pc->expect.uniform)
            run->expect_failed = 1;
    }
    return FP_OK;
}

/* Rank 0: every measured cell against the thresholds that apply to this size. */
static void check_thresholds(fp_run_t *run, size_t bytes)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    fp_pairs_matrix_t *m = &pc->matrix;
    size_t n = m->layout.n, printed = 0, failed = 0;
    for (size_t e = 0; e < pc->expect.count; e++) {
        const fp_expect_item_t *item = &pc->expect.item[e];
        if (!fp_expect_applies(item, pc->kind->quantity, bytes))
            continue;
        for (size_t k = 0; k < n * m->layout.nshifts; k++) {
            const fp_cell_t *c = &m->cells[k];
            if (isnan(c->median) || fp_expect_verdict(item, c->lo, c->hi) != FP_VERDICT_FAIL)
                continue;
            failed++;
            if (printed++ < MAX_THRESHOLD_LINES)
                fp_pairs_emit_threshold(run, bytes, item, k % n, (k % n + m->layout.shift[k / n]) % n, c);
        }
    }
    if (failed) {
        run->expect_failed = 1;
        if (failed > MAX_THRESHOLD_LINES)
            fp_pairs_emit_threshold(run, bytes, NULL, failed, 0, NULL);
    }
}

/* Rank 0: the size's row from the cells' medians (its samples: the cells). */
static int fill_row(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    fp_pairs_matrix_t *m = &pc->matrix;
    size_t total = m->layout.n * m->layout.nshifts, n = 0;
    double *t = malloc((total + 1) * sizeof *t);
    if (!t)
        return fp_fail("malloc of %zu cells failed", total);
    double moved = (double)bytes * (double)run->ctx.window;
    int bw = pc->kind->quantity == FP_QTY_BANDWIDTH;
    for (size_t k = 0; k < total; k++)
        if (isfinite(m->cells[k].median) && m->cells[k].median > 0)
            t[n++] = bw ? moved / m->cells[k].median : m->cells[k].median; /* us per operation */
    if (n)
        fp_stats_compute(t, n, &row->time);
    free(t);
    if (!n)
        return FP_OK;
    row->osu = bw ? moved / row->time.mean : row->time.mean;
    row->headline = bw ? (fp_estimate_t){moved / row->time.p50, moved / row->time.p50_hi, moved / row->time.p50_lo}
                       : (fp_estimate_t){row->time.p50, row->time.p50_lo, row->time.p50_hi};
    return FP_OK;
}

int fp_pairs_sweep(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    size_t n = (size_t)ctx->nranks, nshifts;
    size_t *shifts = malloc(n * sizeof *shifts);
    double *all = ctx->rank == 0 ? malloc(4 * n * sizeof *all) : NULL;
    int rc = shifts && (ctx->rank != 0 || all) ? FP_OK : fp_fail("malloc for a round of %zu cells failed", n);
    nshifts = fp_pairs_shifts((fp_pairs_mode_t)run->params.pairs_mode, n, (size_t)run->params.pairs_rounds, shifts);
    if (rc == FP_OK)
        rc = fp_pairs_matrix_open(&pc->matrix, n, shifts, nshifts, ctx->rank == 0);
    free(shifts);
    rc = fp_agree(ctx->comm, rc, (char[2]){0}, 1) == FP_OK ? FP_OK : FP_ERR;
    memset(row, 0, sizeof *row);
    row->size = bytes;
    row->check = -1;
    row->target_met = -1;
    row->staged = run->params.staging;
    if (rc == FP_OK)
        rc = run->params.pairs_mode == FP_PAIRS_ISOLATED ? sweep_isolated(run, bytes, all) : sweep_shifts(run, bytes, all);
    if (rc == FP_OK && ctx->rank == 0)
        fp_pairs_emit_matrix(run, bytes);
    if (rc == FP_OK)
        rc = judge(run, bytes, all);
    if (rc == FP_OK && ctx->rank == 0) {
        check_thresholds(run, bytes);
        rc = fill_row(run, bytes, row);
    }
    fp_pairs_matrix_close(&pc->matrix);
    free(all);
    return rc;
}
