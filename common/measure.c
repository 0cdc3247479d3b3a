/* The sampler of every family: warm-up, batch choice, samples by a fixed or adaptive stop rule.
 * What differs between families comes in through run->sampler. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "guard.h"
#include "stats.h"

#define FP_BATCH_LIMIT 1024
#define FP_TIMER_FACTOR 100.0 /* timer cost <= 1% of a sample (see bench/overhead.sh) */
#define FP_ADAPTIVE_FIRST_CHECK 32

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
    const fp_sampler_t *h = &run->sampler;
    if (h->sync)
        FP_CHECK(h->sync(&run->ctx));
    run->timer->begin(slot);
    int rc = h->kernel(&run->ctx, bytes, batch);
    if (h->complete && rc == FP_OK)
        rc = h->complete(&run->ctx);
    run->timer->end(slot);
    if (h->after && rc == FP_OK)
        rc = h->after(&run->ctx);
    return rc;
}

int fp_samples_max_over_ranks(fp_run_t *run, size_t n, double *dst)
{
    void *from = run->ctx.rank == 0 && dst == run->samples ? MPI_IN_PLACE : (void *)run->samples;
    FP_MPI_CHECK(MPI_Reduce(from, dst, (int)n, MPI_DOUBLE, MPI_MAX, 0, run->ctx.comm));
    return FP_OK;
}

int fp_samples_of_rank0(fp_run_t *run, size_t n, double *dst)
{
    if (run->ctx.rank == 0 && dst != run->samples)
        memcpy(dst, run->samples, n * sizeof *dst);
    return FP_OK;
}

/* Warm-up operations, each timed alone; rank 0 picks the batch from their median unless
 * *batch is already set (> 0). */
static int warm_up(fp_run_t *run, size_t bytes, long *batch)
{
    long fixed = *batch;
    long warmup = run->plan.warmup;
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
    FP_CHECK(run->timer->collect(0, n));
    FP_CHECK(run->sampler.reduce(run, n, scratch));
    if (run->ctx.rank == 0) {
        fp_stats_t s;
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

static int sample_fixed(fp_run_t *run, size_t bytes, long batch, size_t *n)
{
    *n = (size_t)((run->plan.iterations + batch - 1) / batch);
    fp_guard_phase("sample", (long)*n);
    for (size_t i = 0; i < *n; i++) {
        fp_guard_step((long)i + 1);
        FP_CHECK(take_sample(run, i, bytes, batch));
    }
    return FP_OK;
}

int fp_sample_size(fp_run_t *run, size_t bytes, long *batch, size_t *n, int *met)
{
    *met = -1;
    FP_CHECK(warm_up(run, bytes, batch));
    if (run->params.adaptive)
        FP_CHECK(sample_adaptive(run, bytes, *batch, n, met));
    else
        FP_CHECK(sample_fixed(run, bytes, *batch, n));
    if (run->sampler.sync)
        FP_CHECK(run->sampler.sync(&run->ctx)); /* the last sample's work is done */
    FP_CHECK(run->timer->collect(0, *n));
    return run->sampler.reduce(run, *n, run->samples);
}
