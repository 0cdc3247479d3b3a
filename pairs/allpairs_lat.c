/* fabperf_allpairs_lat: latency of every pair of ranks (half a round trip), a matrix judged for
 * slow nodes and links. */
#include "pairs.h"

static const fp_pairs_t all_lat = {.pattern = FP_PAIRS_ALL, .quantity = FP_QTY_LATENCY};

static const fp_bench_t allpairs_lat = {
    .name = "allpairs_lat",
    .title = "All-Pairs Latency (a ping to each partner and its pong; pairs: see sweep)",
    .sample_text = "per rank and round: batch of ping-pongs with its partner; a cell = half the sender's "
                   "median round trip",
    .family = &fp_family_pairs,
    .pairs = &all_lat,
    .metric = &fp_metric_pairs_latency,
    .uses = FP_USES_SWEEP | FP_USES_BACKEND,
    .directions = 1,
    .default_max = 1 << 20,
};

int main(int argc, char **argv)
{
    return fp_main(&allpairs_lat, argc, argv);
}
