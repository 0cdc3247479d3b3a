/* fabperf_bibw: both ranks send a window to each other at once. */
#include "comm.h"
#include "fp.h"

static int bibw_sample(fp_ctx_t *ctx, size_t bytes, long batch)
{
    int window = (int)ctx->window;
    MPI_Request *recvs = ctx->requests, *sends = ctx->requests + window;
    for (long i = 0; i < batch; i++) {
        for (int w = 0; w < window; w++)
            FP_CHECK(fp_irecv(ctx, bytes, w, &recvs[w]));
        FP_CHECK(fp_stage_out(ctx, bytes));
        for (int w = 0; w < window; w++)
            FP_CHECK(fp_isend(ctx, bytes, w, &sends[w]));
        FP_CHECK(fp_waitall(2 * window, ctx->requests));
        FP_CHECK(fp_stage_in(ctx, bytes));
    }
    return FP_OK;
}

static const fp_bench_t bibw = {
    .name = "bibw",
    .title = "Bi-Directional Bandwidth Test (windows of MPI_Isend both ways at once)",
    .sample_text = "batch of window exchanges; bandwidth counts both directions",
    .family = &fp_family_pt2pt,
    .ranks = 2,
    .metric = &fp_metric_bandwidth,
    .uses = FP_USES_WINDOW,
    .time_divisor = 1.0,
    .directions = 2,
    .default_max = 4 << 20,
    .check_ranks = 0x3,
    .sample = bibw_sample,
};

int main(int argc, char **argv)
{
    return fp_main(&bibw, argc, argv);
}
