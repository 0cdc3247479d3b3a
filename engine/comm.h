/* Point-to-point moves of a kernel. With --staging, device data goes through pinned host
 * copies here, inside the timed region, so the kernels stay the same for every placement.
 * Inline: in the timed region these add one predictable branch to the MPI call, no call. */
#ifndef FP_COMM_H
#define FP_COMM_H

#include "fp.h"
#include "memory.h"

enum { FP_TAG_DATA = 1, FP_TAG_ACK = 2 };

/* The family of the point-to-point programs (pt2pt_run.c): two ranks, rank 0's samples. */
extern const struct fp_family fp_family_pt2pt;
/* Its metrics (pt2pt_schema.c): latency (us) and bandwidth (MB/s). */
extern const struct fp_metric fp_metric_latency, fp_metric_bandwidth;

/* Device sbuf -> wire sbuf, wire rbuf -> device rbuf; nothing unless staging. */
static inline int fp_stage_out(fp_ctx_t *ctx, size_t bytes)
{
    return ctx->staging ? ctx->mem->to_host(ctx->wire_sbuf, ctx->sbuf, bytes) : FP_OK;
}

static inline int fp_stage_in(fp_ctx_t *ctx, size_t bytes)
{
    return ctx->staging ? ctx->mem->from_host(ctx->rbuf, ctx->wire_rbuf, bytes) : FP_OK;
}

/* Blocking: sbuf -> peer, peer -> rbuf; staged per message. */
static inline int fp_send(fp_ctx_t *ctx, size_t bytes)
{
    FP_CHECK(fp_stage_out(ctx, bytes));
    FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm));
    return FP_OK;
}

static inline int fp_recv(fp_ctx_t *ctx, size_t bytes)
{
    FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm,
                          MPI_STATUS_IGNORE));
    return fp_stage_in(ctx, bytes);
}

/* Windowed: message w of a window is posted on the wire buffers, or on its own slot while a
 * validation round checks it (one predictable branch in the timed loop). */
static inline void *fp_window_slot(const fp_ctx_t *ctx, unsigned char *slots, void *wire, size_t bytes, int w)
{
    unsigned long k = (unsigned long)(w - ctx->slot_first);
    return slots && k < (unsigned long)ctx->slot_count ? slots + k * bytes : wire;
}

static inline int fp_isend(fp_ctx_t *ctx, size_t bytes, int w, MPI_Request *request)
{
    void *buffer = fp_window_slot(ctx, ctx->slot_sbuf, ctx->wire_sbuf, bytes, w);
    FP_MPI_CHECK(MPI_Isend(buffer, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm, request));
    return FP_OK;
}

static inline int fp_irecv(fp_ctx_t *ctx, size_t bytes, int w, MPI_Request *request)
{
    void *buffer = fp_window_slot(ctx, ctx->slot_rbuf, ctx->wire_rbuf, bytes, w);
    FP_MPI_CHECK(MPI_Irecv(buffer, (int)bytes, MPI_BYTE, ctx->peer, FP_TAG_DATA, ctx->comm, request));
    return FP_OK;
}

/* MPICH declares the statuses argument as an array of `count` entries, and GCC then warns that
 * MPI_STATUSES_IGNORE (a sentinel pointer) is too small: the sentinel is what the standard asks. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
static inline int fp_waitall(int count, MPI_Request *requests)
{
    FP_MPI_CHECK(MPI_Waitall(count, requests, MPI_STATUSES_IGNORE));
    return FP_OK;
}

/* *done: all of them completed. */
static inline int fp_testall(int count, MPI_Request *requests, int *done)
{
    FP_MPI_CHECK(MPI_Testall(count, requests, done, MPI_STATUSES_IGNORE));
    return FP_OK;
}
#pragma GCC diagnostic pop

/* The one-byte acknowledgement that closes a bandwidth window. */
static inline int fp_send_ack(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, 1, MPI_BYTE, ctx->peer, FP_TAG_ACK, ctx->comm));
    return FP_OK;
}

static inline int fp_recv_ack(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, 1, MPI_BYTE, ctx->peer, FP_TAG_ACK, ctx->comm, MPI_STATUS_IGNORE));
    return FP_OK;
}

#endif
