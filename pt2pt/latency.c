/* fabperf_latency: blocking ping-pong between rank 0 and rank 1; one operation = RTT / 2. */
#include "comm.h"
#include "fp.h"

static int latency_sample(fp_ctx_t *ctx, size_t bytes, long batch)
{
    for (long i = 0; i < batch; i++) {
        if (ctx->rank == 0) {
            FP_CHECK(fp_send(ctx, bytes));
            FP_CHECK(fp_recv(ctx, bytes));
        } else {
            FP_CHECK(fp_recv(ctx, bytes));
            FP_CHECK(fp_send(ctx, bytes));
        }
    }
    return FP_OK;
}

static const fp_bench_t latency = {
    .name = "latency",
    .title = "Latency Test (ping-pong, blocking MPI_Send/MPI_Recv)",
    .sample_text = "batch of round trips; one operation = round trip / 2",
    .family = &fp_family_pt2pt,
    .ranks = 2,
    .metric = &fp_metric_latency,
    .time_divisor = 2.0,
    .default_max = 4 << 20,
    .check_ranks = 0x3, /* both ranks receive a full message */
    .sample = latency_sample,
};

int main(int argc, char **argv)
{
    return fp_main(&latency, argc, argv);
}
