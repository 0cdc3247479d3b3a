/* The MPI backend of the pairs family: its timed regions and its validation of every message.
 * Each rank has this round's partners: send_to (-1: sends nothing) and recv_from (-1: receives
 * nothing). */
#include <string.h>

#include "comm.h"
#include "pairs.h"
#include "pattern.h"

/* osu_mbw_mr: a sender posts a window and waits for its receiver's ack; a receiver the reverse. */
static int mpi_multi(fp_ctx_t *ctx, size_t bytes, long batch)
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

/* The receive side of a sweep round is served while the rank sends, so that a rank's time as a
 * sender never includes waiting for what it receives: a window (bandwidth) or a ping (latency)
 * from recv_from is acknowledged (answered) as soon as it is complete, from inside the sending
 * loop, and what is left when the rank's own sends are done is served after the sample's timed
 * region (fp_sampler_t.after), before any collective call. requests[0, W): sends; [W, 2W): receives. Outstanding
 * receives share the receive buffer, as osu_bw's window does: their content is not looked at. */

static int rx_post(fp_ctx_t *ctx, fp_pairs_ctx_t *pc, size_t bytes)
{
    int n = pc->kind->quantity == FP_QTY_LATENCY ? 1 : (int)ctx->window;
    for (int w = 0; w < n; w++)
        FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_DATA, ctx->comm,
                               &ctx->requests[ctx->window + w]));
    pc->rx_posted = 1;
    return FP_OK;
}

/* Completes the posted receive if it is done (or waits, when block): acknowledges the window with
 * one byte, or answers the ping with a pong of the same size; posts the next one if more come. */
static int rx_serve(fp_ctx_t *ctx, fp_pairs_ctx_t *pc, size_t bytes, int block)
{
    int latency = pc->kind->quantity == FP_QTY_LATENCY, n = latency ? 1 : (int)ctx->window;
    while (pc->rx_posted) {
        int done = 1;
        if (block)
            FP_CHECK(fp_waitall(n, &ctx->requests[ctx->window]));
        else
            FP_CHECK(fp_testall(n, &ctx->requests[ctx->window], &done));
        if (!done)
            return FP_OK;
        FP_CHECK(fp_stage_in(ctx, bytes));
        if (latency)
            FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->recv_from, FP_TAG_ACK, ctx->comm));
        else
            FP_MPI_CHECK(MPI_Send(ctx->wire_sbuf, 1, MPI_BYTE, pc->recv_from, FP_TAG_ACK, ctx->comm));
        pc->rx_posted = 0;
        if (--pc->rx_left > 0)
            FP_CHECK(rx_post(ctx, pc, bytes));
    }
    return FP_OK;
}

static int rx_begin(fp_ctx_t *ctx, fp_pairs_ctx_t *pc, size_t bytes, long batch)
{
    pc->rx_bytes = bytes;
    pc->rx_left = pc->recv_from >= 0 ? batch : 0;
    return pc->rx_left > 0 ? rx_post(ctx, pc, bytes) : FP_OK;
}

/* Polls the sends of one operation and its answer (count requests) while serving receives. */
static int send_side_wait(fp_ctx_t *ctx, fp_pairs_ctx_t *pc, int count, MPI_Request *requests, size_t bytes)
{
    for (;;) {
        int done;
        FP_CHECK(fp_testall(count, requests, &done));
        if (done)
            return FP_OK;
        FP_CHECK(rx_serve(ctx, pc, bytes, 0));
    }
}

/* Sweep bandwidth: a window to send_to and its 1-byte ack (osu_bw's operation), while windows from
 * recv_from are received and acknowledged. */
static int mpi_bandwidth(fp_ctx_t *ctx, size_t bytes, long batch)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    int window = (int)ctx->window;
    FP_CHECK(rx_begin(ctx, pc, bytes, batch));
    for (long i = 0; pc->send_to >= 0 && i < batch; i++) {
        FP_CHECK(fp_stage_out(ctx, bytes));
        for (int w = 0; w < window; w++)
            FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_DATA, ctx->comm,
                                   &ctx->requests[w]));
        FP_MPI_CHECK(MPI_Irecv(pc->ack_in, 1, MPI_BYTE, pc->send_to, FP_TAG_ACK, ctx->comm, &pc->answer));
        FP_CHECK(send_side_wait(ctx, pc, window, ctx->requests, bytes));
        FP_CHECK(send_side_wait(ctx, pc, 1, &pc->answer, bytes));
    }
    return FP_OK;
}

/* Sweep latency: ping send_to and wait for its pong, while pings from recv_from are answered. */
static int mpi_latency(fp_ctx_t *ctx, size_t bytes, long batch)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    FP_CHECK(rx_begin(ctx, pc, bytes, batch));
    for (long i = 0; pc->send_to >= 0 && i < batch; i++) {
        MPI_Request ping[2];
        FP_CHECK(fp_stage_out(ctx, bytes));
        FP_MPI_CHECK(MPI_Irecv(ctx->wire_rbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_ACK, ctx->comm, &ping[0]));
        FP_MPI_CHECK(MPI_Isend(ctx->wire_sbuf, (int)bytes, MPI_BYTE, pc->send_to, FP_TAG_DATA, ctx->comm, &ping[1]));
        FP_CHECK(send_side_wait(ctx, pc, 2, ping, bytes));
        FP_CHECK(fp_stage_in(ctx, bytes));
    }
    return FP_OK;
}

/* After each sample's timed region: what is left to receive and answer. */
static int mpi_after(fp_ctx_t *ctx)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    return rx_serve(ctx, pc, pc->rx_bytes, 1);
}

static int mpi_barrier(fp_ctx_t *ctx)
{
    FP_MPI_CHECK(MPI_Barrier(ctx->comm));
    return FP_OK;
}

/* The pattern round of message w of validation round `round`: each message its own content, so
 * that a lost, repeated or reordered message is seen as well as a flipped byte. */
uint32_t fp_pairs_message_round(uint32_t round, int w)
{
    return round * 65537u + (uint32_t)w;
}

static int mpi_validate_window(fp_ctx_t *ctx, size_t bytes, uint32_t round, unsigned char *host, long *wrong)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(ctx);
    int to = pc->send_to >= 0 ? pc->send_to : MPI_PROC_NULL;
    int from = pc->recv_from >= 0 ? pc->recv_from : MPI_PROC_NULL;
    *wrong = 0;
    for (int w = 0; w < (int)ctx->window; w++) {
        if (pc->send_to >= 0) {
            fp_pattern_fill(host, bytes, ctx->rank, fp_pairs_message_round(round, w));
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
            *wrong += (long)fp_pattern_count_wrong(host, bytes, pc->recv_from, fp_pairs_message_round(round, w));
        }
    }
    return FP_OK;
}

/* MPI needs no set-up of its own; the header names a backend only where it is not MPI. */
static int mpi_init(fp_ctx_t *ctx, char *about, size_t len)
{
    (void)ctx;
    if (len)
        about[0] = '\0';
    return FP_OK;
}

static void mpi_fini(fp_ctx_t *ctx)
{
    (void)ctx;
}

const fp_pairs_backend_t fp_pairs_mpi = {
    .name = "mpi", .init = mpi_init, .fini = mpi_fini, .multi = mpi_multi, .bandwidth = mpi_bandwidth,
    .latency = mpi_latency, .sync = mpi_barrier, .after = mpi_after, .validate_window = mpi_validate_window,
};
