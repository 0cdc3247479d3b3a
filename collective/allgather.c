/* fabperf_allgather: every rank ends with all ranks' blocks in rank order; S = the whole output. */
#include "collective.h"

static void allgather_layout(size_t count, int nranks, fp_coll_layout_t *l)
{
    size_t block = count / (size_t)nranks;
    *l = (fp_coll_layout_t){.count = count, .send_count = block, .recv_count = block * (size_t)nranks,
                            .param_count = block, .send_ip_offset = block};
}

static int allgather_expect(const fp_coll_check_t *c, size_t i, double *value)
{
    size_t block = c->layout->send_count;
    *value = c->input(c, (int)(i / block), i % block);
    return 1;
}

static const fp_coll_t allgather_coll = {
    .kind = FP_COLL_ALLGATHER, .busbw = FP_BUSBW_GATHER, .elements_per_rank = 1,
    .layout = allgather_layout, .expect = allgather_expect,
};

static const fp_bench_t allgather = {
    .name = "allgather",
    .title = "Allgather Test (MPI_Allgather / ncclAllGather)",
    .sample_text = "batch of calls after a barrier; the maximum over ranks per iteration",
    .family = &fp_family_coll,
    .metric = &fp_metric_collective,
    .uses = FP_USES_COLLECTIVE | FP_USES_BACKEND,
    .default_max = 1 << 20,
    .coll = &allgather_coll,
};

int main(int argc, char **argv)
{
    return fp_main(&allgather, argc, argv);
}
