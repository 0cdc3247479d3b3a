/* One round of the all-pairs family measured: the pairs set (each rank's partners), the sampler
 * run, each rank's own cell as sender, gathered on rank 0. The sweep (pairs_sweep.c) and the
 * judge's re-tests (pairs_judge.c) both measure through here. */
#include <math.h>
#include <string.h>

#include "guard.h"
#include "pairs.h"
#include "stats.h"

/* This rank's cell as sender after a measurement: median, CI and sample count (NAN: sent nothing). */
static void own_cell(fp_run_t *run, size_t bytes, long batch, size_t n, double cell[4])
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    cell[0] = cell[1] = cell[2] = NAN;
    cell[3] = (double)n;
    if (pc->send_to < 0 || n == 0)
        return;
    fp_stats_t s;
    double scale = 1e6 / (double)batch; /* seconds per sample -> us per operation */
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= scale;
    fp_stats_compute(run->samples, n, &s);
    fp_stats_resolve(&s, run->timer_resolution_s * scale);
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

/* Bytes this rank moved in `operations` of this round, both ways (acks left out, as point-to-point
 * does): a window per operation each way it has a partner; a ping and its pong for latency. */
static double round_traffic(const fp_run_t *run, size_t bytes, long operations)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx((fp_ctx_t *)&run->ctx);
    int roles = (pc->send_to >= 0) + (pc->recv_from >= 0);
    double per_op = pc->kind->quantity == FP_QTY_LATENCY ? 2.0 * (double)bytes : (double)bytes * (double)run->ctx.window;
    return per_op * (double)operations * roles;
}

/* Samples this round's partners; rank 0 gets every rank's cell into all (4 n doubles). The batch
 * is chosen once per size, in its first round, where rank 0 sends (the sampler sizes a batch from
 * rank 0's warm-up): an idle rank 0 of an isolated pair would time nothing and take the largest
 * batch. Every cell of a size is then a sample of the same batch. */
static int measure_round(fp_run_t *run, size_t bytes, double *all)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    long before = run->operations;
    size_t n;
    int met;
    double cell[4];
    fp_guard_arm(bytes, run->plan.timeout_s, "--timeout"); /* the limit holds per round */
    FP_CHECK(fp_sample_size(run, bytes, &pc->batch, &n, &met));
    fp_pairs_ctx(&run->ctx)->traffic += round_traffic(run, bytes, run->operations - before);
    own_cell(run, bytes, pc->batch, n, cell);
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

int fp_pairs_measure_shift(fp_run_t *run, size_t bytes, size_t r, double *all)
{
    fp_ctx_t *ctx = &run->ctx;
    size_t n = (size_t)ctx->nranks, k = fp_pairs_ctx(ctx)->matrix.layout.shift[r];
    set_partners(ctx, (int)(((size_t)ctx->rank + k) % n), (int)(((size_t)ctx->rank + n - k) % n));
    return measure_round(run, bytes, all);
}

/* One pair alone, a -> b (latency: a pings b); the others take part in the sampler's barriers
 * only. Rank 0 gets a's cell into cell[4]. */
int fp_pairs_measure_alone(fp_run_t *run, size_t bytes, int a, int b, double *all, double cell[4])
{
    fp_ctx_t *ctx = &run->ctx;
    set_partners(ctx, ctx->rank == a ? b : -1, ctx->rank == b ? a : -1);
    FP_CHECK(measure_round(run, bytes, all));
    if (ctx->rank == 0)
        memcpy(cell, &all[4 * a], 4 * sizeof(double));
    return FP_OK;
}

int fp_pairs_cell_has_ci(double samples)
{
    size_t lower, upper;
    return samples >= 1 && fp_median_ci_ranks((size_t)samples, &lower, &upper);
}

double fp_pairs_shown_bound(double bound, double samples)
{
    return fp_pairs_cell_has_ci(samples) ? bound : NAN;
}
