/* fabperf_mbw_mr: multi-pair bandwidth and message rate, as osu_mbw_mr measures them. */
#include "pairs.h"

static const fp_pairs_t multi = {.pattern = FP_PAIRS_MULTI, .quantity = FP_QTY_RATE};

static const fp_bench_t mbw_mr = {
    .name = "mbw_mr",
    .title = "Multiple Bandwidth / Message Rate Test (rank i < n/2 sends to rank i + n/2)",
    .sample_text = "batch of windows per sender; one operation = a window and its 1-byte ack; a sample "
                   "is the mean of the senders' times (osu_mbw_mr's)",
    .family = &fp_family_pairs,
    .pairs = &multi,
    .metric = &fp_metric_msgrate,
    .uses = FP_USES_WINDOW | FP_USES_BACKEND,
    .directions = 1,
    .default_max = 4 << 20,
};

int main(int argc, char **argv)
{
    return fp_main(&mbw_mr, argc, argv);
}
