#include "comm.h"

#include "memory.h"

enum { FP_TAG_DATA = 1, FP_TAG_ACK = 2 };

int fp_stage_out(fp_ctx_t *ctx, size_t bytes)
{
    return ctx->staging ? ctx->mem->to_host(ctx->wire_sbuf, ctx->sbuf, bytes) : FP_OK;
}

int fp_stage_in(fp_ctx_t *ctx, size_t bytes)
{
    return ctx->staging ? ctx->mem->from_host(ctx->rbuf, ctx->wire_rbuf, bytes) : FP_OK;
}

int fp_send(fp_ctx_t *ctx, size_t bytes)
{
    FP_CHECK(fp_stage_out(ctx, bytes));
    FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm));
    return FP_OK;
}

int fp_recv(fp_ctx_t *ctx, size_t bytes)
{
    FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm,
                          MPI_STATUS_IGNORE));
    return fp_stage_in(ctx, bytes);
}

int fp_isend(fp_ctx_t *ctx, size_t bytes, MPI_Request *request)
{
    FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm, request));
    return FP_OK;
}

int fp_irecv(fp_ctx_t *ctx, size_t bytes, MPI_Request *request)
{
    FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm, request));
    return FP_OK;
}

int fp_waitall(fp_ctx_t *ctx, int count, MPI_Request *requests)
{
    (void)ctx;
    /* MPICH's MPI_STATUSES_IGNORE is (MPI_Status *)1, which GCC takes for an empty array. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    FP_MPI_CHECK(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic pop
#endif
    return FP_OK;
}

int fp_send_ack(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, 1, MPI_BYTE, ctx->peer, FP_TAG_ACK, ctx->comm));
    return FP_OK;
}

int fp_recv_ack(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, 1, MPI_BYTE, ctx->peer, FP_TAG_ACK, ctx->comm, MPI_STATUS_IGNORE));
    return FP_OK;
}
