/* The sampler of every family: warm-up, batch choice, samples by a fixed or adaptive stop rule.
 * What differs between families comes in through run->sampler. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "adaptive.h"
#include "guard.h"
#include "stats.h"

#define FP_BATCH_LIMIT 1024
#define FP_TIMER_FACTOR 100.0 /* timer cost and step <= 1% of a sample (see bench/overhead.sh) */
#define FP_CALIBRATION_SAMPLES 3
#define FP_CALIBRATE_BELOW_S 1e-3

/* A sample must last FP_TIMER_FACTOR timer overheads and FP_TIMER_FACTOR steps of the clock. */
static double resolved_sample(double overhead_seconds, double resolution_seconds)
{
    double unit = overhead_seconds > resolution_seconds ? overhead_seconds : resolution_seconds;
    return FP_TIMER_FACTOR * unit;
}

long fp_batch_for(double op_seconds, double overhead_seconds, double resolution_seconds)
{
    double needed = resolved_sample(overhead_seconds, resolution_seconds);
    long batch = 1;
    while (batch < FP_BATCH_LIMIT && op_seconds * (double)batch < needed)
        batch *= 2;
    return batch;
}

static double median_of(double *x, size_t n)
{
    fp_stats_t s;
    fp_stats_compute(x, n, &s);
    return s.p50;
}

static double shortest_of(const double *x, size_t n)
{
    double shortest = x[0];
    for (size_t i = 1; i < n; i++)
        shortest = x[i] < shortest ? x[i] : shortest;
    return shortest;
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
    run->operations += batch; /* warm-up, calibration, pilot and reported samples alike */
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

/* Doubles *batch while a sample of it is shorter than a resolved one (a coarse clock reads a
 * lone operation as 0 or one step, so the warm-up's median alone cannot size the batch), up to
 * FP_BATCH_LIMIT. Rank 0 decides from the shortest of a few samples (interruptions only lengthen
 * a sample, so the shortest is the one to trust); all follow. Rank 0's *op_seconds: one operation
 * as the final batch's shortest sample has it, free of the timer's own overhead that inflates a
 * lone operation's reading. */
static int calibrate(fp_run_t *run, size_t bytes, long *batch, double *op_seconds)
{
    double needed = resolved_sample(run->timer_overhead_s, run->timer_resolution_s);
    size_t count = run->capacity < FP_CALIBRATION_SAMPLES ? run->capacity : FP_CALIBRATION_SAMPLES;
    for (;;) {
        int more = 0;
        for (size_t i = 0; i < count; i++)
            FP_CHECK(take_sample(run, i, bytes, *batch));
        FP_CHECK(run->timer->collect(0, count));
        if (run->ctx.rank == 0) {
            double shortest = shortest_of(run->samples, count);
            more = shortest < needed && *batch < FP_BATCH_LIMIT;
            *op_seconds = shortest / (double)*batch;
        }
        FP_MPI_CHECK(MPI_Bcast(&more, 1, MPI_INT, 0, run->ctx.comm));
        if (!more)
            return FP_OK;
        *batch *= 2;
    }
}

/* Whether a size whose own batch is half the previous size's keeps the previous one: only near
 * the boundary (its samples would last less than FP_STEP_DOWN_MARGIN resolved ones), where noise
 * would otherwise alternate neighbouring sizes between two batches, whose statistics are not
 * alike. Past the margin the step down is taken: kept unconditionally, a batch of 2 would stay
 * for every larger size and halve its samples for nothing. */
#define FP_STEP_DOWN_MARGIN 2.0

int fp_batch_keeps_previous(long batch, long previous, double op_seconds, double needed_seconds)
{
    return batch * 2 == previous && op_seconds * (double)batch < FP_STEP_DOWN_MARGIN * needed_seconds;
}

/* The automatic batch: from the warm-up's median, calibrated against the clock; a step down
 * near the boundary is not taken (fp_batch_keeps_previous). Larger steps down, and any step up,
 * are taken. Every decision is rank 0's, from its clock, and broadcast: ranks whose clocks differ
 * (overhead, resolution) would otherwise run different counts of operations and hang. */
static int choose_batch(fp_run_t *run, size_t bytes, size_t timed, long *batch)
{
    double warm = 0.0;
    if (run->ctx.rank == 0) {
        warm = median_of(run->samples, timed);
        *batch = fp_batch_for(warm, run->timer_overhead_s, run->timer_resolution_s);
    }
    FP_MPI_CHECK(MPI_Bcast(batch, 1, MPI_LONG, 0, run->ctx.comm));
    FP_MPI_CHECK(MPI_Bcast(&warm, 1, MPI_DOUBLE, 0, run->ctx.comm));
    /* A lone operation on a coarse clock, or a warm-up slowed by the first messages' set-up, can
     * mislead the median: a few samples of the batch check it where they are cheap, and at the
     * first size, whose warm-up includes the library's connection set-up. */
    double op = warm;
    if (warm < FP_CALIBRATE_BELOW_S || run->batch_previous == 0)
        FP_CHECK(calibrate(run, bytes, batch, &op));
    long keep = 0;
    if (run->ctx.rank == 0)
        keep = fp_batch_keeps_previous(*batch, run->batch_previous, op,
                                       resolved_sample(run->timer_overhead_s, run->timer_resolution_s));
    FP_MPI_CHECK(MPI_Bcast(&keep, 1, MPI_LONG, 0, run->ctx.comm));
    if (keep)
        *batch = run->batch_previous;
    run->batch_previous = *batch;
    return FP_OK;
}

/* Warm-up operations, each timed alone; then the batch, unless *batch is already set (> 0) or
 * given by --batch. */
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
    if (run->sampler.warmed_up)
        FP_CHECK(run->sampler.warmed_up(run));
    fp_guard_phase("batch choice", 0);
    FP_CHECK(run->timer->collect(0, timed));
    if (fixed > 0)
        return FP_OK;
    *batch = run->params.batch;
    if (*batch > 0)
        return FP_OK;
    FP_CHECK(choose_batch(run, bytes, timed, batch));
    /* The plan's cap (collectives: enough samples for an interval) is the same on every rank. */
    if (run->plan.max_batch > 0 && *batch > run->plan.max_batch)
        *batch = run->plan.max_batch;
    if (*batch < run->plan.min_batch)
        *batch = run->plan.min_batch;
    return FP_OK;
}

/* An expectation not yet decided keeps the adaptive pilot sampling after its CI target (expect.h). */
static int verdict_pending(const fp_run_t *run, size_t bytes, long batch, const fp_stats_t *s)
{
    return run->sampler.verdict_pending && run->sampler.verdict_pending(run, bytes, batch, s);
}

/* Whether an automatic batch of b fits: under the limit and the plan's cap, and in fixed mode
 * leaving FP_MIN_SAMPLES samples of the plan's operations. */
#define FP_MIN_SAMPLES 32

static int batch_fits(const fp_run_t *run, long b, int fixed)
{
    long cap = run->plan.max_batch > 0 && run->plan.max_batch < FP_BATCH_LIMIT ? run->plan.max_batch : FP_BATCH_LIMIT;
    return b <= cap && (!fixed || run->plan.iterations / b >= FP_MIN_SAMPLES);
}

/* Doubles an automatic batch; one that would then be half the previous size's takes that one
 * where it fits, as choose_batch does. */
static void grow_batch(fp_run_t *run, long *batch, int fixed)
{
    long twice = *batch * 2;
    *batch = twice * 2 == run->batch_prior && batch_fits(run, run->batch_prior, fixed) ? run->batch_prior : twice;
    run->batch_previous = *batch;
}

/* Rank 0 judges the samples of the current phase; everybody follows. *grow: the median sample is
 * shorter than a resolved one (the operation sped up after the batch was chosen, as a machine
 * does between latency modes): the batch doubles and the size starts over. */
static int adaptive_decision(fp_run_t *run, fp_adaptive_t *a, size_t bytes, long batch, size_t n, double started,
                             double *scratch, size_t *next, int *decision, int *grow)
{
    FP_CHECK(run->timer->collect(0, n));
    FP_CHECK(run->sampler.reduce(run, n, scratch));
    long shared[3] = {0, 0, 0};
    if (run->ctx.rank == 0) {
        fp_stats_t s;
        fp_stats_compute(scratch, n, &s);
        shared[2] = *grow >= 0 && s.p50 < resolved_sample(run->timer_overhead_s, run->timer_resolution_s) &&
                    batch_fits(run, batch * 2, 0);
        fp_stats_resolve(&s, run->timer_resolution_s);
        a->undecided = verdict_pending(run, bytes, batch, &s);
        shared[0] = fp_adaptive_check(a, &s, n, MPI_Wtime() - started, next);
        shared[1] = (long)*next;
    }
    FP_MPI_CHECK(MPI_Bcast(shared, 3, MPI_LONG, 0, run->ctx.comm));
    *decision = (int)shared[0];
    *next = (size_t)shared[1];
    *grow = (int)shared[2];
    return FP_OK;
}

/* The time budget of one size, shared by the family's samplings of it. */
static double size_budget(const fp_run_t *run)
{
    int samplings = run->sampler.samplings > 0 ? run->sampler.samplings : 1;
    return run->params.time_budget_s / samplings;
}

/* automatic: *batch was chosen here, and doubles while the samples turn out unresolved
 * (adaptive_decision); a batch given by the option or the family stays. */
static int sample_adaptive(fp_run_t *run, size_t bytes, int automatic, long *batch, size_t *count, int *met)
{
    double *scratch = run->ctx.rank == 0 ? malloc(run->capacity * sizeof *scratch) : NULL;
    if (run->ctx.rank == 0 && !scratch)
        return fp_fail("malloc(%zu B) for adaptive statistics failed", run->capacity * sizeof *scratch);
    fp_adaptive_t a;
    fp_adaptive_init(&a, run->params.ci_target_pct, size_budget(run), run->capacity);
    double started = MPI_Wtime();
    size_t n = 0, next = fp_adaptive_first(&a);
    int decision = FP_ADAPT_MORE, rc = FP_OK;
    fp_guard_phase("adaptive sample", 0);
    while (rc == FP_OK && decision != FP_ADAPT_STOP) {
        for (; n < next && rc == FP_OK; n++) {
            fp_guard_step((long)n + 1);
            rc = take_sample(run, n, bytes, *batch);
        }
        int grow = automatic ? 0 : -1; /* bounded by the batch limit and the size's budget */
        if (rc == FP_OK)
            rc = adaptive_decision(run, &a, bytes, *batch, n, started, scratch, &next, &decision, &grow);
        if (rc == FP_OK && grow > 0) { /* the same budget, fresh samples of the longer batch */
            grow_batch(run, batch, 0);
            fp_adaptive_init(&a, run->params.ci_target_pct, size_budget(run), run->capacity);
            n = 0, next = fp_adaptive_first(&a), decision = FP_ADAPT_MORE;
        } else if (decision == FP_ADAPT_RESTART) {
            n = 0; /* the pilot's samples decided how many; fresh ones are reported */
        }
    }
    free(scratch);
    *count = n;
    *met = rc == FP_OK && run->ctx.rank == 0 ? a.met : 0;
    FP_MPI_CHECK(MPI_Bcast(met, 1, MPI_INT, 0, run->ctx.comm));
    return rc;
}

/* Fixed mode's counterpart of adaptive_decision's *grow: rank 0's median sample of this round
 * (from a copy: the samples stay in order for the reduction over ranks) against a resolved one,
 * where the doubled batch still fits (batch_fits). */
static int fixed_batch_short(fp_run_t *run, long batch, size_t n, int *grow)
{
    *grow = 0;
    FP_CHECK(run->timer->collect(0, n));
    if (run->ctx.rank == 0 && batch_fits(run, batch * 2, 1)) {
        double *copy = malloc(n * sizeof *copy);
        if (!copy)
            return fp_fail("malloc(%zu B) for the batch check failed", n * sizeof *copy);
        memcpy(copy, run->samples, n * sizeof *copy);
        *grow = median_of(copy, n) < resolved_sample(run->timer_overhead_s, run->timer_resolution_s);
        free(copy);
    }
    FP_MPI_CHECK(MPI_Bcast(grow, 1, MPI_INT, 0, run->ctx.comm));
    return FP_OK;
}

/* automatic: as in sample_adaptive; the operations stay the plan's, in fewer, longer samples. */
static int sample_fixed(fp_run_t *run, size_t bytes, int automatic, long *batch, size_t *n)
{
    for (int grow = 1; grow;) {
        *n = (size_t)((run->plan.iterations + *batch - 1) / *batch);
        fp_guard_phase("sample", (long)*n);
        for (size_t i = 0; i < *n; i++) {
            fp_guard_step((long)i + 1);
            FP_CHECK(take_sample(run, i, bytes, *batch));
        }
        grow = 0;
        if (automatic)
            FP_CHECK(fixed_batch_short(run, *batch, *n, &grow));
        if (grow)
            grow_batch(run, batch, 1);
    }
    return FP_OK;
}

int fp_sample_size(fp_run_t *run, size_t bytes, long *batch, size_t *n, int *met)
{
    *met = -1;
    int automatic = *batch <= 0 && run->params.batch <= 0;
    run->batch_prior = run->batch_previous;
    FP_CHECK(warm_up(run, bytes, batch));
    if (run->params.adaptive)
        FP_CHECK(sample_adaptive(run, bytes, automatic, batch, n, met));
    else
        FP_CHECK(sample_fixed(run, bytes, automatic, batch, n));
    if (run->sampler.sync)
        FP_CHECK(run->sampler.sync(&run->ctx)); /* the last sample's work is done */
    FP_CHECK(run->timer->collect(0, *n));
    return run->sampler.reduce(run, *n, run->samples);
}
