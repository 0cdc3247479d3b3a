/* fabperf_alltoall: block j of rank i's input ends as block i of rank j's output; S = the whole
 * buffer of one rank. */
#include "collective.h"

static void alltoall_layout(size_t count, int nranks, fp_coll_layout_t *l)
{
    size_t block = count / (size_t)nranks;
    *l = (fp_coll_layout_t){.count = count, .send_count = block * (size_t)nranks,
                            .recv_count = block * (size_t)nranks, .param_count = block};
}

static int alltoall_expect(const fp_coll_check_t *c, size_t i, double *value)
{
    size_t block = c->layout->param_count;
    *value = c->input(c, (int)(i / block), (size_t)c->rank * block + i % block);
    return 1;
}

static const fp_coll_t alltoall_coll = {
    .kind = FP_COLL_ALLTOALL, .busbw = FP_BUSBW_GATHER, .elements_per_rank = 1,
    .layout = alltoall_layout, .expect = alltoall_expect,
};

static const fp_bench_t alltoall = {
    .name = "alltoall",
    .title = "All-to-all Test (MPI_Alltoall / grouped ncclSend and ncclRecv)",
    .sample_text = "batch of calls after a barrier; the maximum over ranks per iteration",
    .family = &fp_family_coll,
    .metric = &fp_metric_collective,
    .uses = FP_USES_COLLECTIVE | FP_USES_BACKEND,
    .default_max = 1 << 20,
    .coll = &alltoall_coll,
};

int main(int argc, char **argv)
{
    return fp_main(&alltoall, argc, argv);
}
