/* The family of the collectives: all ranks, a sample is the slowest rank's time of that
 * iteration; per size three variants (out of place, in place, one isolated call); sizes round to
 * whole elements and blocks; validation with typed inputs on every rank, one call per variant
 * outside the timed region, every output element compared with the value computed on the host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_isolate.h"
#include "collective.h"
#include "escape.h"
#include "evidence.h"
#include "family.h"
#include "metric.h"
#include "suspects.h"
#include "suspects_from.h"

/* ---- one call of each collective, and the one batch loop ---- */

static int call_allreduce(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->allreduce(ctx, send, recv, c->count);
}

static int call_allgather(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->allgather(ctx, send, recv, c->count);
}

static int call_reduce_scatter(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->reduce_scatter(ctx, send, recv, c->count);
}

static int call_bcast(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->bcast(ctx, send, recv, c->count, c->root);
}

static int call_reduce(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->reduce(ctx, send, recv, c->count, c->root);
}

static int call_alltoall(fp_ctx_t *ctx, const fp_coll_ctx_t *c, const void *send, void *recv)
{
    return c->ops->alltoall(ctx, send, recv, c->count);
}

static int (*const calls[FP_COLL_KIND_COUNT])(fp_ctx_t *, const fp_coll_ctx_t *, const void *, void *) = {
    [FP_COLL_ALLREDUCE] = call_allreduce, [FP_COLL_ALLGATHER] = call_allgather,
    [FP_COLL_REDUCE_SCATTER] = call_reduce_scatter, [FP_COLL_BCAST] = call_bcast,
    [FP_COLL_REDUCE] = call_reduce, [FP_COLL_ALLTOALL] = call_alltoall,
};

/* The timed region: `batch` calls enqueued back to back (as nccl-tests does), each on the next
 * slice of the buffers when they rotate; the sampler completes them. */
static int coll_kernel(fp_ctx_t *ctx, size_t bytes, long batch)
{
    fp_coll_ctx_t *c = fp_coll_ctx(ctx);
    (void)bytes;
    for (long i = 0; i < batch; i++) {
        size_t offset = c->calls++ % c->steps * c->stride;
        FP_CHECK(c->call(ctx, c, (const char *)c->send + offset, (char *)c->recv + offset));
    }
    return FP_OK;
}

/* ---- set-up ---- */

/* What the backend can do with these options; the same verdict on every rank. */
static int backend_check(const fp_run_t *run, const fp_coll_ops_t *coll, char *err, size_t errlen)
{
    const fp_params_t *p = &run->params;
    if (coll->missing) {
        snprintf(err, errlen, "%s", coll->missing);
        return FP_ERR;
    }
    if (!(coll->types & (1u << p->datatype))) {
        snprintf(err, errlen, "-T/--datatype: %s is not available with --backend %s (accepted: float, "
                 "double, int32, int64; half and bfloat16 with --backend nccl)", fp_types[p->datatype].name, coll->name);
        return FP_ERR;
    }
    for (int side = 0; side < 2; side++)
        if (coll->device_only && !fp_mem_ops[fp_mem_kind_of(p->placement[side])]->on_device) {
            snprintf(err, errlen, "--backend %s: buffers must be on the GPU (accepted placements: D D, the "
                     "default, or M M), not %c %c", coll->name, p->placement[0], p->placement[1]);
            return FP_ERR;
        }
    return FP_OK;
}

static int coll_prepare(fp_run_t *run, char *err, size_t errlen)
{
    const fp_params_t *p = &run->params;
    fp_coll_ctx_t *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "calloc(%zu B) for the collective's state failed", sizeof *c);
        return FP_ERR;
    }
    run->ctx.family = c;
    run->ctx.peer = -1;
    c->ops = fp_coll_backends[p->backend];
    c->root = (int)p->root;
    c->no_in_place = c->ops->no_in_place;
    c->call = calls[run->bench->coll->kind];
    /* A GPU-native backend (NCCL) moves device data itself; MPI then only bootstraps; its
     * library refuses two ranks on one GPU, which the core says up front (gpu_share.h). */
    run->mpi_moves_device_data = !c->ops->device_only;
    if (c->ops->device_only)
        run->gpu_per_rank = "--backend nccl";
    if (p->isolate && c->ops->device_only && !c->ops->split && !c->ops->missing) {
        snprintf(err, errlen, "--isolate: with --backend %s not available (its communicator is not split into "
                 "groups here); accepted: --backend mpi", c->ops->name);
        return FP_ERR;
    }
    if (p->suspects && !p->isolate) {
        snprintf(err, errlen, "--suspects: names the members --isolate confirms; give --isolate too");
        return FP_ERR;
    }
    if (p->suspects && fp_suspects_check(p->suspects, run->ctx.nranks, err, errlen) != 0)
        return FP_ERR;
    if (p->suspects_from && (!p->isolate || p->suspects)) {
        snprintf(err, errlen, "--suspects-from: %s", p->suspects ? "--suspects names the suspects too: give one"
                                                                 : "names the suspects --isolate confirms; give --isolate too");
        return FP_ERR;
    }
    if (p->suspects_from && fp_suspects_from_file(p->suspects_from, c->seed_nodes, sizeof c->seed_nodes,
                                                  &c->seed_findings, err, errlen) != 0)
        return FP_ERR;
    FP_CHECK(backend_check(run, c->ops, err, errlen));
    if (p->staging) {
        snprintf(err, errlen, "--staging applies to point-to-point programs, not to fabperf_%s", run->bench->name);
        return FP_ERR;
    }
    if ((run->bench->uses & FP_USES_ROOT) && p->root >= run->ctx.nranks) {
        snprintf(err, errlen, "-r/--root: %ld is out of range (accepted: 0 to %d, the ranks of this job)",
                 p->root, run->ctx.nranks - 1);
        return FP_ERR;
    }
    return FP_OK;
}

/* The header's collective fields: one run per program. */
static fp_coll_meta_t meta_part;

static void describe(fp_run_t *run)
{
    const fp_params_t *p = &run->params;
    fp_coll_meta_t *m = &meta_part;
    m->datatype = fp_types[p->datatype].name;
    m->op = run->bench->uses & FP_USES_OP ? fp_op_names[p->op] : "none";
    m->root = run->bench->uses & FP_USES_ROOT ? (int)p->root : -1;
    m->busbw_formula = fp_busbw_formula(run->bench->coll->busbw);
    m->busbw_factor = fp_busbw_factor(run->bench->coll->busbw, run->ctx.nranks);
    m->rotate = p->rotate;
    run->meta.family = m;
}

/* fp_sampler_t.verdict_pending: an --expect term that the out-of-place busbw's CI (the row's
 * headline) does not decide yet; the other variants are not judged. */
static int coll_verdict_pending(const fp_run_t *run, size_t bytes, long batch, const fp_stats_t *seconds)
{
    if (fp_coll_ctx(&run->ctx)->sampling != FP_VAR_OOP)
        return 0;
    fp_busbw_t kind = run->bench->coll->busbw;
    double us = 1e6 / (double)batch, unused, p50, lo = NAN, hi = NAN;
    fp_coll_rates(kind, run->ctx.nranks, 0, bytes, seconds->p50 * us, &unused, &p50);
    if (seconds->has_ci) { /* the slowest time bounds the lowest busbw */
        fp_coll_rates(kind, run->ctx.nranks, 0, bytes, seconds->p50_hi * us, &unused, &lo);
        fp_coll_rates(kind, run->ctx.nranks, 0, bytes, seconds->p50_lo * us, &unused, &hi);
    }
    fp_judgement_t j;
    fp_expect_judge(&run->params.expect, bytes, run->bench->metric->quantity, lo, p50, hi,
                    fp_line_rate_in_unit(run->bench, run->params.line_rate_bps), &j);
    return j.verdict == FP_VERDICT_INCONCLUSIVE && !j.reason[0]; /* more samples can decide it */
}

/* A library defect that would crash the run is not called; the backend line says what is skipped
 * and why, and the in-place columns stay empty. */
static void skip_known_crash(fp_run_t *run, char *about, size_t len)
{
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    if (c->ops != &fp_coll_mpi || run->bench->coll->kind != FP_COLL_REDUCE || c->root == 0 ||
        !fp_mpi_reduce_in_place_crashes(run->meta.mpi_library))
        return;
    c->no_in_place |= 1u << FP_COLL_REDUCE;
    size_t used = strlen(about);
    snprintf(about + used, len - used, "; in-place not run: this MPICH crashes in MPI_Reduce(MPI_IN_PLACE) at a "
             "root other than 0 (pmodels/mpich#6540, fixed in 4.1.2); -r 0 runs it");
}

/* The family's part of the row being filled: one per run, rank 0 reports it before the next. */
static fp_coll_row_t row_part;

/* Between the warm-up and the timed samples: what the backend chose for the warm-up's calls. */
static int coll_warmed_up(fp_run_t *run)
{
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    if (!c->watching)
        return FP_OK;
    c->watching = 0;
    c->ops->watch(&run->ctx, 0);
    c->ops->chosen(&run->ctx, &row_part.chosen);
    row_part.chosen_known = 1;
    return FP_OK;
}

static int coll_open(fp_run_t *run)
{
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    FP_CHECK(c->ops->init(&run->ctx, meta_part.backend, sizeof meta_part.backend));
    skip_known_crash(run, meta_part.backend, sizeof meta_part.backend);
    run->sampler = (fp_sampler_t){
        .kernel = coll_kernel, .sync = c->ops->sync, .complete = c->ops->complete,
        .reduce = fp_samples_max_over_ranks, .samplings = FP_VAR_COUNT,
    };
    if (fp_expect_any(&run->params.expect))
        run->sampler.verdict_pending = coll_verdict_pending;
    if (c->ops->watch)
        run->sampler.warmed_up = coll_warmed_up;
    describe(run);
    return FP_OK;
}

static void coll_close(fp_run_t *run)
{
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    if (c && c->ops)
        c->ops->fini(&run->ctx);
    free(c);
    run->ctx.family = NULL;
}

/* Whole elements, and whole blocks per rank where the collective splits its buffer. */
static size_t coll_round(const fp_run_t *run, size_t bytes)
{
    size_t unit = fp_types[run->params.datatype].size;
    if (run->bench->coll->elements_per_rank)
        unit *= (size_t)run->ctx.nranks;
    return bytes / unit * unit;
}

static int has_in_place(const fp_run_t *run)
{
    return !(fp_coll_ctx(&run->ctx)->no_in_place & (1u << run->bench->coll->kind));
}

/* Points the call at the buffers of one variant, laid out as nccl-tests does. */
static void set_variant(fp_run_t *run, const fp_coll_layout_t *l, fp_variant_t v)
{
    fp_ctx_t *ctx = &run->ctx;
    fp_coll_ctx_t *c = fp_coll_ctx(ctx);
    size_t size = fp_types[run->params.datatype].size, rank = (size_t)ctx->rank;
    c->in_place = v == FP_VAR_IP;
    c->count = l->param_count;
    c->send = c->in_place ? (char *)ctx->rbuf + rank * l->send_ip_offset * size : ctx->sbuf;
    c->recv = c->in_place ? (char *)ctx->rbuf + rank * l->recv_ip_offset * size : ctx->rbuf;
    /* Every rank's slice of a call lies within the extent: send and receive, in place or not. */
    c->stride = (l->send_count > l->recv_count ? l->send_count : l->recv_count) * size;
    c->steps = fp_coll_rotation_steps(c->stride, ctx->max_bytes, run->params.rotate);
    c->calls = 0;
}

/* ---- measurement ---- */

/* One variant: samples (seconds per batch) -> us per call, algbw and busbw from the median. */
static int measure_variant(fp_run_t *run, size_t bytes, fp_variant_t v, long batch, fp_coll_row_t *part,
                           int *met)
{
    size_t n;
    FP_CHECK(fp_sample_size(run, bytes, &batch, &n, met));
    for (size_t i = 0; i < n; i++)
        run->samples[i] *= 1e6 / (double)batch;
    fp_stats_compute(run->samples, n, &part->var[v]);
    fp_stats_resolve(&part->var[v], run->timer_resolution_s * 1e6 / (double)batch);
    fp_stats_batch_means(&part->var[v], batch);
    part->var_batch[v] = batch;
    fp_coll_rates(run->bench->coll->busbw, run->ctx.nranks, v == FP_VAR_IP, bytes, part->var[v].p50,
                  &part->algbw[v], &part->busbw[v]);
    return FP_OK;
}

static void row_common(const fp_run_t *run, size_t bytes, const fp_coll_row_t *part, fp_row_t *row)
{
    const fp_stats_t *oop = &part->var[FP_VAR_OOP];
    fp_busbw_t kind = run->bench->coll->busbw;
    double unused, lo = NAN, hi = NAN;
    if (oop->has_ci) { /* the slowest time bounds the lowest busbw */
        fp_coll_rates(kind, run->ctx.nranks, 0, bytes, oop->p50_hi, &unused, &lo);
        fp_coll_rates(kind, run->ctx.nranks, 0, bytes, oop->p50_lo, &unused, &hi);
    }
    row->size = bytes;
    row->time = *oop;
    row->batch = part->var_batch[FP_VAR_OOP];
    row->headline = (fp_estimate_t){part->busbw[FP_VAR_OOP], lo, hi};
    row->check = -1;
    row->traffic_peer = -1; /* what crosses nodes depends on the algorithm: unknown here */
    row->family = part;
}

static int coll_measure(fp_run_t *run, size_t bytes, fp_row_t *row)
{
    const fp_params_t *p = &run->params;
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    fp_coll_row_t *part = &row_part;
    fp_coll_layout_t l;
    run->bench->coll->layout(bytes / fp_types[p->datatype].size, run->ctx.nranks, &l);
    memset(row, 0, sizeof *row);
    memset(part, 0, sizeof *part);
    row->target_met = -1;
    if (!p->adaptive) /* enough samples for the median's interval to mean something */
        run->plan.max_batch = fp_coll_batch_limit(run->plan.iterations);
    run->plan.min_batch = c->ops->min_batch;
    for (int v = 0; v < FP_VAR_COUNT; v++) {
        long batch = v == FP_VAR_ISO ? 1 : v == FP_VAR_IP ? part->var_batch[FP_VAR_OOP] : 0;
        int met;
        part->var_wrong[v] = -1;
        part->algbw[v] = part->busbw[v] = NAN;
        if (v == FP_VAR_IP && !has_in_place(run))
            continue;
        set_variant(run, &l, v == FP_VAR_IP ? FP_VAR_IP : FP_VAR_OOP);
        c->sampling = (fp_variant_t)v;
        if (v == FP_VAR_OOP && c->ops->watch) /* its warm-up's calls */
            c->watching = c->ops->watch(&run->ctx, 1);
        FP_CHECK(measure_variant(run, bytes, (fp_variant_t)v, batch, part, &met));
        if (v != FP_VAR_ISO && met >= 0)
            row->target_met = row->target_met < 0 ? met : row->target_met && met;
    }
    part->count = l.param_count;
    part->type = fp_types[p->datatype].name;
    part->redop = run->bench->uses & FP_USES_OP ? fp_op_names[p->op] : "none";
    part->root = run->bench->uses & FP_USES_ROOT ? (int)p->root : -1;
    row_common(run, bytes, part, row);
    return FP_OK;
}

/* ---- validation ---- */

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
    fp_coll_ctx_t *c = fp_coll_ctx(ctx);
    const fp_coll_t *coll = run->bench->coll;
    const fp_coll_layout_t *l = check->layout;
    fp_type_t type = (fp_type_t)run->params.datatype;
    size_t size = fp_types[type].size;
    size_t extent = (l->send_count > l->recv_count ? l->send_count : l->recv_count) * size;
    unsigned char *host = run->check_buffer;

    set_variant(run, l, v);
    check->in_place = v == FP_VAR_IP;
    /* What the library never writes keeps a value no correct result has. */
    fp_type_fill_unwritten(type, host, extent / size);
    FP_CHECK(ctx->mem->from_host(ctx->rbuf, host, extent));
    for (size_t i = 0; i < l->send_count; i++)
        fp_type_store(type, host, i, fp_coll_input(check, ctx->rank, i));
    FP_CHECK(ctx->mem->from_host((void *)c->send, host, l->send_count * size));
    FP_CHECK(c->ops->sync(ctx));
    FP_CHECK(coll_kernel(ctx, bytes, 1));
    FP_CHECK(c->ops->sync(ctx));

    const void *out = c->recv;
    if (check->in_place && coll->kind == FP_COLL_REDUCE_SCATTER && c->ops->rs_in_place_at_start)
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

static int coll_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row)
{
    fp_coll_row_t *part = &row_part;
    const fp_params_t *p = &run->params;
    fp_coll_layout_t layout;
    run->bench->coll->layout(bytes / fp_types[p->datatype].size, run->ctx.nranks, &layout);
    fp_coll_check_t check = {
        .rank = run->ctx.rank, .nranks = run->ctx.nranks, .root = (int)p->root, .op = (fp_op_t)p->op,
        .layout = &layout, .input = fp_coll_input, .round = round, .limit = input_limit(run),
    };
    long total = 0;
    for (int v = FP_VAR_OOP; v <= FP_VAR_IP; v++) {
        if (v == FP_VAR_IP && !has_in_place(run))
            continue;
        FP_CHECK(check_variant(run, bytes, &check, (fp_variant_t)v, &part->var_wrong[v]));
        total += part->var_wrong[v];
    }
    row->wrong = total;
    row->check = total == 0;
    return FP_OK;
}

/* --suspects-from: each node the sweep named is this job's rank ("host:R") or host ("host"), if any
 * rank answers for it; those become the --suspects list, the rest are said. Every rank. */
static int seed_suspects(fp_run_t *run, const char *host, char *err, size_t errlen)
{
    fp_coll_ctx_t *c = fp_coll_ctx(&run->ctx);
    const char *nodes = c->seed_nodes;
    int n = 0, mine[FP_SUSPECTS_MAX] = {0}, rank_of[FP_SUSPECTS_MAX];
    char word[256], missing[1024] = "";
    for (; n < FP_SUSPECTS_MAX && fp_suspects_word(nodes, n, word, sizeof word) == 0 && word[0]; n++)
        mine[n] = fp_suspects_node_is(word, host, run->ctx.rank) ? 1 : 0;
    FP_MPI_CHECK(MPI_Allreduce(mine, rank_of, n, MPI_INT, MPI_MAX, run->ctx.comm));
    snprintf(c->seed_note, sizeof c->seed_note, "suspects from %s: %d finding(s) that stand or are undecided",
             run->params.suspects_from, c->seed_findings);
    for (int i = 0; i < n; i++) {
        fp_suspects_word(nodes, i, word, sizeof word);
        int r = fp_suspects_node_rank(word);
        if (!rank_of[i]) {
            fp_append(missing, sizeof missing, "%s%s", missing[0] ? ", " : "", word);
            continue;
        }
        char as[32] = "its ranks"; /* a host: every rank on it; host:R: rank R */
        if (r >= 0)
            snprintf(as, sizeof as, "rank %d", r);
        fp_append(c->seed_list, sizeof c->seed_list, "%s%s", c->seed_list[0] ? "," : "", r >= 0 ? as + 5 : word);
        fp_append(c->seed_note, sizeof c->seed_note, "%s %s (%s)", strchr(c->seed_note, ';') ? "," : "; in this job:",
                  word, as);
    }
    if (missing[0])
        fp_append(c->seed_note, sizeof c->seed_note, "; not in this job: %s", missing);
    if (!c->seed_list[0]) {
        fp_append(c->seed_note, sizeof c->seed_note, "; the whole job searched");
        return FP_OK;
    }
    run->params.suspects = c->seed_list;
    return fp_suspects_check(c->seed_list, run->ctx.nranks, err, errlen) == 0 ? FP_OK : FP_ERR;
}

/* --suspects: every host name must be some rank's (each rank answers for its own host). */
static int coll_agree(fp_run_t *run, char *err, size_t errlen)
{
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, found[FP_SUSPECTS_MAX] = {0}, anywhere[FP_SUSPECTS_MAX] = {0};
    MPI_Get_processor_name(host, &len);
    if (run->params.suspects_from)
        FP_CHECK(seed_suspects(run, host, err, errlen));
    const char *list = run->params.suspects;
    if (!list)
        return FP_OK;
    int words = fp_suspects_hosts_found(list, host, found, FP_SUSPECTS_MAX);
    FP_MPI_CHECK(MPI_Allreduce(found, anywhere, words, MPI_INT, MPI_MAX, run->ctx.comm));
    for (int i = 0; i < words; i++)
        if (!anywhere[i]) {
            char word[256] = "";
            fp_suspects_word(list, i, word, sizeof word);
            snprintf(err, errlen, "--suspects: no rank of this job runs on host '%s' (accepted: rank numbers 0 to %d "
                     "and the job's host names, e.g. '%s')", word, run->ctx.nranks - 1, host);
            return FP_ERR;
        }
    return FP_OK;
}

static int coll_after_sweep(fp_run_t *run, size_t last_size)
{
    return run->params.isolate ? fp_coll_isolate(run, last_size) : FP_OK;
}

const fp_family_t fp_family_coll = {
    .name = "collective",
    .batch_limit = "at most 1/32 of the size's operations (>= 32 samples where there are >= 32 operations); "
                   "--backend nccl: at least 8 calls back to back, as nccl-tests times them (fewer samples where "
                   "-i is under 256; column iso: one call alone)",
    .round_unit = "whole elements per rank",
    .prepare = coll_prepare,
    .agree = coll_agree,
    .open = coll_open,
    .close = coll_close,
    .round = coll_round,
    .measure = coll_measure,
    .validate = coll_validate,
    .after_sweep = coll_after_sweep,
};
