/* fabperf_allpairs: bandwidth of every ordered pair of ranks, a matrix judged for slow nodes,
 * links and directions. */
#include "pairs.h"

static const fp_pairs_t all_bw = {.pattern = FP_PAIRS_ALL, .quantity = FP_QTY_RATE};

static const fp_bench_t allpairs = {
    .name = "allpairs",
    .title = "All-Pairs Bandwidth (a window to each partner and its ack; pairs: see sweep)",
    .sample_text = "per rank and round: batch of windows to its partner; one operation = a window and its "
                   "1-byte ack; a cell = the sender's median",
    .family = &fp_family_pairs,
    .pairs = &all_bw,
    .metric = &fp_metric_pairs_bandwidth,
    .uses = FP_USES_WINDOW | FP_USES_SWEEP | FP_USES_BACKEND,
    .directions = 1,
    .default_max = 1 << 20,
};

int main(int argc, char **argv)
{
    return fp_main(&allpairs, argc, argv);
}
