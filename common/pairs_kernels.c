/* The timed regions of the pairs family and its validation of every message. Each rank has this
 * round's partners: send_to (-1: sends nothing) and recv_from (-1: receives nothing). */
#include <string.h>

#include "comm.h"
#include "pairs.h"
#include "pattern.h"

/* osu_mbw_mr: a sender posts a window and waits for its receiver's ack; a receiver the reverse. */
int fp_pairs_multi_kernel(fp_ctx_t *ctx, size_t bytes, long batch)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    int window = (int)ctx->window;
    for (long i = 0; i < batch; i++) {
        if (pc->send_to >= 0) {
            FP_CHECK(fp_stage_out(ctx, bytes));
            for (int w = 0; w < window; w++)
                FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_DATA, ctx->comm,
                                       &ctx->requests[w]));
            FP_CHECK(fp_waitall(window, ctx->requests));
            FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, 1, MPI_BYTE, pc->send_to, FP_TAG_ACK, ctx->comm, MPI_STATUS_IGNORE));
        } else if (pc->recv_from >= 0) {
            for (int w = 0; w < window; w++)
                FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_DATA, ctx->comm,
                                       &ctx->requests[w]));
            FP_CHECK(fp_waitall(window, ctx->requests));
            FP_CHECK(fp_stage_in(ctx, bytes));
            FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, 1, MPI_BYTE, pc->recv_from, FP_TAG_ACK, ctx->comm));
        }
    }
    return FP_OK;
}

/* Sweep bandwidth: send a window to send_to while receiving one from recv_from, then ack the
 * window received and wait for the ack of the window sent (mpiGraph's pattern, osu_bw's ack). */
int fp_pairs_bw_kernel(fp_ctx_t *ctx, size_t bytes, long batch)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    int window = (int)ctx->window;
    for (long i = 0; i < batch; i++) {
        int n = 0;
        MPI_Request ack = MPI_REQUEST_NULL;
        for (int w = 0; pc->recv_from >= 0 && w < window; w++)
            FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_DATA, ctx->comm,
                                   &ctx->requests[n++]));
        if (pc->send_to >= 0)
            FP_CHECK(fp_stage_out(ctx, bytes));
        for (int w = 0; pc->send_to >= 0 && w < window; w++)
            FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_DATA, ctx->comm,
                                   &ctx->requests[n++]));
        FP_CHECK(fp_waitall(n, ctx->requests));
        if (pc->recv_from >= 0) {
            FP_CHECK(fp_stage_in(ctx, bytes));
            FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, 1, MPI_BYTE, pc->recv_from, FP_TAG_ACK, ctx->comm, &ack));
        }
        if (pc->send_to >= 0)
            FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, 1, MPI_BYTE, pc->send_to, FP_TAG_ACK, ctx->comm, MPI_STATUS_IGNORE));
        FP_MPI_CHECK(MPI_Wait(&ack, MPI_STATUS_IGNORE));
    }
    return FP_OK;
}

/* Sweep latency: ping send_to and answer recv_from's ping; the ping's receive completes before
 * the pong's is posted, so one receive buffer serves both. */
int fp_pairs_lat_kernel(fp_ctx_t *ctx, size_t bytes, long batch)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    for (long i = 0; i < batch; i++) {
        MPI_Request ping_in = MPI_REQUEST_NULL, ping_out = MPI_REQUEST_NULL, pong_out = MPI_REQUEST_NULL;
        if (pc->recv_from >= 0)
            FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_DATA, ctx->comm,
                                   &ping_in));
        if (pc->send_to >= 0) {
            FP_CHECK(fp_stage_out(ctx, bytes));
            FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_DATA, ctx->comm,
                                   &ping_out));
        }
        if (pc->recv_from >= 0) {
            FP_MPI_CHECK(MPI_Wait(&ping_in, MPI_STATUS_IGNORE));
            FP_CHECK(fp_stage_in(ctx, bytes));
            FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_ACK, ctx->comm,
                                   &pong_out));
        }
        if (pc->send_to >= 0) {
            FP_MPI_CHECK(MPI_Recv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_ACK, ctx->comm,
                                  MPI_STATUS_IGNORE));
            FP_CHECK(fp_stage_in(ctx, bytes));
        }
        FP_MPI_CHECK(MPI_Wait(&ping_out, MPI_STATUS_IGNORE));
        FP_MPI_CHECK(MPI_Wait(&pong_out, MPI_STATUS_IGNORE));
    }
    return FP_OK;
}

int fp_pairs_barrier(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    return FP_OK;
}

/* The pattern round of message w of validation round `round`: each message its own content, so
 * that a lost, repeated or reordered message is seen as well as a flipped byte. */
static uint32_t message_round(uint32_t round, int w)
{
    return round * 65537u + (uint32_t)w;
}

int fp_pairs_validate_window(fp_ctx_t *ctx, size_t bytes, uint32_t round, unsigned char *host, long *wrong)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    int to = pc->send_to >= 0 ? pc->send_to : MPI_PROC_NULL;
    int from = pc->recv_from >= 0 ? pc->recv_from : MPI_PROC_NULL;
    *wrong = 0;
    for (int w = 0; w < (int)ctx->window; w++) {
        if (pc->send_to >= 0) {
            fp_pattern_fill(host, bytes, ctx->rank, message_round(round, w));
            FP_CHECK(ctx->mem->from_host(ctx->sbuf, host, bytes));
            FP_CHECK(fp_stage_out(ctx, bytes));
        }
        if (pc->recv_from >= 0) {
            memset(host, 0, bytes);
            FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, bytes));
            if (ctx->staging)
                memset(ctx->wire_rbuf, 0, bytes);
        }
        FP_MPI_CHECK(MPI_Sendrecv(ctx->wire_sbuf, (int)bytes, MPI_BYTE, to, FP_TAG_DATA, ctx->wire_rbuf, (int)bytes,
                                  MPI_BYTE, from, FP_TAG_DATA, ctx->comm, MPI_STATUS_IGNORE));
        if (pc->recv_from >= 0) {
            FP_CHECK(fp_stage_in(ctx, bytes));
            FP_CHECK(ctx->mem->to_host(host, ctx->rbuf, bytes));
            *wrong += (long)fp_pattern_count_wrong(host, bytes, pc->recv_from, message_round(round, w));
        }
    }
    return FP_OK;
}
