/* The all-pairs sweep of one size: rounds of pairs measured at once (or one pair at a time), each
 * rank's own samples making its cell as sender, gathered by rank 0 round by round and streamed;
 * then the judgement (pairs_judge.c), --expect per cell, and the size's row. Memory:
 * one round of cells on rank 0 while gathering, plus the store of the measured shifts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "guard.h"
#include "pairs.h"

#define MAX_THRESHOLD_LINES 20

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
        fp_link_set_t links = {0};
        if (run->path) /* the link counters around each round, outside its timed region */
            FP_CHECK(fp_path_part_begin(run->path));
        FP_CHECK(fp_pairs_measure_shift(run, bytes, r, all));
        if (run->path)
            FP_CHECK(fp_path_part_end(run->path, run, &links));
        if (ctx->rank != 0)
            continue;
        for (size_t i = 0; i < n; i++)
            store_cell(m, i, (i + k) % n, &all[4 * i]);
        fp_pairs_emit_round(run, bytes, r, all);
        fp_pairs_emit_round_links(run, bytes, r, &links);
    }
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
        FP_CHECK(fp_pairs_measure_alone(run, bytes, (int)a, (int)b, all, cell));
        if (ctx->rank != 0)
            continue;
        store_cell(&pc->matrix, a, b, cell);
        if (unordered)
            store_cell(&pc->matrix, b, a, cell);
    }
    return FP_OK;
}

/* Rank 0: every measured cell judged by fp_expect_judge against the thresholds of this size; a
 * failed cell gets a line. *size_j: the worst cell's verdict, the terms, counts in its reason. */
static void judge_cells(fp_run_t *run, size_t bytes, fp_judgement_t *size_j)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    fp_pairs_matrix_t *m = &pc->matrix;
    size_t n = m->layout.n, count[FP_VERDICT_FAIL + 1] = {0}, judged = 0;
    double line = fp_line_rate_in_unit(run->bench, run->params.line_rate_bps);
    for (size_t k = 0; k < n * m->layout.nshifts; k++) {
        const fp_cell_t *c = &m->cells[k];
        fp_judgement_t j;
        int ci = fp_pairs_cell_has_ci(m->samples[k]);
        if (isnan(c->median) || fp_expect_judge(&run->params.expect, bytes, pc->kind->quantity, ci ? c->lo : NAN,
                                                c->median, ci ? c->hi : NAN, line, &j) == FP_VERDICT_NONE)
            continue;
        if (judged++ == 0 || j.verdict > size_j->verdict)
            *size_j = j;
        if (++count[j.verdict] <= MAX_THRESHOLD_LINES && j.verdict == FP_VERDICT_FAIL)
            fp_pairs_emit_threshold(run, bytes, &j, k % n, (k % n + m->layout.shift[k / n]) % n, c);
    }
    if (count[FP_VERDICT_FAIL] > MAX_THRESHOLD_LINES)
        fp_pairs_emit_threshold(run, bytes, NULL, count[FP_VERDICT_FAIL], 0, NULL);
    if (judged) {
        char why[sizeof size_j->reason]; /* the worst cell's own reason ("line rate unknown"), kept */
        snprintf(why, sizeof why, "%s", size_j->reason);
        snprintf(size_j->reason, sizeof size_j->reason, "cells: %zu fail, %zu inconclusive, %zu pass of %zu%s%.100s",
                 count[FP_VERDICT_FAIL], count[FP_VERDICT_INCONCLUSIVE], count[FP_VERDICT_PASS], judged,
                 why[0] ? "; " : "", why);
    }
}

/* Rank 0: "uniform" at this size: a fail when a finding stands after its re-test; inconclusive when
 * the matrix could not be judged or a suspect stays undecided; a pass only when every suspect was
 * cleared by its re-test. */
static void judge_uniform(fp_run_t *run, size_t bytes, const fp_pairs_verdict_t *pv, fp_judgement_t *j)
{
    const fp_expect_term_t *t = fp_expect_uniform(&run->params.expect, bytes);
    if (!t)
        return;
    size_t used = strlen(j->expect), rused = strlen(j->reason);
    snprintf(j->expect + used, sizeof j->expect - used, "%s%s", used ? "; " : "", t->text);
    fp_verdict_t v = pv->stands ? FP_VERDICT_FAIL
                     : !pv->decided || pv->undecided ? FP_VERDICT_INCONCLUSIVE
                                                     : FP_VERDICT_PASS;
    if (v > j->verdict) {
        j->verdict = v;
        j->threshold = NAN; /* no threshold decided it */
    }
    char *r = j->reason + rused;
    size_t left = sizeof j->reason - rused;
    const char *sep = rused ? "; " : "";
    if (pv->stands)
        snprintf(r, left, "%s%zu finding(s) stand: %s", sep, pv->stands, pv->first_line);
    else if (!pv->decided)
        snprintf(r, left, "%scannot judge: %s", sep, pv->reason);
    else if (pv->undecided)
        snprintf(r, left, "%s%zu suspect(s) undecided%s%s", sep, pv->undecided, pv->reason[0] ? ": " : "", pv->reason);
    else
        snprintf(r, left, "%sno finding stands (%zu suspect(s) cleared alone)", sep, pv->cleared);
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
    int bw = pc->kind->quantity == FP_QTY_RATE;
    for (size_t k = 0; k < total; k++)
        if (isfinite(m->cells[k].median) && m->cells[k].median > 0)
            t[n++] = bw ? moved / m->cells[k].median : m->cells[k].median; /* us per operation */
    if (n)
        fp_stats_compute(t, n, &row->time);
    free(t);
    if (!n)
        return FP_OK;
    row->batch = pc->batch;
    row->osu = bw ? moved / row->time.mean : row->time.mean;
    row->headline = bw ? (fp_estimate_t){moved / row->time.p50, moved / row->time.p50_hi, moved / row->time.p50_lo}
                       : (fp_estimate_t){row->time.p50, row->time.p50_lo, row->time.p50_hi};
    return FP_OK;
}

/* Every rank: the store of this size's shifts (rank 0: and its cells), in place of the previous
 * size's; the same verdict everywhere. */
static int sweep_open(fp_run_t *run, double **all)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    size_t n = (size_t)ctx->nranks;
    size_t *shifts = malloc(n * sizeof *shifts);
    *all = ctx->rank == 0 ? malloc(4 * n * sizeof **all) : NULL;
    int rc = shifts && (ctx->rank != 0 || *all) ? FP_OK : fp_fail("malloc for a round of %zu cells failed", n);
    if (rc == FP_OK) {
        size_t nshifts = fp_pairs_shifts((fp_pairs_mode_t)run->params.pairs_mode, n, (size_t)run->params.pairs_rounds,
                                         shifts);
        fp_pairs_matrix_close(&pc->matrix); /* the previous size's */
        rc = fp_pairs_matrix_open(&pc->matrix, n, shifts, nshifts, ctx->rank == 0);
    }
    free(shifts);
    char why[2];
    return fp_agree(ctx->comm, rc, why, sizeof why) == FP_OK ? FP_OK : FP_ERR;
}

/* After the rounds: the matrix, the findings (suspects re-measured by every rank), and on rank 0
 * --expect over every cell and "uniform", then the row. */
static int sweep_close(fp_run_t *run, size_t bytes, double sweep_s, double *all, fp_row_t *row)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    static fp_pairs_verdict_t verdict;
    if (run->ctx.rank == 0)
        fp_pairs_emit_matrix(run, bytes);
    FP_CHECK(fp_pairs_judge(run, bytes, sweep_s, all, &verdict));
    if (run->ctx.rank != 0)
        return FP_OK;
    memset(&pc->judgement, 0, sizeof pc->judgement);
    pc->judgement.threshold = NAN;
    judge_cells(run, bytes, &pc->judgement);
    judge_uniform(run, bytes, &verdict, &pc->judgement);
    row->judged = &pc->judgement;
    return fill_row(run, bytes, row);
}

int fp_pairs_sweep(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    double *all = NULL;
    memset(row, 0, sizeof *row);
    row->size = bytes;
    row->check = -1;
    row->target_met = -1;
    row->staged = run->params.staging;
    row->traffic_peer = -1; /* a partner per round: no single peer */
    pc->traffic = 0;
    pc->batch = 0; /* the first round chooses it */
    int rc = sweep_open(run, &all);
    double start = MPI_Wtime();
    if (rc == FP_OK)
        rc = run->params.pairs_mode == FP_PAIRS_ISOLATED ? sweep_isolated(run, bytes, all) : sweep_shifts(run, bytes, all);
    double sweep_s = MPI_Wtime() - start;
    if (rc == FP_OK)
        rc = sweep_close(run, bytes, sweep_s, all, row);
    row->traffic_bytes = pc->traffic;
    free(all); /* the matrix stays until the next size: a soak reads its cells after the row */
    return rc;
}
