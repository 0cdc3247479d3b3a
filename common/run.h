/* Internal state of one program run, shared by setup.c, measure.c and run.c. */
#ifndef FP_RUN_H
#define FP_RUN_H

#include "fp.h"
#include "memory.h"
#include "report.h"
#include "timer.h"

typedef struct fp_run {
    const fp_bench_t *bench;
    fp_params_t params;
    fp_ctx_t ctx;
    int local_rank, local_size;
    const fp_timer_ops_t *timer;
    double timer_overhead_s; /* median cost of one begin/end pair */
    double *samples;         /* seconds per sample, capacity entries */
    size_t capacity;
    unsigned char *check_buffer; /* host copy for validation, max_bytes */
    fp_meta_t meta;
} fp_run_t;

/* Status of a setup step that every rank agrees on. */
typedef enum { FP_SETUP_OK, FP_SETUP_USAGE, FP_SETUP_RUNTIME } fp_setup_status_t;

/* Buffers, GPU, timer and samples; err gets one line when not FP_SETUP_OK (same on all ranks). */
fp_setup_status_t fp_run_setup(fp_run_t *run, char *err, size_t errlen);
void fp_run_teardown(fp_run_t *run);

/* Every rank passes its own status; all get the lowest failing rank's status and message. */
int fp_agree(MPI_Comm comm, int status, char *msg, size_t len);

/* Measures one size into row (rank 0's row is the one reported). */
int fp_measure_size(fp_run_t *run, size_t bytes, fp_row_t *row);
/* Validation round for one size: fills, runs once, checks every received byte. */
int fp_validate_size(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row);
/* Collectives: buffers of one variant into ctx; validation of out-of-place and in-place. */
void fp_coll_variant(fp_run_t *run, const fp_coll_layout_t *layout, fp_variant_t variant);
int fp_coll_validate(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row);
/* The bytes of a collective size: whole elements, whole blocks per rank; 0 = none fits. */
size_t fp_coll_bytes(const fp_run_t *run, size_t bytes);
/* Cost of one timer begin/end pair, seconds (median of many). */
int fp_timer_overhead(fp_run_t *run, double *seconds);

/* Largest number of samples one size can need in this run. */
size_t fp_samples_needed(const fp_run_t *run);
/* Operations per sample so that a sample lasts >= 100 timer overheads; power of two, <= 1024. */
long fp_batch_for(double op_seconds, double overhead_seconds);

#endif
