/* Run set-up: placement checks, GPU choice, memory limits, buffers, timer. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "family.h"
#include "gpu.h"
#include "gpu_share.h"
#include "options.h"

int fp_agree(MPI_Comm comm, int status, char *msg, size_t len)
{
    int rank, mine, first;
    MPI_Comm_rank(comm, &rank);
    mine = status != FP_OK ? rank : INT_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (first == INT_MAX)
        return FP_OK;
    MPI_Bcast(msg, (int)len, MPI_CHAR, first, comm);
    return FP_ERR;
}

static int side_of(int rank)
{
    return rank == 0 ? 0 : 1;
}

/* Checks every rank can make without talking to the others: same verdict everywhere. */
static int placement_check(const fp_run_t *run, char *err, size_t errlen)
{
    const fp_params_t *p = &run->params;
    int any_device = 0, any_cuda = p->timer == FP_TIMER_CUDA || p->accelerator;
    for (int side = 0; side < 2; side++) {
        const fp_mem_ops_t *ops = fp_mem_ops[fp_mem_kind_of(p->placement[side])];
        any_device |= ops->on_device;
        any_cuda |= ops->needs_cuda;
    }
    /* Events on fabperf's stream time what is enqueued on it: NCCL's calls. An MPI operation is
     * driven by the host and enqueues nothing there, so its events would time an empty stream. */
    if (p->timer == FP_TIMER_CUDA && run->mpi_moves_device_data) {
        snprintf(err, errlen, "--timer cuda: CUDA events time work enqueued on a CUDA stream (the "
                 "collectives' --backend nccl); MPI operations are driven by the host and enqueue "
                 "nothing there: use --timer wtime");
        return FP_ERR;
    }
    if (any_cuda && !fp_gpu_built()) {
        snprintf(err, errlen, "placement %c %c%s: this fabperf was built without CUDA "
                 "(reconfigure with --with-cuda=PATH)", p->placement[0], p->placement[1],
                 p->timer == FP_TIMER_CUDA ? " / --timer cuda" : "");
        return FP_ERR;
    }
    if (p->staging && !any_device) {
        snprintf(err, errlen, "--staging applies to device buffers (placement D or M), not %c %c",
                 p->placement[0], p->placement[1]);
        return FP_ERR;
    }
    if (any_device && run->mpi_moves_device_data && !p->staging && strcmp(run->meta.cuda_aware, "no") == 0) {
        snprintf(err, errlen, "placement %c %c: this MPI is not CUDA-aware (%s); build one with "
                 "scripts/build-cuda-aware-mpi.sh (see docs/gpu.md), or add --staging to copy through "
                 "pinned host buffers", p->placement[0], p->placement[1], run->meta.mpi_library);
        return FP_ERR;
    }
    return FP_OK;
}

static int gpu_choose(fp_run_t *run)
{
    const fp_params_t *p = &run->params;
    int any_cuda = p->timer == FP_TIMER_CUDA || p->accelerator;
    for (int side = 0; side < 2; side++)
        any_cuda |= fp_mem_ops[fp_mem_kind_of(p->placement[side])]->needs_cuda;
    if (!any_cuda)
        return FP_OK;
    return fp_gpu_select(run->local_rank, p->device, run->meta.gpu, sizeof run->meta.gpu);
}

/* Refuses sizes this rank cannot hold before anything is allocated. */
static int memory_check(fp_run_t *run)
{
    const fp_mem_ops_t *ops = run->ctx.mem;
    size_t max = run->params.max_size, needed = 2 * max;
    size_t host_needed = (run->params.validate ? max : 0) + (run->ctx.staging ? 2 * max : 0);
    if (run->ctx.staging)
        host_needed += run->family_bytes;
    else
        needed += run->family_bytes;
    size_t available = ops->available();
    const char *limit = "the device's free memory";
    char size_text[32];
    fp_size_format(max, size_text, sizeof size_text);
    if (ops->in_host_memory) {
        needed += host_needed;
        host_needed = 0;
        /* Ranks on one host share its memory; each has its own ulimit. */
        available = fp_mem_host_limit(run->local_size, &limit);
    }
    if (available && needed > available)
        return fp_fail("-m/--message-size: MAX %s needs %zu MiB of %s memory per rank, more than the "
                       "%zu MiB available to each of the %d rank(s) here (limit: %s)",
                       size_text, needed >> 20, ops->name, available >> 20,
                       ops->in_host_memory ? run->local_size : 1, limit);
    size_t host_available = fp_mem_host_limit(run->local_size, &limit);
    if (host_needed && host_available && host_needed > host_available)
        return fp_fail("-m/--message-size: MAX %s needs %zu MiB of host memory per rank for "
                       "validation and staging, more than the %zu MiB available (limit: %s)",
                       size_text, host_needed >> 20, host_available >> 20, limit);
    return FP_OK;
}

static int buffers_alloc(fp_run_t *run)
{
    fp_ctx_t *ctx = &run->ctx;
    size_t bytes = run->params.max_size;
    ctx->max_bytes = bytes;
    FP_CHECK(ctx->mem->alloc(&ctx->sbuf, bytes));
    FP_CHECK(ctx->mem->alloc(&ctx->rbuf, bytes));
    ctx->wire_sbuf = ctx->sbuf;
    ctx->wire_rbuf = ctx->rbuf;
    if (ctx->staging) {
        FP_CHECK(fp_mem_pinned.alloc(&ctx->wire_sbuf, bytes));
        FP_CHECK(fp_mem_pinned.alloc(&ctx->wire_rbuf, bytes));
    }
    if (run->params.validate) {
        run->check_buffer = malloc(bytes);
        if (!run->check_buffer)
            return fp_fail("malloc(%zu B) for validation failed", bytes);
    }
    ctx->window = run->bench->uses & FP_USES_WINDOW ? run->params.window : 1;
    ctx->requests = malloc(2 * (size_t)ctx->window * sizeof *ctx->requests);
    if (!ctx->requests)
        return fp_fail("malloc(%ld requests) failed", 2 * ctx->window);
    return FP_OK;
}

static int timer_open(fp_run_t *run)
{
    run->capacity = fp_plan_samples(run->bench, &run->params);
    run->samples = malloc(run->capacity * sizeof *run->samples);
    if (!run->samples)
        return fp_fail("malloc(%zu samples) failed", run->capacity);
    run->timer = fp_timer_ops[run->params.timer];
    FP_CHECK(run->timer->open(run->samples, run->capacity));
    run->timer_resolution_s = run->timer->resolution();
    return fp_timer_overhead(run, &run->timer_overhead_s);
}

static int local_ranks(fp_run_t *run)
{
    MPI_Comm local;
    FP_MPI_CHECK(MPI_Comm_split_type(run->ctx.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
    MPI_Comm_rank(local, &run->local_rank);
    MPI_Comm_size(local, &run->local_size);
    MPI_Comm_free(&local);
    return FP_OK;
}

/* Checks that need the job but no communication; FP_ERR with err set is bad usage. */
static int setup_checks(fp_run_t *run, char *err, size_t errlen)
{
    fp_ctx_t *ctx = &run->ctx;
    const fp_params_t *p = &run->params;
    ctx->params = p;
    ctx->mem = fp_mem_ops[fp_mem_kind_of(p->placement[side_of(ctx->rank)])];
    ctx->staging = p->staging && ctx->mem->on_device;
    run->mpi_moves_device_data = 1;
    FP_CHECK(run->bench->family->prepare(run, err, errlen));
    return placement_check(run, err, errlen);
}

fp_setup_status_t fp_run_setup(fp_run_t *run, char *err, size_t errlen)
{
    fp_ctx_t *ctx = &run->ctx;
    if (setup_checks(run, err, errlen) != FP_OK)
        return FP_SETUP_USAGE;
    int rc = local_ranks(run);
    if (rc == FP_OK)
        rc = gpu_choose(run);
    if (rc == FP_OK)
        rc = memory_check(run);
    if (rc != FP_OK)
        snprintf(err, errlen, "%s", fp_error_message());
    if (fp_agree(ctx->comm, rc, err, errlen) != FP_OK)
        return FP_SETUP_USAGE;
    if (run->gpu_per_rank && fp_gpu_per_rank_check(run, err, errlen) != FP_OK)
        return FP_SETUP_USAGE; /* collective: the same verdict on every rank */
    if (run->bench->family->agree && run->bench->family->agree(run, err, errlen) != FP_OK)
        return FP_SETUP_USAGE;
    rc = buffers_alloc(run);
    if (rc == FP_OK)
        rc = run->bench->family->open(run);
    if (rc == FP_OK)
        rc = timer_open(run);
    if (rc != FP_OK)
        snprintf(err, errlen, "%s", fp_error_message());
    if (fp_agree(ctx->comm, rc, err, errlen) != FP_OK)
        return FP_SETUP_RUNTIME;
    return FP_SETUP_OK;
}

void fp_run_teardown(fp_run_t *run)
{
    fp_ctx_t *ctx = &run->ctx;
    if (run->timer)
        run->timer->close();
    run->bench->family->close(run);
    if (ctx->staging) {
        fp_mem_pinned.release(ctx->wire_sbuf);
        fp_mem_pinned.release(ctx->wire_rbuf);
    }
    if (ctx->mem) {
        ctx->mem->release(ctx->sbuf);
        ctx->mem->release(ctx->rbuf);
    }
    free(ctx->requests);
    free(run->check_buffer);
    free(run->samples);
    fp_gpu_release();
}
