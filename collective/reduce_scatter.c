/* fabperf_reduce_scatter: rank r ends with block r of the reduction; S = the whole input. */
#include "collective.h"

static void reduce_scatter_layout(size_t count, int nranks, fp_coll_layout_t *l)
{
    size_t block = count / (size_t)nranks;
    *l = (fp_coll_layout_t){.count = count, .send_count = block * (size_t)nranks, .recv_count = block,
                            .param_count = block, .recv_ip_offset = block};
}

static int reduce_scatter_expect(const fp_coll_check_t *c, size_t i, double *value)
{
    size_t at = (size_t)c->rank * c->layout->recv_count + i;
    *value = c->input(c, 0, at);
    for (int r = 1; r < c->nranks; r++)
        *value = fp_op_apply(c->op, *value, c->input(c, r, at));
    return 1;
}

static const fp_coll_t reduce_scatter_coll = {
    .kind = FP_COLL_REDUCE_SCATTER, .busbw = FP_BUSBW_GATHER, .elements_per_rank = 1,
    .layout = reduce_scatter_layout, .expect = reduce_scatter_expect,
};

static const fp_bench_t reduce_scatter = {
    .name = "reduce_scatter",
    .title = "Reduce-scatter Test (MPI_Reduce_scatter_block / ncclReduceScatter)",
    .sample_text = "batch of calls after a barrier; the maximum over ranks per iteration",
    .family = &fp_family_coll,
    .metric = &fp_metric_collective,
    .uses = FP_USES_COLLECTIVE | FP_USES_BACKEND | FP_USES_OP,
    .default_max = 1 << 20,
    .coll = &reduce_scatter_coll,
};

int main(int argc, char **argv)
{
    return fp_main(&reduce_scatter, argc, argv);
}
