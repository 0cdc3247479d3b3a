/* The MPI backend of the collectives: blocking MPI calls on whatever buffers the placement
 * gave (device buffers need a CUDA-aware MPI, which setup checks). */
#include <stdint.h>
#include <stdio.h>

#include "collective.h"

static MPI_Datatype mpi_type(const fp_ctx_t *ctx)
{
    switch ((fp_type_t)ctx->params->datatype) {
    case FP_TYPE_DOUBLE: return MPI_DOUBLE;
    case FP_TYPE_INT32: return MPI_INT32_T;
    case FP_TYPE_INT64: return MPI_INT64_T;
    default: return MPI_FLOAT;
    }
}

static MPI_Op mpi_op(const fp_ctx_t *ctx)
{
    switch ((fp_op_t)ctx->params->op) {
    case FP_OP_PROD: return MPI_PROD;
    case FP_OP_MAX: return MPI_MAX;
    case FP_OP_MIN: return MPI_MIN;
    default: return MPI_SUM;
    }
}

/* MPI_IN_PLACE where the variant is in place, the buffer otherwise. */
static const void *source(const fp_ctx_t *ctx, const void *send)
{
    return fp_coll_ctx(ctx)->in_place ? MPI_IN_PLACE : send;
}

static int mpi_init(fp_ctx_t *ctx, char *about, size_t len)
{
    (void)ctx;
    snprintf(about, len, "mpi (blocking MPI collectives)");
    return FP_OK;
}

static void mpi_fini(fp_ctx_t *ctx)
{
    (void)ctx;
}

static int mpi_sync(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    return FP_OK;
}

static int mpi_complete(fp_ctx_t *ctx)
{
    (void)ctx; /* blocking calls: done on return */
    return FP_OK;
}

static int mpi_allreduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    FP_MPI_CHECK(MPI_Allreduce(source(ctx, send), recv, (int)count, mpi_type(ctx), mpi_op(ctx), ctx->comm));
    return FP_OK;
}

static int mpi_allgather(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    MPI_Datatype type = mpi_type(ctx);
    FP_MPI_CHECK(MPI_Allgather(source(ctx, send), (int)count, type, recv, (int)count, type, ctx->comm));
    return FP_OK;
}

static int mpi_reduce_scatter(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    if (fp_coll_ctx(ctx)->in_place) /* MPI's in-place form takes the whole input and leaves block 0 at its start */
        recv = (char *)recv - (size_t)ctx->rank * count * fp_types[ctx->params->datatype].size;
    FP_MPI_CHECK(MPI_Reduce_scatter_block(source(ctx, send), recv, (int)count, mpi_type(ctx),
                                          mpi_op(ctx), ctx->comm));
    return FP_OK;
}

static int mpi_bcast(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    void *buffer = ctx->rank == root ? (void *)(uintptr_t)send : recv;
    FP_MPI_CHECK(MPI_Bcast(buffer, (int)count, mpi_type(ctx), root, ctx->comm));
    return FP_OK;
}

static int mpi_reduce(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root)
{
    const void *from = fp_coll_ctx(ctx)->in_place && ctx->rank == root ? MPI_IN_PLACE : send;
    /* Only the root receives; elsewhere the receive buffer would alias the send buffer. */
    void *to = ctx->rank == root ? recv : NULL;
    FP_MPI_CHECK(MPI_Reduce(from, to, (int)count, mpi_type(ctx), mpi_op(ctx), root, ctx->comm));
    return FP_OK;
}

static int mpi_alltoall(fp_ctx_t *ctx, const void *send, void *recv, size_t count)
{
    MPI_Datatype type = mpi_type(ctx);
    FP_MPI_CHECK(MPI_Alltoall(source(ctx, send), (int)count, type, recv, (int)count, type, ctx->comm));
    return FP_OK;
}

const fp_coll_ops_t fp_coll_mpi = {
    .name = "mpi", .init = mpi_init, .fini = mpi_fini, .sync = mpi_sync, .complete = mpi_complete,
    .allreduce = mpi_allreduce, .allgather = mpi_allgather, .reduce_scatter = mpi_reduce_scatter,
    .bcast = mpi_bcast, .reduce = mpi_reduce, .alltoall = mpi_alltoall,
    .types = 1u << FP_TYPE_FLOAT | 1u << FP_TYPE_DOUBLE | 1u << FP_TYPE_INT32 | 1u << FP_TYPE_INT64,
    .no_in_place = 0, .rs_in_place_at_start = 1, .device_only = 0,
};
