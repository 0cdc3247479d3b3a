/* Collectives: communication backends (one ops table entry per fp_backend_t), element types,
 * reduction ops, busbw, validation data. A collective program includes this and fp.h only. */
#ifndef FP_COLLECTIVE_H
#define FP_COLLECTIVE_H

#include "fp.h"

/* A communication backend. Calls follow NCCL's conventions: in place when ctx->in_place, with
 * send and recv pointers placed as nccl-tests places them; counts in elements of
 * ctx->params->datatype. A call may only enqueue: complete() finishes what was enqueued. */
typedef struct fp_coll_ops {
    const char *name;
    /* Collective over ctx->comm, after the GPU is chosen; describes itself into `about`. */
    int (*init)(fp_ctx_t *ctx, char *about, size_t len);
    void (*fini)(fp_ctx_t *ctx);
    /* Before each sample, outside the timed region: all previous work done, ranks aligned. */
    int (*sync)(fp_ctx_t *ctx);
    /* Inside the timed region after the calls: waits for them unless the timer does. */
    int (*complete)(fp_ctx_t *ctx);
    int (*allreduce)(fp_ctx_t *ctx, const void *send, void *recv, size_t count);
    int (*allgather)(fp_ctx_t *ctx, const void *send, void *recv, size_t send_count);
    int (*reduce_scatter)(fp_ctx_t *ctx, const void *send, void *recv, size_t recv_count);
    int (*bcast)(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root);
    int (*reduce)(fp_ctx_t *ctx, const void *send, void *recv, size_t count, int root);
    int (*alltoall)(fp_ctx_t *ctx, const void *send, void *recv, size_t count);
    unsigned types;       /* bit per fp_type_t it can reduce and move */
    unsigned no_in_place; /* bit per fp_coll_kind_t it has no in-place form of */
    /* In-place reduce_scatter leaves the result at the start of rbuf (MPI) instead of at
     * rbuf + rank x recv_count (NCCL). */
    int rs_in_place_at_start;
    int device_only; /* buffers must be on the GPU; MPI does not touch them */
    const char *missing; /* set when this build lacks the backend: says how to get it */
} fp_coll_ops_t;

extern const fp_coll_ops_t fp_coll_mpi, fp_coll_nccl;
extern const fp_coll_ops_t *const fp_coll_backends[FP_BACKEND_COUNT];

typedef struct fp_type_info {
    const char *name; /* as nccl-tests prints it */
    size_t size;
} fp_type_info_t;
extern const fp_type_info_t fp_types[FP_TYPE_COUNT];
extern const char *const fp_type_names[FP_TYPE_COUNT + 1]; /* NULL-terminated, for options */
extern const char *const fp_op_names[FP_OP_COUNT + 1];
extern const char *const fp_backend_names[FP_BACKEND_COUNT + 1];

/* busbw = algbw x factor; 0 for the (n-1) factors with one rank. */
double fp_busbw_factor(fp_busbw_t kind, int nranks);
/* "2(n-1)/n" */
const char *fp_busbw_formula(fp_busbw_t kind);
/* algbw in GB/s (1e9 B/s) of `bytes` moved in `us` microseconds. */
double fp_algbw_gbps(size_t bytes, double us);

/* The reduction of two values as every backend must compute it (exactly, for our inputs). */
double fp_op_apply(fp_op_t op, double a, double b);
/* Validation input: small integers (|v| <= limit; +-1 and one 2 per element for prod), exact
 * in every type and whose reductions are exact in any order. */
double fp_coll_input(const fp_coll_check_t *check, int rank, size_t i);
/* Writes / reads one element of a typed buffer. */
void fp_type_store(fp_type_t type, void *buffer, size_t i, double value);
double fp_type_load(fp_type_t type, const void *buffer, size_t i);

#endif
