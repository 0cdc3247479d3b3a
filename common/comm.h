/* Point-to-point moves of a kernel. With --staging, device data goes through pinned host
 * copies here, inside the timed region, so the kernels stay the same for every placement. */
#ifndef FP_COMM_H
#define FP_COMM_H

#include "fp.h"

/* Blocking: sbuf -> peer, peer -> rbuf; staged per message. */
int fp_send(fp_ctx_t *ctx, size_t bytes);
int fp_recv(fp_ctx_t *ctx, size_t bytes);

/* Windowed: post on the wire buffers; the window stages once each side (fp_stage_*). */
int fp_isend(fp_ctx_t *ctx, size_t bytes, MPI_Request *request);
int fp_irecv(fp_ctx_t *ctx, size_t bytes, MPI_Request *request);
int fp_waitall(fp_ctx_t *ctx, int count, MPI_Request *requests);
int fp_stage_out(fp_ctx_t *ctx, size_t bytes); /* device sbuf -> wire sbuf */
int fp_stage_in(fp_ctx_t *ctx, size_t bytes);  /* wire rbuf -> device rbuf */

/* The one-byte acknowledgement that closes a bandwidth window. */
int fp_send_ack(fp_ctx_t *ctx);
int fp_recv_ack(fp_ctx_t *ctx);

#endif
