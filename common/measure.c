/* Per-size measurement: warm-up, batch choice, sampling with a fixed or adaptive stop rule. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "comm.h"
#include "guard.h"
#include "pattern.h"
#include "run.h"
#include "stats.h"

#define FP_OSU_SMALL_LIMIT 8192
#define FP_BATCH_LIMIT 1024
#define FP_TIMER_FACTOR 20.0
#define FP_ADAPTIVE_FIRST_CHECK 32

long fp_default_iterations(const fp_bench_t *bench, size_t bytes)
{
    int large = bytes > FP_OSU_SMALL_LIMIT;
    if (bench->report == FP_REPORT_BANDWIDTH)
        return large ? 20 : 100;
    return large ? 1000 : 10000;
}

long fp_default_warmup(const fp_bench_t *bench, size_t bytes)
{
    int large = bytes > FP_OSU_SMALL_LIMIT;
    if (bench->report == FP_REPORT_BANDWIDTH)
        return large ? 2 : 10;
    return large ? 10 : 100;
}

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
    if (run->bench->sync)
        FP_CHECK(run->bench->sync(&run->ctx));
    run->timer->begin(slot);
    int rc = run->bench->sample(&run->ctx, bytes, batch);
    run->timer->end(slot);
    return rc;
}

/* Warm-up operations, each timed alone; rank 0 picks the batch from their median. */
static int warm_up(fp_run_t *run, size_t bytes, long *batch)
{
    long warmup = run->params.warmup > 0 ? run->params.warmup : fp_default_warmup(run->bench, bytes);
    size_t timed = (size_t)warmup < run->capacity ? (size_t)warmup : run->capacity;
    fp_guard_phase("warm-up operation", warmup);
    for (long i = 0; i < warmup; i++) {
        fp_guard_step(i + 1);
        FP_CHECK(take_sample(run, (size_t)i % run->capacity, bytes, 1));
    }
    fp_guard_phase("batch choice", 0);
    FP_CHECK(run->timer->collect(0, timed));
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
    if (run->ctx.rank == 0) {
        fp_stats_t s;
        FP_CHECK(run->timer->collect(0, n));
        memcpy(scratch, run->samples, n * sizeof *scratch);
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

int fp_measure_size(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    long batch;
    size_t n = 0;
    int met = -1;
    FP_CHECK(warm_up(run, bytes, &batch));
    if (run->params.adaptive) {
        FP_CHECK(sample_adaptive(run, bytes, batch, &n, &met));
    } else {
        long iterations = run->params.iterations > 0 ? run->params.iterations : fp_default_iterations(run->bench, bytes);
        n = (size_t)((iterations + batch - 1) / batch);
        fp_guard_phase("sample", (long)n);
        for (size_t i = 0; i < n; i++) {
            fp_guard_step((long)i + 1);
            FP_CHECK(take_sample(run, i, bytes, batch));
        }
    }
    FP_CHECK(run->timer->collect(0, n));
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
