/* The core's private state of one program run, shared by set-up, the sampler, the sweep and the
 * families; benchmark programs never see it. */
#ifndef FP_CORE_H
#define FP_CORE_H

#include "fp.h"
#include "memory.h"
#include "plan.h"
#include "report.h"
#include "timer.h"

struct fp_run;

/* What the sampler calls; the family fills it when it opens. */
typedef struct fp_sampler {
    /* The timed region: `batch` operations of `bytes`. */
    int (*kernel)(fp_ctx_t *ctx, size_t bytes, long batch);
    /* Before each sample and after the last one, outside the timed region; NULL: nothing. */
    int (*sync)(fp_ctx_t *ctx);
    /* Inside the timed region after the kernel: waits for what it enqueued; NULL: nothing. */
    int (*complete)(fp_ctx_t *ctx);
    /* After the timed region of each sample: finishes what the sample owes other ranks (pairs: the
     * answers to what it received) before any collective call; NULL: nothing. */
    int (*after)(fp_ctx_t *ctx);
    /* Samples [0, n) of every rank (collected) -> the samples rank 0 reports, into dst (which
     * may be run->samples); collective over the ranks. */
    int (*reduce)(struct fp_run *run, size_t n, double *dst);
    /* How many times the family samples one size (variants): they share its time budget. */
    int samplings;
    /* Adaptive rule: 1 while an --expect term on this size is still undecided by the CI of these
     * statistics (seconds per sample of `batch` operations), so sampling goes on to the budget;
     * NULL: never. */
    int (*verdict_pending)(const struct fp_run *run, size_t bytes, long batch, const fp_stats_t *seconds);
    /* After a size's warm-up operations, before its batch is chosen and anything is timed; NULL:
     * nothing. */
    int (*warmed_up)(struct fp_run *run);
} fp_sampler_t;

typedef struct fp_run {
    const fp_bench_t *bench;
    fp_params_t params;
    fp_ctx_t ctx;
    int local_rank, local_size;
    const fp_timer_ops_t *timer;
    double timer_overhead_s; /* median cost of one begin/end pair */
    double timer_resolution_s; /* the clock's smallest step */
    long batch_previous;     /* the automatic batch of the previous size (0: none yet) */
    long batch_prior;        /* batch_previous as this size began: a grown batch never halves it */
    long operations;         /* operations run at this size so far, timed or not: what crossed */
    double *samples;         /* seconds per sample, capacity entries */
    size_t capacity;
    unsigned char *check_buffer; /* host copy for validation, max_bytes */
    size_t family_bytes;     /* the family's own buffers of this rank's kind (pinned when staging) */
    int mpi_moves_device_data;   /* 0 when a GPU-native library (NCCL) moves device data */
    const char *gpu_per_rank;    /* set by a family whose library needs a GPU per rank: the option
                                  * that asks for it ("--backend nccl"), named when ranks share one */
    fp_sampler_t sampler;
    fp_plan_t plan;          /* of the size being measured */
    fp_meta_t meta;
    struct fp_path *path;    /* path evidence (evidence.h); NULL when off */
    char sys_root[512];      /* --sysfs-root for this rank, %r and %h expanded; empty: /sys */
    long cycle;              /* a soak's cycle under way (1-based); 0: no soak */
    double soak_t0;          /* rank 0: when the soak began (CLOCK_MONOTONIC seconds) */
    struct fp_soak *soak;    /* rank 0: the series per size (soak.h); NULL: no soak */
    int soak_steps, soak_undecided; /* rank 0: steps claimed; too few cycles to tell */
    int expect_failures;     /* rank 0: sizes whose expectation failed */
    int expect_inconclusive, expect_judged; /* rank 0: sizes inconclusive, and judged at all */
    int last_verdict;        /* rank 0: the fp_verdict_t of the last size judged, and that size */
    size_t last_verdict_size;
    char first_inconclusive[512]; /* rank 0: the verdict line of the first inconclusive size */
    fp_report_t *report;     /* rank 0: where rows go; families with records of their own write there */
    int ucx_seen;            /* UCX endpoint configurations and protocol tables at the header */
} fp_run_t;

/* Status of a setup step that every rank agrees on. */
typedef enum { FP_SETUP_OK, FP_SETUP_USAGE, FP_SETUP_RUNTIME } fp_setup_status_t;

/* Buffers, GPU, timer and samples; err gets one line when not FP_SETUP_OK (same on all ranks). */
fp_setup_status_t fp_run_setup(fp_run_t *run, char *err, size_t errlen);
void fp_run_teardown(fp_run_t *run);

/* Every rank passes its own status; all get the lowest failing rank's status and message. */
int fp_agree(MPI_Comm comm, int status, char *msg, size_t len);

/* The sampler (measure.c): warm-up, batch choice, then samples by the fixed or adaptive rule for
 * run->plan; leaves *n samples in run->samples, seconds per sample, reduced over ranks. *batch > 0
 * on entry keeps that batch; *met: adaptive target met (1/0), -1 in fixed mode. */
int fp_sample_size(fp_run_t *run, size_t bytes, long *batch, size_t *n, int *met);
/* fp_sampler_t.reduce: rank 0's own samples; the per-sample maximum over ranks. */
int fp_samples_of_rank0(fp_run_t *run, size_t n, double *dst);
int fp_samples_max_over_ranks(fp_run_t *run, size_t n, double *dst);
/* Cost of one timer begin/end pair, seconds (median of many). */
int fp_timer_overhead(fp_run_t *run, double *seconds);
/* Operations per sample so that a sample lasts >= 100 timer overheads and >= 100 steps of the
 * clock; power of two, <= 1024. */
long fp_batch_for(double op_seconds, double overhead_seconds, double resolution_seconds);
/* Whether a size whose own batch is half the previous size's keeps the previous one: only while
 * its samples (op_seconds x batch) would last less than twice a resolved sample. */
int fp_batch_keeps_previous(long batch, long previous, double op_seconds, double needed_seconds);

#endif
