#include "plan.h"

#include "metric.h"

/* --timeout auto: a base for set-up, scheduling and slow first calls, plus the time the size's
 * bytes take at a pessimistic 10 MB/s. */
#define FP_TIMEOUT_BASE_S 60.0
#define FP_TIMEOUT_BYTES_PER_S 1e7

/* --startup-timeout auto: MPI start-up grows with the job (name resolution, wire-up). */
#define FP_STARTUP_BASE_S 300.0
#define FP_STARTUP_PER_RANK_S 0.1
#define FP_FINALIZE_BASE_S 30.0

static double size_timeout(const fp_bench_t *bench, const fp_params_t *params, size_t bytes,
                           const fp_plan_t *plan)
{
    double per_op = (double)bytes * (bench->uses & FP_USES_WINDOW ? (double)params->window : 1.0) *
                    (bench->directions > 1 ? bench->directions : 2);
    double seconds = FP_TIMEOUT_BASE_S + (double)(plan->warmup + 1) * per_op / FP_TIMEOUT_BYTES_PER_S;
    if (params->adaptive)
        seconds += 2 * params->time_budget_s;
    else
        seconds += (double)plan->iterations * per_op / FP_TIMEOUT_BYTES_PER_S;
    return seconds;
}

fp_plan_t fp_plan_for(const fp_bench_t *bench, const fp_params_t *params, size_t bytes)
{
    const fp_osu_defaults_t *osu = &bench->metric->defaults;
    int large = bytes > FP_OSU_SMALL_LIMIT;
    fp_plan_t plan = {
        .warmup = params->warmup > 0 ? params->warmup : osu->warmup[large],
        .iterations = params->iterations > 0 ? params->iterations : osu->iterations[large],
    };
    plan.timeout_s = params->timeout_s > 0 ? (double)params->timeout_s : size_timeout(bench, params, bytes, &plan);
    return plan;
}

size_t fp_plan_samples(const fp_bench_t *bench, const fp_params_t *params)
{
    if (params->adaptive)
        return (size_t)params->max_samples;
    fp_plan_t small = fp_plan_for(bench, params, 1); /* OSU's counts only shrink with size */
    return (size_t)(small.iterations > small.warmup ? small.iterations : small.warmup);
}

double fp_plan_startup_timeout(const fp_params_t *params, int ranks)
{
    if (params->startup_timeout_s > 0)
        return (double)params->startup_timeout_s;
    return FP_STARTUP_BASE_S + (ranks > 0 ? ranks : 0) * FP_STARTUP_PER_RANK_S;
}

double fp_plan_finalize_timeout(const fp_params_t *params)
{
    return params->finalize_timeout_s > 0 ? (double)params->finalize_timeout_s : FP_FINALIZE_BASE_S;
}
