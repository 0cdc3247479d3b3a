/* One size's plan: warm-up and iteration counts and the watchdog's limit, from the command line
 * or, where it says "default"/"auto", from the metric's row of OSU's defaults (metric.h). */
#ifndef FP_PLAN_H
#define FP_PLAN_H

#include "fp.h"

/* OSU's counts per size class: index 0 up to FP_OSU_SMALL_LIMIT bytes, 1 above. */
#define FP_OSU_SMALL_LIMIT 8192
typedef struct fp_osu_defaults {
    long iterations[2], warmup[2];
} fp_osu_defaults_t;

typedef struct fp_plan {
    long warmup;      /* untimed operations */
    long iterations;  /* timed operations (fixed rule) */
    double timeout_s; /* watchdog limit of the whole size */
    long max_batch;   /* largest automatic batch; 0: no limit (the family may set it) */
    long min_batch;   /* smallest automatic batch, above max_batch if both are set; 0: none */
} fp_plan_t;

fp_plan_t fp_plan_for(const fp_bench_t *bench, const fp_params_t *params, size_t bytes);

/* Largest number of samples one size can need in this run. */
size_t fp_plan_samples(const fp_bench_t *bench, const fp_params_t *params);

/* Limit of MPI start-up and set-up: --startup-timeout, or auto for `ranks` ranks (-1: unknown). */
double fp_plan_startup_timeout(const fp_params_t *params, int ranks);
/* Limit of MPI_Finalize once the results are complete: --finalize-timeout, or auto. */
double fp_plan_finalize_timeout(const fp_params_t *params);

#endif
