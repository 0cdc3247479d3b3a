/* The NCCL collectives' choices per size (algorithm, protocol, channels), through fabperf's
 * profiler plugin (nccl_profiler.c): the program names the plugin to NCCL before its first
 * communicator, finds it once NCCL has loaded it, arms it for a size's warm-up calls and disarms
 * it before the timed samples. */
#ifndef FP_NCCL_ALGO_H
#define FP_NCCL_ALGO_H

#include <stddef.h>

#include "nccl_choice.h"
#include "nccl_profiler.h"

typedef struct fp_nccl_algo {
    fp_nccl_profiler_arm_fn *arm;   /* NULL: nothing is recorded, why says so */
    fp_nccl_profiler_take_fn *take;
    char why[384];
    char path[4096];
    int set_env;                    /* NCCL_PROFILER_PLUGIN is ours, taken back after attach */
} fp_nccl_algo_t;

/* Before the first communicator: the plugin beside the program (build tree) or in the install's
 * library folder, named in NCCL_PROFILER_PLUGIN unless the user set that. */
void fp_nccl_algo_prepare(fp_nccl_algo_t *a);
/* After the communicator: the plugin's entry points if NCCL loaded and initialised it. */
void fp_nccl_algo_attach(fp_nccl_algo_t *a);
/* "from NCCL's profiler interface, during each size's out-of-place warm-up calls" or
 * "unknown (why)", for the header. */
void fp_nccl_algo_about(const fp_nccl_algo_t *a, char *out, size_t len);

#endif
