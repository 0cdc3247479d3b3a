/* Per-size measurement: warm-up, batch choice, sampling with a fixed or adaptive stop rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "comm.h"
#include "options.h"
#include "guard.h"
#include "pattern.h"
#include "run.h"
#include "stats.h"

#define FP_BATCH_LIMIT 1024
#define FP_TIMER_FACTOR 100.0 /* timer cost <= 1% of a sample (see bench/overhead.sh) */
#define FP_ADAPTIVE_FIRST_CHECK 32

size_t fp_samples_needed(const fp_run_t *run)
{
    const fp_params_t *p = &run->params;
    if (p->adaptive)
        return (size_t)p->max_samples;
    long most = p->iterations > 0 ? p->iterations : fp_default_iterations(run->bench, 1);
    long warm = p->warmup > 0 ? p->warmup : fp_default_warmup(run->bench, 1);
    return (size_t)(most > warm ? most : warm);
}

long fp_batch_for(double op_seconds, double overhead_seconds)
{
    long batch = 1;
    while (batch < FP_BATCH_LIMIT && op_seconds * (double)batch < FP_TIMER_FACTOR * overhead_seconds)
        batch *= 2;
    return batch;
}

static double median_of(double *x, size_t n)
{
    fp_stats_t s;
    fp_stats_compute(x, n, &s);
    return s.p50;
}

int fp_timer_overhead(fp_run_t *run, double *seconds)
{
    size_t n = run->capacity < 1000 ? run->capacity : 1000;
    for (size_t i = 0; i < n; i++) {
        run->timer->begin(i);
        run->timer->end(i);
    }
    FP_CHECK(run->timer->collect(0, n));
    *seconds = median_of(run->samples, n);
    return FP_OK;
}

/* One timed sample: the operation and nothing else between begin and end. */
static inline int take_sample(fp_run_t *run, size_t slot, size_t bytes, long batch)
{
    const fp_coll_ops_t *coll = run->ctx.coll;
    if (coll)
        FP_CHECK(coll->sync(&run->ctx));
    else if (run->bench->sync)
        FP_CHECK(run->bench->sync(&run->ctx));
    run->timer->begin(slot);
    int rc = run->bench->sample(&run->ctx, bytes, batch);
    if (coll && rc == FP_OK)
        rc = coll->complete(&run->ctx);
    run->timer->end(slot);
    return rc;
}

/* Collectives: a sample is the slowest rank's time of that iteration. Rank 0 gets the
 * per-sample maxima in dst (may be run->samples); other ranks only contribute. */
static int samples_max_over_ranks(fp_run_t *run, size_t n, double *dst)
{
    void *from = run->ctx.rank == 0 && dst == run->samples ? MPI_IN_PLACE : (void *)run->samples;
    FP_MPI_CHECK(MPI_Reduce(from, dst, (int)n, MPI_DOUBLE, MPI_MAX, 0, run->ctx.comm));
    return FP_OK;
}

/* Warm-up operations, each timed alone; rank 0 picks the batch from their median unless
 * *batch is already set (> 0). */
static int warm_up(fp_run_t *run, size_t bytes, long *batch)
{
    long fixed = *batch;
    long warmup = run->params.warmup > 0 ? run->params.warmup : fp_default_warmup(run->bench, bytes);
    size_t timed = (size_t)warmup < run->capacity ? (size_t)warmup : run->capacity;
    fp_guard_phase("warm-up operation", warmup);
    for (long i = 0; i < warmup; i++) {
        fp_guard_step(i + 1);
        FP_CHECK(take_sample(run, (size_t)i % run->capacity, bytes, 1));
    }
    fp_guard_phase("batch choice", 0);
    FP_CHECK(run->timer->collect(0, timed));
    if (fixed > 0)
        return FP_OK;
    *batch = run->params.batch;
    if (*batch <= 0 && run->ctx.rank == 0)
        *batch = fp_batch_for(median_of(run->samples, timed), run->timer_overhead_s);
    FP_MPI_CHECK(MPI_Bcast(batch, 1, MPI_LONG, 0, run->ctx.comm));
    return FP_OK;
}

enum { FP_CONTINUE, FP_STOP_TARGET, FP_STOP_BUDGET, FP_STOP_CAPACITY };

/* Rank 0 decides from the samples so far; everybody follows. */
static int adaptive_decision(fp_run_t *run, size_t n, double started, double *scratch, int *decision)
{
    if (run->ctx.coll) {
        FP_CHECK(run->timer->collect(0, n));
        FP_CHECK(samples_max_over_ranks(run, n, scratch));
    }
    if (run->ctx.rank == 0) {
        fp_stats_t s;
        if (!run->ctx.coll) {
            FP_CHECK(run->timer->collect(0, n));
            memcpy(scratch, run->samples, n * sizeof *scratch);
        }
        fp_stats_compute(scratch, n, &s);
        if (s.has_ci && s.ci_halfwidth_pct <= run->params.ci_target_pct)
            *decision = FP_STOP_TARGET;
        else if (MPI_Wtime() - started >= run->params.time_budget_s)
            *decision = FP_STOP_BUDGET;
        else if (n >= run->capacity)
            *decision = FP_STOP_CAPACITY;
        else
            *decision = FP_CONTINUE;
    }
    FP_MPI_CHECK(MPI_Bcast(decision, 1, MPI_INT, 0, run->ctx.comm));
    return FP_OK;
}

static int sample_adaptive(fp_run_t *run, size_t bytes, long batch, size_t *count, int *met)
{
    double *scratch = run->ctx.rank == 0 ? malloc(run->capacity * sizeof *scratch) : NULL;
    if (run->ctx.rank == 0 && !scratch)
        return fp_fail("malloc(%zu B) for adaptive statistics failed", run->capacity * sizeof *scratch);
    double started = MPI_Wtime();
    size_t n = 0, next = FP_ADAPTIVE_FIRST_CHECK < run->capacity ? FP_ADAPTIVE_FIRST_CHECK : run->capacity;
    int decision = FP_CONTINUE, rc = FP_OK;
    fp_guard_phase("adaptive sample", 0);
    while (rc == FP_OK && decision == FP_CONTINUE) {
        for (; n < next && rc == FP_OK; n++) {
            fp_guard_step((long)n + 1);
            rc = take_sample(run, n, bytes, batch);
        }
        if (rc == FP_OK)
            rc = adaptive_decision(run, n, started, scratch, &decision);
        size_t step = n / 4 > 16 ? n / 4 : 16; /* checks grow geometrically: little overhead */
        next = n + step < run->capacity ? n + step : run->capacity;
    }
    free(scratch);
    *count = n;
    *met = decision == FP_STOP_TARGET;
    return rc;
}

static void fill_row(fp_run_t *run, size_t bytes, long batch, size_t n, fp_row_t *row)
{
    const fp_bench_t *b = run->bench;
    double scale = 1e6 / ((double)batch * b->time_divisor); /* seconds per sample -> us per op */
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= scale;
    row->size = bytes;
    row->batch = batch;
    fp_stats_compute(run->samples, n, &row->time);
    if (b->report == FP_REPORT_BANDWIDTH) {
        /* Bytes per operation over microseconds per operation = MB/s (1e6 B/s). */
        double moved = (double)bytes * (double)run->ctx.window * b->directions;
        row->osu = moved / row->time.mean;
        row->bw_p50 = moved / row->time.p50;
        row->bw_lo = moved / row->time.p50_hi;
        row->bw_hi = moved / row->time.p50_lo;
    } else {
        row->osu = row->time.mean;
        row->bw_p50 = row->bw_lo = row->bw_hi = NAN;
    }
}

/* Warm-up, then samples by the fixed or adaptive rule; leaves n samples in run->samples (for
 * collectives on rank 0: the maxima over ranks). *batch > 0 on entry keeps that batch. */
static int sample_size(fp_run_t *run, size_t bytes, long *batch, size_t *n, int *met)
{
    *met = -1;
    FP_CHECK(warm_up(run, bytes, batch));
    if (run->params.adaptive) {
        FP_CHECK(sample_adaptive(run, bytes, *batch, n, met));
    } else {
        long iterations = run->params.iterations > 0 ? run->params.iterations : fp_default_iterations(run->bench, bytes);
        *n = (size_t)((iterations + *batch - 1) / *batch);
        fp_guard_phase("sample", (long)*n);
        for (size_t i = 0; i < *n; i++) {
            fp_guard_step((long)i + 1);
            FP_CHECK(take_sample(run, i, bytes, *batch));
        }
    }
    if (run->ctx.coll)
        FP_CHECK(run->ctx.coll->sync(&run->ctx)); /* the last sample's work is done */
    FP_CHECK(run->timer->collect(0, *n));
    if (run->ctx.coll)
        FP_CHECK(samples_max_over_ranks(run, *n, run->samples));
    return FP_OK;
}

/* Points ctx at the buffers of one variant of a collective, laid out as nccl-tests does. */
void fp_coll_variant(fp_run_t *run, const fp_coll_layout_t *l, fp_variant_t v)
{
    fp_ctx_t *ctx = &run->ctx;
    size_t size = fp_types[run->params.datatype].size, rank = (size_t)ctx->rank;
    ctx->in_place = v == FP_VAR_IP;
    ctx->count = l->param_count;
    ctx->send = ctx->in_place ? (char *)ctx->rbuf + rank * l->send_ip_offset * size : ctx->sbuf;
    ctx->recv = ctx->in_place ? (char *)ctx->rbuf + rank * l->recv_ip_offset * size : ctx->rbuf;
}

static int measure_collective(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    const fp_bench_t *b = run->bench;
    const fp_params_t *p = &run->params;
    fp_coll_layout_t l;
    b->coll->layout(bytes / fp_types[p->datatype].size, run->ctx.nranks, &l);
    double factor = fp_busbw_factor(b->coll->busbw, run->ctx.nranks);
    memset(row, 0, sizeof *row);
    row->target_met = -1;
    for (int v = 0; v < FP_VAR_COUNT; v++) {
        long batch = v == FP_VAR_ISO ? 1 : v == FP_VAR_IP ? row->var_batch[FP_VAR_OOP] : 0;
        size_t n;
        int met;
        row->var_wrong[v] = -1;
        row->algbw[v] = row->busbw[v] = NAN;
        if (v == FP_VAR_IP && run->ctx.coll->no_in_place & (1u << b->coll->kind))
            continue;
        fp_coll_variant(run, &l, v == FP_VAR_IP ? FP_VAR_IP : FP_VAR_OOP);
        FP_CHECK(sample_size(run, bytes, &batch, &n, &met));
        for (size_t i = 0; i < n; i++)
            run->samples[i] *= 1e6 / (double)batch;
        fp_stats_compute(run->samples, n, &row->var[v]);
        row->var_batch[v] = batch;
        row->algbw[v] = fp_algbw_gbps(bytes, row->var[v].p50);
        row->busbw[v] = row->algbw[v] * factor;
        if (v != FP_VAR_ISO && met >= 0)
            row->target_met = row->target_met < 0 ? met : row->target_met && met;
    }
    row->size = bytes;
    row->count = l.count;
    row->type = fp_types[p->datatype].name;
    row->redop = b->uses & FP_USES_OP ? fp_op_names[p->op] : "none";
    row->root = b->uses & FP_USES_ROOT ? (int)p->root : -1;
    row->time = row->var[FP_VAR_OOP];
    row->batch = row->var_batch[FP_VAR_OOP];
    row->osu = row->time.mean;
    row->bw_p50 = row->bw_lo = row->bw_hi = NAN;
    row->check = -1;
    return FP_OK;
}

int fp_measure_size(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    long batch = 0;
    size_t n;
    int met;
    if (run->bench->coll)
        return measure_collective(run, bytes, row);
    FP_CHECK(sample_size(run, bytes, &batch, &n, &met));
    fill_row(run, bytes, batch, n, row);
    row->target_met = met;
    row->staged = run->params.staging;
    row->check = -1;
    row->wrong = 0;
    return FP_OK;
}

int fp_validate_size(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
{
    fp_ctx_t *ctx = &run->ctx;
    if (run->bench->coll)
        return fp_coll_validate(run, bytes, round, row);
    unsigned char *host = run->check_buffer;
    fp_pattern_fill(host, bytes, ctx->rank, round);
    FP_CHECK(ctx->mem->from_host(ctx->sbuf, host, bytes));
    memset(host, 0, bytes);
    FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, bytes));
    if (ctx->staging)
        memset(ctx->wire_rbuf, 0, bytes);
    fp_guard_phase("validation round", 1);
    fp_guard_step(1);
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    FP_CHECK(run->bench->sample(ctx, bytes, 1));
    long wrong = 0, total = 0;
    if (run->bench->check_ranks & (1u << ctx->rank)) {
        FP_CHECK(ctx->mem->to_host(host, ctx->rbuf, bytes));
        wrong = (long)fp_pattern_count_wrong(host, bytes, ctx->peer, round);
    }
    FP_MPI_CHECK(MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, ctx->comm));
    row->wrong = total;
    row->check = total == 0;
    return FP_OK;
}
