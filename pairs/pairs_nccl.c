/* The NCCL backend of the pairs family: one communicator over MPI_COMM_WORLD's ranks, one GPU per
 * rank (the core refused ranks sharing one, gpu_share.h), grouped ncclSend/ncclRecv on the core's
 * GPU stream. An operation moves a window: -W sends of `bytes` to send_to and -W receives from
 * recv_from in one group (NCCL matches them in order; no acknowledgement: the group completes when
 * both sides have moved the data). A latency operation is two groups, the ping (send to send_to,
 * receive from recv_from) and the pong (back the other way): a rank that only sends or only
 * receives in a round posts its half, so that every rank's groups match its partners'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "nccl_comm.h"
#include "pairs.h"
#include "pattern.h"

static fp_nccl_t *state(fp_ctx_t *ctx)
{
    return fp_pairs_ctx(ctx)->state;
}

static int nccl_init(fp_ctx_t *ctx, char *about, size_t len)
{
    char version[128];
    int device = -1;
    fp_nccl_t *s = calloc(1, sizeof *s);
    if (!s)
        return fp_fail("calloc(NCCL state) failed");
    fp_pairs_ctx(ctx)->state = s;
    FP_CHECK(fp_nccl_open(s, ctx->comm, ctx->rank, ctx->nranks, version, sizeof version, &device));
    snprintf(about, len, "%s, grouped ncclSend/ncclRecv, one GPU per rank, rank 0 on device %d", version, device);
    return FP_OK;
}

static void nccl_fini(fp_ctx_t *ctx)
{
    fp_nccl_t *s = state(ctx);
    if (!s)
        return;
    fp_nccl_close(s);
    free(s);
    fp_pairs_ctx(ctx)->state = NULL;
}

/* One group: `count` sends of bytes from send to `to` and `count` receives into recv from `from`
 * (-1: none). */
static int exchange(fp_nccl_t *s, const void *send, int to, void *recv, int from, size_t bytes, long count)
{
    FP_NCCL_CHECK(ncclGroupStart());
    for (long w = 0; w < count; w++) {
        if (to >= 0)
            FP_NCCL_CHECK(ncclSend(send, bytes, ncclUint8, to, s->comm, s->stream));
        if (from >= 0)
            FP_NCCL_CHECK(ncclRecv(recv, bytes, ncclUint8, from, s->comm, s->stream));
    }
    FP_NCCL_CHECK(ncclGroupEnd());
    return FP_OK;
}

/* A window per operation, both ways a rank has a partner (multi-pair: one way). */
static int nccl_window(fp_ctx_t *ctx, size_t bytes, long batch)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    for (long i = 0; i < batch; i++)
        FP_CHECK(exchange(state(ctx), ctx->sbuf, pc->send_to, ctx->rbuf, pc->recv_from, bytes, ctx->window));
    return FP_OK;
}

/* Ping to send_to (and from recv_from), then the pong back the other way. */
static int nccl_latency(fp_ctx_t *ctx, size_t bytes, long batch)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    for (long i = 0; i < batch; i++) {
        FP_CHECK(exchange(state(ctx), ctx->sbuf, pc->send_to, ctx->rbuf, pc->recv_from, bytes, 1));
        FP_CHECK(exchange(state(ctx), ctx->sbuf, pc->recv_from, ctx->rbuf, pc->send_to, bytes, 1));
    }
    return FP_OK;
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

/* Every message of a window in its own group, each with its own content, checked on arrival. */
static int nccl_validate_window(fp_ctx_t *ctx, size_t bytes, uint32_t round, unsigned char *host, long *wrong)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    fp_nccl_t *s = state(ctx);
    *wrong = 0;
    for (int w = 0; w < (int)ctx->window; w++) {
        if (pc->send_to >= 0) {
            fp_pattern_fill(host, bytes, ctx->rank, fp_pairs_message_round(round, w));
            FP_CHECK(ctx->mem->from_host(ctx->sbuf, host, bytes));
        }
        if (pc->recv_from >= 0) {
            memset(host, 0, bytes);
            FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, bytes));
        }
        FP_CHECK(exchange(s, ctx->sbuf, pc->send_to, ctx->rbuf, pc->recv_from, bytes, 1));
        FP_CHECK(fp_nccl_wait(s));
        if (pc->recv_from >= 0) {
            FP_CHECK(ctx->mem->to_host(host, ctx->rbuf, bytes));
            *wrong += (long)fp_pattern_count_wrong(host, bytes, pc->recv_from, fp_pairs_message_round(round, w));
        }
    }
    return FP_OK;
}

const fp_pairs_backend_t fp_pairs_nccl = {
    .name = "nccl", .init = nccl_init, .fini = nccl_fini, .multi = nccl_window, .bandwidth = nccl_window,
    .latency = nccl_latency, .sync = nccl_sync, .complete = nccl_complete,
    .validate_window = nccl_validate_window, .device_only = 1,
};
