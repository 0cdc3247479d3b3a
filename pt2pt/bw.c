/* fabperf_bw: rank 0 sends a window of non-blocking messages, rank 1 answers with one ack. */
#include "comm.h"
#include "fp.h"

static int bw_sample(fp_ctx_t *ctx, size_t bytes, long batch)
{
    int window = (int)ctx->window;
    for (long i = 0; i < batch; i++) {
        if (ctx->rank == 0) {
            FP_CHECK(fp_stage_out(ctx, bytes));
            for (int w = 0; w < window; w++)
                FP_CHECK(fp_isend(ctx, bytes, w, &ctx->requests[w]));
            FP_CHECK(fp_waitall(window, ctx->requests));
            FP_CHECK(fp_recv_ack(ctx));
        } else {
            for (int w = 0; w < window; w++)
                FP_CHECK(fp_irecv(ctx, bytes, w, &ctx->requests[w]));
            FP_CHECK(fp_waitall(window, ctx->requests));
            FP_CHECK(fp_stage_in(ctx, bytes));
            FP_CHECK(fp_send_ack(ctx));
        }
    }
    return FP_OK;
}

static const fp_bench_t bw = {
    .name = "bw",
    .title = "Bandwidth Test (window of MPI_Isend, one ack per window)",
    .sample_text = "batch of windows; one operation = a window and its 1-byte ack",
    .family = &fp_family_pt2pt,
    .ranks = 2,
    .metric = &fp_metric_bandwidth,
    .uses = FP_USES_WINDOW,
    .time_divisor = 1.0,
    .directions = 1,
    .default_max = 4 << 20,
    .check_ranks = 0x2, /* rank 1 receives the data, rank 0 only the ack */
    .sample = bw_sample,
};

int main(int argc, char **argv)
{
    return fp_main(&bw, argc, argv);
}
