/* The NCCL backend of the collectives: one communicator over MPI_COMM_WORLD's ranks, one GPU
 * per rank (chosen by the core from the node-local rank), calls on the core's GPU stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collective.h"
#include "gpu.h"
#include "nccl_algo.h"
#include "nccl_comm.h"
#include "nccl_log.h"

/* NCCL loads one profiler plugin per process. */
static fp_nccl_algo_t algo;

static fp_nccl_t *state(fp_ctx_t *ctx)
{
    return fp_coll_ctx(ctx)->state;
}

static ncclDataType_t nccl_type(const fp_ctx_t *ctx)
{
    static const ncclDataType_t types[FP_TYPE_COUNT] = {
        [FP_TYPE_FLOAT] = ncclFloat32, [FP_TYPE_DOUBLE] = ncclFloat64, [FP_TYPE_INT32] = ncclInt32,
        [FP_TYPE_INT64] = ncclInt64,   [FP_TYPE_HALF] = ncclFloat16,   [FP_TYPE_BFLOAT16] = ncclBfloat16};
    return types[ctx->params->datatype];
}

static ncclRedOp_t nccl_op(const fp_ctx_t *ctx)
{
    static const ncclRedOp_t ops[FP_OP_COUNT] = {
        [FP_OP_SUM] = ncclSum, [FP_OP_PROD] = ncclProd, [FP_OP_MAX] = ncclMax, [FP_OP_MIN] = ncclMin};
    return ops[ctx->params->op];
}

/* What NCCL says it chose (rank 0's log), appended to about. */
static void record_transport(int readable, const char *path, int ours, char *about, size_t len)
{
    fp_nccl_transport_t t;
    char text[320];
    fp_nccl_transport_init(&t);
    if (!readable)
        snprintf(text, sizeof text, "%.300s", path);
    else if (fp_nccl_log_file(&t, path, stderr) != FP_OK)
        snprintf(text, sizeof text, "unknown (cannot read NCCL's log %.250s)", path);
    else
        fp_nccl_transport_text(&t, text, sizeof text);
    if (ours && readable)
        unlink(path);
    size_t used = strlen(about);
    snprintf(about + used, len - used, "; transport (rank 0, from NCCL's log): %s", text);
}

static int nccl_init(fp_ctx_t *ctx, char *about, size_t len)
{
    char log_path[512], version[128];
    int ours, readable = fp_nccl_log_prepare(log_path, sizeof log_path, &ours);
    int device = -1;
    fp_nccl_t *s = calloc(1, sizeof *s);
    if (!s)
        return fp_fail("calloc(NCCL state) failed");
    fp_coll_ctx(ctx)->state = s;
    fp_nccl_algo_prepare(&algo);
    int rc = fp_nccl_open(s, ctx->comm, ctx->rank, ctx->nranks, version, sizeof version, &device);
    fp_nccl_algo_attach(&algo);
    FP_CHECK(rc);
    snprintf(about, len, "%s, one GPU per rank, rank 0 on device %d", version, device);
    if (ctx->rank == 0)
        record_transport(readable, log_path, ours, about, len);
    else if (ours)
        unlink(log_path);
    char chosen[512];
    if (ctx->nranks == 1)
        snprintf(chosen, sizeof chosen, "none with one rank (NCCL copies locally)");
    else
        fp_nccl_algo_about(&algo, chosen, sizeof chosen);
    size_t used = strlen(about);
    snprintf(about + used, len - used, "; algorithm per size: %s", chosen);
    return FP_OK;
}

static void nccl_fini(fp_ctx_t *ctx)
{
    fp_nccl_t *s = state(ctx);
    if (!s)
        return;
    fp_nccl_close(s);
    free(s);
    fp_coll_ctx(ctx)->state = NULL;
}

static int nccl_sync(fp_ctx_t *ctx)
{
    FP_CHECK(fp_nccl_wait(state(ctx)));
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    return FP_OK;
}

static int nccl_complete(fp_ctx_t *ctx)
{
    /* CUDA events are recorded on the same stream and time the work themselves. */
    return ctx->params->timer == FP_TIMER_CUDA ? FP_OK : fp_nccl_wait(state(ctx));
}

static int nccl_wait(fp_ctx_t *ctx)
{
    return fp_nccl_wait(state(ctx));
}

/* --isolate: a group's own communicator, split from the job's. */
static int nccl_split(fp_ctx_t *ctx, int color, int key, void **group_state)
{
    fp_nccl_t *child = calloc(1, sizeof *child);
    if (!child)
        return fp_fail("calloc(NCCL group state) failed");
    if (fp_nccl_split(state(ctx), color, key, child) != FP_OK) {
        free(child);
        return FP_ERR;
    }
    *group_state = child;
    return FP_OK;
}

static void nccl_unsplit(fp_ctx_t *ctx, void *group_state)
{
    (void)ctx;
    if (group_state)
        fp_nccl_close(group_state);
    free(group_state);
}

static int nccl_allreduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    fp_nccl_t *s = state(ctx);
    FP_NCCL_CHECK(ncclAllReduce(send, recv, count, nccl_type(ctx), nccl_op(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_allgather(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    fp_nccl_t *s = state(ctx);
    FP_NCCL_CHECK(ncclAllGather(send, recv, count, nccl_type(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_reduce_scatter(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    fp_nccl_t *s = state(ctx);
    FP_NCCL_CHECK(ncclReduceScatter(send, recv, count, nccl_type(ctx), nccl_op(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_bcast(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    fp_nccl_t *s = state(ctx);
    FP_NCCL_CHECK(ncclBroadcast(send, recv, count, nccl_type(ctx), root, s->comm, s->stream));
    return FP_OK;
}

static int nccl_reduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    fp_nccl_t *s = state(ctx);
    FP_NCCL_CHECK(ncclReduce(send, recv, count, nccl_type(ctx), nccl_op(ctx), root, s->comm, s->stream));
    return FP_OK;
}

/* Rank 0's choices are reported; every rank records its own. */
static int nccl_watch(fp_ctx_t *ctx, int on)
{
    if (!algo.arm || ctx->nranks == 1)
        return 0;
    algo.arm(on);
    return 1;
}

static void nccl_chosen(fp_ctx_t *ctx, fp_nccl_choices_t *out)
{
    (void)ctx;
    algo.take(out);
}

/* Pairwise sends and receives in one group, as nccl-tests does (works with every NCCL). */
static int nccl_alltoall(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    fp_nccl_t *s = state(ctx);
    size_t block = count * fp_types[ctx->params->datatype].size;
    FP_NCCL_CHECK(ncclGroupStart());
    for (int peer = 0; peer < ctx->nranks; peer++) {
        FP_NCCL_CHECK(ncclSend((const char *)send + (size_t)peer * block, count, nccl_type(ctx), peer,
                               s->comm, s->stream));
        FP_NCCL_CHECK(ncclRecv((char *)recv + (size_t)peer * block, count, nccl_type(ctx), peer, s->comm,
                               s->stream));
    }
    FP_NCCL_CHECK(ncclGroupEnd());
    return FP_OK;
}

const fp_coll_ops_t fp_coll_nccl = {
    .name = "nccl", .init = nccl_init, .fini = nccl_fini, .sync = nccl_sync, .complete = nccl_complete,
    .allreduce = nccl_allreduce, .allgather = nccl_allgather, .reduce_scatter = nccl_reduce_scatter,
    .bcast = nccl_bcast, .reduce = nccl_reduce, .alltoall = nccl_alltoall,
    .types = (1u << FP_TYPE_COUNT) - 1,
    .no_in_place = 1u << FP_COLL_ALLTOALL, /* sends would read what receives overwrite */
    .rs_in_place_at_start = 0, .device_only = 1, .min_batch = FP_NCCL_MIN_BATCH,
    .split = nccl_split, .unsplit = nccl_unsplit, .wait = nccl_wait,
    .watch = nccl_watch, .chosen = nccl_chosen,
};
