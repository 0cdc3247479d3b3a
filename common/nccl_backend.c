/* The NCCL backend of the collectives: one communicator over MPI_COMM_WORLD's ranks, one GPU
 * per rank (chosen by the core from the node-local rank), calls on the core's GPU stream. */
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "collective.h"
#include "gpu.h"

#define FP_NCCL_CHECK(call)                                                                        \
    do {                                                                                           \
        ncclResult_t fp_nccl_rc_ = (call);                                                         \
        if (fp_nccl_rc_ != ncclSuccess && fp_nccl_rc_ != ncclInProgress)                           \
            return nccl_fail(fp_nccl_rc_, #call, __FILE__, __LINE__);                              \
    } while (0)

typedef struct nccl_state {
    ncclComm_t comm;
    cudaStream_t stream;
} nccl_state_t;

static int nccl_fail(ncclResult_t rc, const char *call, const char *file, int line)
{
    const char *last = ncclGetLastError(NULL);
    return fp_fail("%s failed at %s:%d: %s%s%s", call, file, line, ncclGetErrorString(rc),
                   last && last[0] ? ": " : "", last ? last : "");
}

static nccl_state_t *state(fp_ctx_t *ctx)
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

/* Waits for the stream while polling the communicator: a broken peer gives an error, not a
 * hang. The communicator is aborted on error so that no rank stays blocked in NCCL. */
static int stream_wait(nccl_state_t *s)
{
    for (;;) {
        cudaError_t rc = cudaStreamQuery(s->stream);
        if (rc == cudaSuccess)
            return FP_OK;
        if (rc != cudaErrorNotReady)
            return fp_fail("cudaStreamQuery failed: %s", cudaGetErrorString(rc));
        ncclResult_t async = ncclSuccess;
        FP_NCCL_CHECK(ncclCommGetAsyncError(s->comm, &async));
        if (async != ncclSuccess && async != ncclInProgress) {
            int failed = nccl_fail(async, "ncclCommGetAsyncError (a peer failed or a call was invalid)",
                                   __FILE__, __LINE__);
            ncclCommAbort(s->comm);
            s->comm = NULL;
            return failed;
        }
    }
}

static int nccl_init(fp_ctx_t *ctx, char *about, size_t len)
{
    ncclUniqueId id;
    int version = 0, device = -1;
    nccl_state_t *s = calloc(1, sizeof *s);
    if (!s)
        return fp_fail("calloc(NCCL state) failed");
    fp_coll_ctx(ctx)->state = s;
    s->stream = (cudaStream_t)fp_gpu_stream();
    if (ctx->rank == 0)
        FP_NCCL_CHECK(ncclGetUniqueId(&id));
    FP_MPI_CHECK(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, ctx->comm));
    FP_NCCL_CHECK(ncclCommInitRank(&s->comm, ctx->nranks, id, ctx->rank));
    FP_NCCL_CHECK(ncclGetVersion(&version));
    FP_NCCL_CHECK(ncclCommCuDevice(s->comm, &device));
    snprintf(about, len, "nccl %d.%d.%d (built with %d.%d.%d), one GPU per rank, rank 0 on device %d",
             version / 10000, version / 100 % 100, version % 100, NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH,
             device);
    return FP_OK;
}

static void nccl_fini(fp_ctx_t *ctx)
{
    nccl_state_t *s = state(ctx);
    if (!s)
        return;
    if (s->comm)
        ncclCommDestroy(s->comm);
    free(s);
    fp_coll_ctx(ctx)->state = NULL;
}

static int nccl_sync(fp_ctx_t *ctx)
{
    FP_CHECK(stream_wait(state(ctx)));
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    return FP_OK;
}

static int nccl_complete(fp_ctx_t *ctx)
{
    /* CUDA events are recorded on the same stream and time the work themselves. */
    return ctx->params->timer == FP_TIMER_CUDA ? FP_OK : stream_wait(state(ctx));
}

static int nccl_allreduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    nccl_state_t *s = state(ctx);
    FP_NCCL_CHECK(ncclAllReduce(send, recv, count, nccl_type(ctx), nccl_op(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_allgather(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    nccl_state_t *s = state(ctx);
    FP_NCCL_CHECK(ncclAllGather(send, recv, count, nccl_type(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_reduce_scatter(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    nccl_state_t *s = state(ctx);
    FP_NCCL_CHECK(ncclReduceScatter(send, recv, count, nccl_type(ctx), nccl_op(ctx), s->comm, s->stream));
    return FP_OK;
}

static int nccl_bcast(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    nccl_state_t *s = state(ctx);
    FP_NCCL_CHECK(ncclBroadcast(send, recv, count, nccl_type(ctx), root, s->comm, s->stream));
    return FP_OK;
}

static int nccl_reduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    nccl_state_t *s = state(ctx);
    FP_NCCL_CHECK(ncclReduce(send, recv, count, nccl_type(ctx), nccl_op(ctx), root, s->comm, s->stream));
    return FP_OK;
}

/* Pairwise sends and receives in one group, as nccl-tests does (works with every NCCL). */
static int nccl_alltoall(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    nccl_state_t *s = state(ctx);
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
    .rs_in_place_at_start = 0, .device_only = 1,
};
