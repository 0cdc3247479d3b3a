/* fabperf_bcast: the root's buffer ends on every rank. */
#include "collective.h"

static void bcast_layout(size_t count, int nranks, fp_coll_layout_t *l)
{
    (void)nranks;
    *l = (fp_coll_layout_t){.count = count, .send_count = count, .recv_count = count, .param_count = count};
}

/* Out of place, MPI leaves the root's receive buffer alone: only the other ranks are checked. */
static int bcast_expect(const fp_coll_check_t *c, size_t i, double *value)
{
    *value = c->input(c, c->root, i);
    return c->rank != c->root || c->in_place;
}

static const fp_coll_t bcast_coll = {
    .kind = FP_COLL_BCAST, .busbw = FP_BUSBW_ONE, .layout = bcast_layout, .expect = bcast_expect,
};

static const fp_bench_t bcast = {
    .name = "bcast",
    .title = "Broadcast Test (MPI_Bcast / ncclBroadcast)",
    .sample_text = "batch of calls after a barrier; the maximum over ranks per iteration",
    .family = &fp_family_coll,
    .metric = &fp_metric_collective,
    .uses = FP_USES_COLLECTIVE | FP_USES_BACKEND | FP_USES_ROOT,
    .default_max = 1 << 20,
    .coll = &bcast_coll,
};

int main(int argc, char **argv)
{
    return fp_main(&bcast, argc, argv);
}
