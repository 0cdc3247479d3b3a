/* The point-to-point family: two ranks, one pair; a sample is rank 0's time; bandwidth from the
 * bytes a window moves; validation checks every received byte of every message against the
 * sender's pattern. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "family.h"
#include "guard.h"
#include "metric.h"
#include "pattern.h"

/* Validation of a window gives each message its own slot, up to this many bytes of slots per
 * direction; a larger window is checked in several validation windows. */
#define FP_SLOT_LIMIT ((size_t)64 << 20)

/* The family's own part: the validation slots of windowed programs. */
typedef struct pt2pt_state {
    const fp_mem_ops_t *slot_mem; /* the wire's kind: pinned host when staging */
    size_t slot_capacity;         /* bytes per direction; 0: no slots (no window, or no -c) */
    void *sslots, *rslots;
} pt2pt_state_t;

static pt2pt_state_t *state_of(fp_run_t *run)
{
    return run->ctx.family;
}

static int pt2pt_prepare(fp_run_t *run, char *err, size_t errlen)
{
    run->ctx.peer = 1 - run->ctx.rank;
    pt2pt_state_t *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(err, errlen, "calloc(%zu B) failed", sizeof *st);
        return FP_ERR;
    }
    run->ctx.family = st;
    if (run->params.validate && (run->bench->uses & FP_USES_WINDOW)) {
        size_t all = (size_t)run->params.window * run->params.max_size;
        st->slot_capacity = all < FP_SLOT_LIMIT ? all : FP_SLOT_LIMIT;
        if (st->slot_capacity < run->params.max_size)
            st->slot_capacity = run->params.max_size;
        run->family_bytes = 2 * st->slot_capacity;
    }
    return FP_OK;
}

static int pt2pt_verdict_pending(const fp_run_t *run, size_t bytes, long batch, const fp_stats_t *seconds);

static int pt2pt_open(fp_run_t *run)
{
    pt2pt_state_t *st = state_of(run);
    run->sampler = (fp_sampler_t){.kernel = run->bench->sample, .reduce = fp_samples_of_rank0};
    if (fp_expect_any(&run->params.expect))
        run->sampler.verdict_pending = pt2pt_verdict_pending;
    if (!st->slot_capacity)
        return FP_OK;
    st->slot_mem = run->ctx.staging ? &fp_mem_pinned : run->ctx.mem;
    FP_CHECK(st->slot_mem->alloc(&st->sslots, st->slot_capacity));
    return st->slot_mem->alloc(&st->rslots, st->slot_capacity);
}

static void pt2pt_close(fp_run_t *run)
{
    pt2pt_state_t *st = state_of(run);
    if (!st)
        return;
    if (st->sslots)
        st->slot_mem->release(st->sslots);
    if (st->rslots)
        st->slot_mem->release(st->rslots);
    free(st);
    run->ctx.family = NULL;
}

static size_t pt2pt_round(const fp_run_t *run, size_t bytes)
{
    (void)run;
    return bytes;
}

/* Median and CI of the headline from statistics of us per operation. */
static fp_estimate_t headline_of(const fp_bench_t *b, const fp_ctx_t *ctx, size_t bytes, const fp_stats_t *t)
{
    if (b->metric->quantity == FP_QTY_LATENCY)
        return (fp_estimate_t){t->p50, t->p50_lo, t->p50_hi};
    /* Bytes per operation over microseconds per operation = MB/s (1e6 B/s). */
    double moved = (double)bytes * (double)ctx->window * b->directions;
    return (fp_estimate_t){moved / t->p50, moved / t->p50_hi, moved / t->p50_lo};
}

/* fp_sampler_t.verdict_pending: an --expect term this size's CI does not decide yet. */
static int pt2pt_verdict_pending(const fp_run_t *run, size_t bytes, long batch, const fp_stats_t *seconds)
{
    const fp_bench_t *b = run->bench;
    double scale = 1e6 / ((double)batch * b->time_divisor);
    fp_stats_t us = {.p50 = seconds->p50 * scale, .p50_lo = seconds->p50_lo * scale, .p50_hi = seconds->p50_hi * scale};
    fp_estimate_t h = headline_of(b, &run->ctx, bytes, &us);
    fp_judgement_t j;
    fp_quantity_t q = b->metric->quantity;
    fp_expect_judge(&run->params.expect, bytes, q, h.lo, h.p50, h.hi, fp_line_rate_in_unit(b, run->params.line_rate_bps), &j);
    return j.verdict == FP_VERDICT_INCONCLUSIVE && !j.reason[0]; /* more samples can decide it */
}

/* Samples (seconds per sample of `batch` operations) -> the row: us per operation, and for
 * bandwidth MB/s from the mean (OSU's figure) and from the median and its CI. */
static void fill_row(fp_run_t *run, size_t bytes, long batch, size_t n, fp_row_t *row)
{
    const fp_bench_t *b = run->bench;
    double scale = 1e6 / ((double)batch * b->time_divisor); /* seconds per sample -> us per op */
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= scale;
    memset(row, 0, sizeof *row);
    row->size = bytes;
    row->batch = batch;
    fp_stats_compute(run->samples, n, &row->time);
    fp_stats_resolve(&row->time, run->timer_resolution_s * scale);
    fp_stats_batch_means(&row->time, batch);
    row->headline = headline_of(b, &run->ctx, bytes, &row->time);
    row->osu = b->metric->quantity == FP_QTY_RATE ? (double)bytes * (double)run->ctx.window * b->directions / row->time.mean
                                                  : row->time.mean;
}

static int pt2pt_measure(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    long batch = 0;
    size_t n;
    int met;
    FP_CHECK(fp_sample_size(run, bytes, &batch, &n, &met));
    fill_row(run, bytes, batch, n, row);
    row->target_met = met;
    /* Every rank sends and receives the same: latency bytes both ways per operation, bw a window
     * (plus one-byte acks), bibw a window each way; every operation run counts, timed or not. */
    double per_op = (double)bytes * (run->bench->metric->quantity == FP_QTY_LATENCY ? 2.0 :
                                     (double)run->ctx.window * run->bench->directions);
    row->traffic_bytes = per_op * (double)run->operations;
    row->traffic_peer = run->ctx.peer;
    row->staged = run->params.staging;
    row->check = -1;
    return FP_OK;
}

/* The pattern of message w of a window in validation round `round`: each message its own. */
static uint32_t message_round(uint32_t round, long w)
{
    return round * 65537u + (uint32_t)w + 1u;
}

/* The ordinary round: one operation on the buffers the timed loop uses (staging copies included);
 * rbuf then holds the last message received. Returns this rank's wrong bytes in *wrong. */
static int validate_buffers(fp_run_t *run, size_t bytes, uint32_t round, long *wrong)
{
    fp_ctx_t *ctx = &run->ctx;
    unsigned char *host = run->check_buffer;
    fp_pattern_fill(host, bytes, ctx->rank, round);
    FP_CHECK(ctx->mem->from_host(ctx->sbuf, host, bytes));
    memset(host, 0, bytes);
    FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, bytes));
    if (ctx->staging)
        memset(ctx->wire_rbuf, 0, bytes);
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    FP_CHECK(run->bench->sample(ctx, bytes, 1));
    if (run->bench->check_ranks & (1u << ctx->rank)) {
        FP_CHECK(ctx->mem->to_host(host, ctx->rbuf, bytes));
        *wrong += (long)fp_pattern_count_wrong(host, bytes, ctx->peer, round);
    }
    return FP_OK;
}

/* Messages [first, first + count) of one window, each sent from and received into its own slot
 * with its own pattern, then each checked. */
static int validate_slots(fp_run_t *run, size_t bytes, uint32_t round, long first, long count, long *wrong)
{
    fp_ctx_t *ctx = &run->ctx;
    pt2pt_state_t *st = state_of(run);
    unsigned char *host = run->check_buffer, *sslots = st->sslots, *rslots = st->rslots;
    for (long k = 0; k < count; k++) {
        fp_pattern_fill(host, bytes, ctx->rank, message_round(round, first + k));
        FP_CHECK(st->slot_mem->from_host(sslots + (size_t)k * bytes, host, bytes));
    }
    memset(host, 0, bytes);
    for (long k = 0; k < count; k++)
        FP_CHECK(st->slot_mem->from_host(rslots + (size_t)k * bytes, host, bytes));
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    ctx->slot_sbuf = sslots;
    ctx->slot_rbuf = rslots;
    ctx->slot_first = first;
    ctx->slot_count = count;
    int rc = run->bench->sample(ctx, bytes, 1);
    ctx->slot_sbuf = ctx->slot_rbuf = NULL;
    FP_CHECK(rc);
    if (!(run->bench->check_ranks & (1u << ctx->rank)))
        return FP_OK;
    for (long k = 0; k < count; k++) {
        FP_CHECK(st->slot_mem->to_host(host, rslots + (size_t)k * bytes, bytes));
        *wrong += (long)fp_pattern_count_wrong(host, bytes, ctx->peer, message_round(round, first + k));
    }
    return FP_OK;
}

/* Every received byte of every message: the ordinary round, then (windows) each message of the
 * window in its own slot, in as many validation windows as the slots need. */
static int pt2pt_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
{
    fp_ctx_t *ctx = &run->ctx;
    pt2pt_state_t *st = state_of(run);
    long wrong = 0, total = 0, window = ctx->window;
    long per = st->slot_capacity ? (long)(st->slot_capacity / bytes) : 0;
    if (per > window)
        per = window;
    fp_guard_phase("validation round", 1 + (per ? (window + per - 1) / per : 0));
    fp_guard_step(1);
    FP_CHECK(validate_buffers(run, bytes, round, &wrong));
    for (long first = 0; per && first < window; first += per) {
        fp_guard_step(2 + first / per);
        FP_CHECK(validate_slots(run, bytes, round, first, window - first < per ? window - first : per, &wrong));
    }
    FP_MPI_CHECK(MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, ctx->comm));
    row->wrong = total;
    row->check = total == 0;
    return FP_OK;
}

const fp_family_t fp_family_pt2pt = {
    .name = "point-to-point",
    .prepare = pt2pt_prepare,
    .open = pt2pt_open,
    .close = pt2pt_close,
    .round = pt2pt_round,
    .measure = pt2pt_measure,
    .validate = pt2pt_validate,
};
