/* Validation of the collectives: typed inputs on every rank, one call per variant outside the
 * timed region, every output element compared with the value computed here on the host. */
#include <string.h>

#include "collective.h"
#include "run.h"

size_t fp_coll_bytes(const fp_run_t *run, size_t bytes)
{
    size_t unit = fp_types[run->params.datatype].size;
    if (run->bench->coll->elements_per_rank)
        unit *= (size_t)run->ctx.nranks;
    return bytes / unit * unit;
}

/* Largest magnitude of an input: reductions add few small values, data movement may use more
 * of the range each type holds exactly (so that a misplaced block shows). */
static double input_limit(const fp_run_t *run)
{
    if (run->bench->uses & FP_USES_OP)
        return 4;
    switch ((fp_type_t)run->params.datatype) {
    case FP_TYPE_BFLOAT16: return 255;
    case FP_TYPE_HALF: return 2047;
    default: return 1 << 20;
    }
}

static int check_variant(fp_run_t *run, size_t bytes, fp_coll_check_t *check, fp_variant_t v, long *wrong)
{
    fp_ctx_t *ctx = &run->ctx;
    const fp_coll_t *coll = run->bench->coll;
    const fp_coll_layout_t *l = check->layout;
    fp_type_t type = (fp_type_t)run->params.datatype;
    size_t size = fp_types[type].size;
    size_t extent = (l->send_count > l->recv_count ? l->send_count : l->recv_count) * size;
    unsigned char *host = run->check_buffer;

    fp_coll_variant(run, l, v);
    check->in_place = v == FP_VAR_IP;
    memset(host, 0, extent);
    FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, extent));
    for (size_t i = 0; i < l->send_count; i++)
        fp_type_store(type, host, i, fp_coll_input(check, ctx->rank, i));
    FP_CHECK(ctx->mem->from_host((void *)ctx->send, host, l->send_count * size));
    FP_CHECK(ctx->coll->sync(ctx));
    FP_CHECK(run->bench->sample(ctx, bytes, 1));
    FP_CHECK(ctx->coll->sync(ctx));

    const void *out = ctx->recv;
    if (check->in_place && coll->kind == FP_COLL_REDUCE_SCATTER && ctx->coll->rs_in_place_at_start)
        out = ctx->rbuf;
    FP_CHECK(ctx->mem->to_host(host, out, l->recv_count * size));
    long mine = 0;
    double want;
    for (size_t i = 0; i < l->recv_count; i++)
        if (coll->expect(check, i, &want) && fp_type_load(type, host, i) != want)
            mine++;
    FP_MPI_CHECK(MPI_Allreduce(&mine, wrong, 1, MPI_LONG, MPI_SUM, ctx->comm));
    return FP_OK;
}

int fp_coll_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
{
    const fp_params_t *p = &run->params;
    fp_coll_layout_t layout;
    run->bench->coll->layout(bytes / fp_types[p->datatype].size, run->ctx.nranks, &layout);
    fp_coll_check_t check = {
        .rank = run->ctx.rank, .nranks = run->ctx.nranks, .root = (int)p->root, .op = (fp_op_t)p->op,
        .layout = &layout, .input = fp_coll_input, .round = round, .limit = input_limit(run),
    };
    long total = 0;
    for (int v = FP_VAR_OOP; v <= FP_VAR_IP; v++) {
        if (v == FP_VAR_IP && run->ctx.coll->no_in_place & (1u << run->bench->coll->kind))
            continue;
        FP_CHECK(check_variant(run, bytes, &check, (fp_variant_t)v, &row->var_wrong[v]));
        total += row->var_wrong[v];
    }
    row->wrong = total;
    row->check = total == 0;
    return FP_OK;
}
