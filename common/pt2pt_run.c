/* The point-to-point family: two ranks, one pair; a sample is rank 0's time; bandwidth from the
 * bytes a window moves; validation checks every received byte against the sender's pattern. */
#include <math.h>
#include <string.h>

#include "family.h"
#include "guard.h"
#include "pattern.h"

static int pt2pt_prepare(fp_run_t *run, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    run->ctx.peer = 1 - run->ctx.rank;
    return FP_OK;
}

static int pt2pt_open(fp_run_t *run)
{
    run->sampler = (fp_sampler_t){.kernel = run->bench->sample, .reduce = fp_samples_of_rank0};
    return FP_OK;
}

static void pt2pt_close(fp_run_t *run)
{
    (void)run;
}

static size_t pt2pt_round(const fp_run_t *run, size_t bytes)
{
    (void)run;
    return bytes;
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
    if (b->report == FP_REPORT_BANDWIDTH) {
        /* Bytes per operation over microseconds per operation = MB/s (1e6 B/s). */
        double moved = (double)bytes * (double)run->ctx.window * b->directions;
        row->osu = moved / row->time.mean;
        row->headline = (fp_estimate_t){moved / row->time.p50, moved / row->time.p50_hi, moved / row->time.p50_lo};
    } else {
        row->osu = row->time.mean;
        row->headline = (fp_estimate_t){row->time.p50, row->time.p50_lo, row->time.p50_hi};
    }
}

static int pt2pt_measure(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    long batch = 0;
    size_t n;
    int met;
    FP_CHECK(fp_sample_size(run, bytes, &batch, &n, &met));
    fill_row(run, bytes, batch, n, row);
    row->target_met = met;
    row->staged = run->params.staging;
    row->check = -1;
    return FP_OK;
}

static int pt2pt_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
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

const fp_family_t fp_family_pt2pt = {
    .name = "point-to-point",
    .prepare = pt2pt_prepare,
    .open = pt2pt_open,
    .close = pt2pt_close,
    .round = pt2pt_round,
    .measure = pt2pt_measure,
    .validate = pt2pt_validate,
};
