/* The pairs family: many pairs at once. Multi-pair bandwidth (osu_mbw_mr): a sample is the mean
 * of the senders' times, as OSU averages them; all-pairs sweeps: every rank keeps its own samples,
 * which make its cell (pairs_sweep.c). Validation checks every message of a window. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collective.h"
#include "memory.h"
#include "pairs.h"
#include "rollcall.h"
#include "soak.h"

/* Multi: ranks [0, npairs) send to rank + npairs; an odd last rank idles, as in osu_mbw_mr. */
static void multi_partners(fp_ctx_t *ctx, fp_pairs_ctx_t *pc)
{
    pc->npairs = ctx->nranks / 2;
    pc->send_to = ctx->rank < pc->npairs ? ctx->rank + pc->npairs : -1;
    pc->recv_from = ctx->rank >= pc->npairs && ctx->rank < 2 * pc->npairs ? ctx->rank - pc->npairs : -1;
    ctx->peer = pc->send_to >= 0 ? pc->send_to : pc->recv_from;
}

/* What the backend can do with these options; the same verdict on every rank. */
static int backend_check(fp_run_t *run, const fp_pairs_backend_t *b, char *err, size_t errlen)
{
    const fp_params_t *p = &run->params;
    if (b->missing) {
        snprintf(err, errlen, "%s", b->missing);
        return FP_ERR;
    }
    if (!b->device_only)
        return FP_OK;
    for (int side = 0; side < 2; side++)
        if (!fp_mem_ops[fp_mem_kind_of(p->placement[side])]->on_device) {
            snprintf(err, errlen, "--backend %s: buffers must be on the GPU (accepted placements: D D, the "
                     "default, or M M), not %c %c", b->name, p->placement[0], p->placement[1]);
            return FP_ERR;
        }
    if (p->staging) {
        snprintf(err, errlen, "--staging: --backend %s moves device buffers itself (accepted: --backend mpi "
                 "--staging)", b->name);
        return FP_ERR;
    }
    /* A GPU-native library moves device data itself (MPI only bootstraps) and needs a GPU per rank. */
    run->mpi_moves_device_data = 0;
    run->gpu_per_rank = "--backend nccl";
    return FP_OK;
}

static int pairs_prepare(fp_run_t *run, char *err, size_t errlen)
{
    fp_pairs_ctx_t *pc = calloc(1, sizeof *pc);
    if (!pc) {
        snprintf(err, errlen, "calloc(%zu B) for the pairs' state failed", sizeof *pc);
        return FP_ERR;
    }
    run->ctx.family = pc;
    pc->kind = run->bench->pairs;
    pc->send_to = pc->recv_from = -1;
    if (run->ctx.nranks < 2) {
        snprintf(err, errlen, "needs at least 2 ranks, got %d (accepted: mpirun -np N with N >= 2)", run->ctx.nranks);
        return FP_ERR;
    }
    if (pc->kind->pattern == FP_PAIRS_MULTI)
        multi_partners(&run->ctx, pc);
    pc->backend = run->params.backend == FP_BACKEND_NCCL ? &fp_pairs_nccl : &fp_pairs_mpi;
    FP_CHECK(backend_check(run, pc->backend, err, errlen));
    return fp_pairs_topology_read(run, err, errlen);
}

/* A host with several ranks names each "host:rank", so that every node of a matrix has its own name. */
static void unique_names(fp_pairs_ctx_t *pc, int n)
{
    char *shared = calloc((size_t)n, 1);
    if (!shared)
        return; /* the names stay plain: only the matrix's labels repeat */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(pc->names[i], pc->names[j]) == 0)
                shared[i] = shared[j] = 1;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(pc->names[i]);
        if (shared[i] && len + 12 < sizeof pc->names[i])
            snprintf(pc->names[i] + len, sizeof pc->names[i] - len, ":%d", i);
    }
    free(shared);
}

/* Rank 0 learns every rank's host, for the pairs' placement and the matrix's names. */
static int gather_names(fp_run_t *run, fp_pairs_ctx_t *pc)
{
    char mine[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, n = run->ctx.nranks;
    MPI_Get_processor_name(mine, &len);
    if (run->ctx.rank == 0) {
        pc->names = calloc((size_t)n, sizeof *pc->names);
        pc->name_list = calloc((size_t)n, sizeof *pc->name_list);
        if (!pc->names || !pc->name_list)
            return fp_fail("calloc of %d host names failed", n);
        for (int i = 0; i < n; i++)
            pc->name_list[i] = pc->names[i];
    }
    FP_MPI_CHECK(MPI_Gather(mine, sizeof mine, MPI_CHAR, pc->names, sizeof mine, MPI_CHAR, 0, run->ctx.comm));
    if (run->ctx.rank != 0)
        return FP_OK;
    if (pc->has_topology) { /* the hosts as the topology names them, before ranks are told apart */
        pc->hosts = calloc((size_t)n, sizeof *pc->hosts);
        for (int i = 0; i < n; i++)
            if (!pc->hosts || !(pc->hosts[i] = strdup(pc->names[i])))
                return fp_fail("copying %d host names failed (out of memory)", n);
        FP_CHECK(fp_pairs_topology_place(run, (const char *const *)pc->hosts, n));
    }
    unique_names(pc, n);
    return FP_OK;
}

/* The header's placement line of the multi-pair program: "0 (host) -> 2 (host), ...". */
static int describe_pairs(fp_pairs_ctx_t *pc)
{
    size_t cap = (size_t)pc->npairs * (2 * MPI_MAX_PROCESSOR_NAME + 32) + 1, used = 0;
    char *text = malloc(cap);
    if (!text)
        return fp_fail("malloc(%zu B) for the pairs' placement failed", cap);
    text[0] = 0;
    for (int i = 0; i < pc->npairs; i++)
        used += (size_t)snprintf(text + used, cap - used, "%s%d (%s) -> %d (%s)", i ? ", " : "", i, pc->names[i],
                                 i + pc->npairs, pc->names[i + pc->npairs]);
    pc->meta.pairs = text;
    return FP_OK;
}

static int reduce_mean_over_senders(fp_run_t *run, size_t n, double *dst);

/* The header's sweep line: how pairs are measured and what the judge needs and claims. */
static void describe_sweep(const fp_run_t *run, fp_pairs_ctx_t *pc)
{
    static const char *const modes[] = {
        "shift: in round k every rank sends to rank + k while receiving from rank - k, all at once",
        "isolated: one pair at a time, every ordered pair",
        "sampled: a few shift rounds (at least 3) with their reverses",
    };
    char budget[64];
    const fp_params_t *p = &run->params;
    int latency_isolated = p->pairs_mode == FP_PAIRS_ISOLATED && pc->kind->quantity == FP_QTY_LATENCY;
    if (p->pairs_retest_s >= 0)
        snprintf(budget, sizeof budget, "%g s", p->pairs_retest_s);
    else
        snprintf(budget, sizeof budget, "auto (twice the sweep's time, at least 10 s)");
    snprintf(pc->meta.sweep, sizeof pc->meta.sweep,
             "%s; judge: at least %d nodes, slowdowns of %g %% or more, suspects re-measured alone beside healthy "
             "pairs within %s per size",
             latency_isolated ? "isolated: one pair at a time, every unordered pair (a round trip)" : modes[p->pairs_mode],
             FP_JUDGE_MIN_NODES, 100.0 * p->pairs_min_effect, budget);
    pc->meta.min_effect = p->pairs_min_effect;
    pc->meta.retest_s = p->pairs_retest_s;
}

static int pairs_open(fp_run_t *run)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    const fp_pairs_backend_t *b = pc->backend;
    int multi = pc->kind->pattern == FP_PAIRS_MULTI;
    FP_CHECK(b->init(&run->ctx, pc->meta.backend, sizeof pc->meta.backend));
    pc->ack_mem = run->ctx.staging ? &fp_mem_pinned : run->ctx.mem;
    FP_CHECK(pc->ack_mem->alloc(&pc->ack_in, 1));
    run->meta.family = &pc->meta;
    run->sampler = (fp_sampler_t){
        .kernel = multi ? b->multi : pc->kind->quantity == FP_QTY_LATENCY ? b->latency : b->bandwidth,
        .sync = b->sync,
        .complete = b->complete,
        .after = multi ? NULL : b->after,
        .reduce = multi ? reduce_mean_over_senders : fp_samples_of_rank0,
    };
    FP_CHECK(gather_names(run, pc));
    if (multi && run->ctx.rank == 0)
        FP_CHECK(describe_pairs(pc));
    if (!multi) {
        describe_sweep(run, pc);
        fp_rollcall_not_lockstep(); /* a pair measured alone leaves the others behind by design */
    }
    return FP_OK;
}

static void pairs_close(fp_run_t *run)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (!pc)
        return;
    if (pc->backend && pc->backend->fini) /* none when this build lacks the backend */
        pc->backend->fini(&run->ctx);
    fp_pairs_matrix_close(&pc->matrix);
    if (pc->ack_in)
        pc->ack_mem->release(pc->ack_in);
    fp_pairs_topology_close(pc);
    for (int i = 0; pc->hosts && i < run->ctx.nranks; i++)
        free(pc->hosts[i]);
    free(pc->hosts);
    free(pc->names);
    free(pc->name_list);
    free((char *)pc->meta.pairs);
    run->meta.family = NULL;
    free(pc);
    run->ctx.family = NULL;
}

static size_t pairs_round(const fp_run_t *run, size_t bytes)
{
    (void)run;
    return bytes;
}

/* osu_mbw_mr's time: the senders' times summed, over the number of pairs. */
static int reduce_mean_over_senders(fp_run_t *run, size_t n, double *dst)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (pc->send_to < 0)
        memset(run->samples, 0, n * sizeof *run->samples); /* collected again before any reuse */
    void *from = run->ctx.rank == 0 && dst == run->samples ? MPI_IN_PLACE : (void *)run->samples;
    FP_MPI_CHECK(MPI_Reduce(from, dst, (int)n, MPI_DOUBLE, MPI_SUM, 0, run->ctx.comm));
    if (run->ctx.rank == 0)
        for (size_t i = 0; i < n; i++)
            dst[i] /= pc->npairs;
    return FP_OK;
}

/* Samples (seconds per sample of `batch` windows) -> the row: us per window; aggregate MB/s of
 * all pairs from the mean (OSU's figure) and from the median and its CI. */
static int multi_measure(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    long batch = 0;
    size_t n;
    int met;
    FP_CHECK(fp_sample_size(run, bytes, &batch, &n, &met));
    memset(row, 0, sizeof *row);
    row->size = bytes;
    row->batch = batch;
    row->target_met = met;
    row->staged = run->params.staging;
    row->check = -1;
    /* A sender's windows or a receiver's, every operation run; an idle odd rank names itself: it
     * moved nothing that had to cross nodes. */
    row->traffic_peer = pc->send_to >= 0 ? pc->send_to : pc->recv_from >= 0 ? pc->recv_from : run->ctx.rank;
    row->traffic_bytes = row->traffic_peer == run->ctx.rank ? 0 : (double)bytes * (double)run->ctx.window *
                                                                       (double)run->operations;
    if (run->ctx.rank != 0)
        return FP_OK;
    double scale = 1e6 / (double)batch; /* seconds per sample -> us per window */
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= scale;
    fp_stats_compute(run->samples, n, &row->time);
    fp_stats_resolve(&row->time, run->timer_resolution_s * scale);
    fp_stats_batch_means(&row->time, batch);
    double moved = (double)bytes * (double)run->ctx.window * pc->npairs;
    row->osu = moved / row->time.mean;
    row->headline = (fp_estimate_t){moved / row->time.p50, moved / row->time.p50_hi, moved / row->time.p50_lo};
    return FP_OK;
}

static int pairs_measure(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    if (fp_pairs_ctx(&run->ctx)->kind->pattern == FP_PAIRS_MULTI)
        return multi_measure(run, bytes, row);
    return fp_pairs_sweep(run, bytes, row);
}

/* Every message of one window, each with its own content: multi-pair with its pairs, a sweep
 * with shift 1 (every rank sends and receives). */
static int pairs_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    if (pc->kind->pattern == FP_PAIRS_ALL) {
        pc->send_to = (ctx->rank + 1) % ctx->nranks;
        pc->recv_from = (ctx->rank + ctx->nranks - 1) % ctx->nranks;
    }
    long wrong = 0, total = 0;
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    FP_CHECK(pc->backend->validate_window(ctx, bytes, round, run->check_buffer, &wrong));
    FP_MPI_CHECK(MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, ctx->comm));
    row->wrong = total;
    row->check = total == 0;
    return FP_OK;
}

/* A soak: every cell the sweep measured, its median a series of its own, so that one link's step
 * shows though the size's median over all cells does not move. */
static int pairs_soak_series(fp_run_t *run, size_t size, fp_soak_t *soak, double t_s, const char *link_errors)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (pc->kind->pattern != FP_PAIRS_ALL || !pc->matrix.cells)
        return FP_OK;
    size_t n = pc->matrix.layout.n;
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            const fp_cell_t *c = fp_pairs_matrix_cell(&pc->matrix, a, b);
            if (!c)
                continue;
            char label[2 * MPI_MAX_PROCESSOR_NAME + 8];
            snprintf(label, sizeof label, "%s -> %s", pc->name_list[a], pc->name_list[b]);
            FP_CHECK(fp_soak_add_cell(soak, run->cycle, size, (int)a, (int)b, label, c->median, t_s, link_errors));
        }
    return FP_OK;
}

const fp_family_t fp_family_pairs = {
    .name = "pairs",
    .prepare = pairs_prepare,
    .open = pairs_open,
    .close = pairs_close,
    .round = pairs_round,
    .measure = pairs_measure,
    .validate = pairs_validate,
    .soak_series = pairs_soak_series,
};
