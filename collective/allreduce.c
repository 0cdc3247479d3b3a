/* fabperf_allreduce: every rank ends with the reduction of all ranks' buffers. */
#include "collective.h"

static void allreduce_layout(size_t count, int nranks, fp_coll_layout_t *l)
{
    (void)nranks;
    *l = (fp_coll_layout_t){.count = count, .send_count = count, .recv_count = count, .param_count = count};
}

static int allreduce_expect(const fp_coll_check_t *c, size_t i, double *value)
{
    *value = c->input(c, 0, i);
    for (int r = 1; r < c->nranks; r++)
        *value = fp_op_apply(c->op, *value, c->input(c, r, i));
    return 1;
}

static const fp_coll_t allreduce_coll = {
    .kind = FP_COLL_ALLREDUCE, .busbw = FP_BUSBW_ALLREDUCE,
    .layout = allreduce_layout, .expect = allreduce_expect,
};

static const fp_bench_t allreduce = {
    .name = "allreduce",
    .title = "Allreduce Test (MPI_Allreduce / ncclAllReduce)",
    .sample_text = "batch of calls after a barrier; the maximum over ranks per iteration",
    .family = &fp_family_coll,
    .metric = &fp_metric_collective,
    .uses = FP_USES_COLLECTIVE | FP_USES_BACKEND | FP_USES_OP,
    .default_max = 1 << 20,
    .coll = &allreduce_coll,
};

int main(int argc, char **argv)
{
    return fp_main(&allreduce, argc, argv);
}
