/* Collectives: communication backends (one ops table entry per fp_backend_t), element types,
 * reduction ops, busbw, validation data, and the collectives' parts of the context and the row.
 * A collective program includes this only: its layout, expected values and descriptor. */
#ifndef FP_COLLECTIVE_H
#define FP_COLLECTIVE_H

#include <stdio.h>

#include "fp.h"
#include "stats.h"
#include "nccl_choice.h"

/* Communication backends of the collectives, indexed into fp_coll_backends[]. */
typedef enum { FP_BACKEND_MPI, FP_BACKEND_NCCL, FP_BACKEND_COUNT } fp_backend_t;
/* Element types of the collectives; half and bfloat16 exist only for NCCL. */
typedef enum {
    FP_TYPE_FLOAT, FP_TYPE_DOUBLE, FP_TYPE_INT32, FP_TYPE_INT64, FP_TYPE_HALF, FP_TYPE_BFLOAT16,
    FP_TYPE_COUNT
} fp_type_t;
typedef enum { FP_OP_SUM, FP_OP_PROD, FP_OP_MAX, FP_OP_MIN, FP_OP_COUNT } fp_op_t;
/* The collectives: each backend implements them all (or says which variant it cannot do). */
typedef enum {
    FP_COLL_ALLREDUCE, FP_COLL_ALLGATHER, FP_COLL_REDUCE_SCATTER, FP_COLL_BCAST, FP_COLL_REDUCE,
    FP_COLL_ALLTOALL, FP_COLL_KIND_COUNT
} fp_coll_kind_t;
/* Variants the core measures per size of a collective: buffers apart, buffers shared, and a
 * single call per sample (its isolated latency). */
typedef enum { FP_VAR_OOP, FP_VAR_IP, FP_VAR_ISO, FP_VAR_COUNT } fp_variant_t;

/* How a collective lays out its buffers for S bytes (nccl-tests' GetCollByteCount). Counts are
 * elements of the chosen type; in place, the send data of rank r starts at rbuf + r x
 * send_ip_offset and the receive data at rbuf + r x recv_ip_offset. */
typedef struct fp_coll_layout {
    size_t count;          /* S / type size, as printed */
    size_t send_count, recv_count, param_count;
    size_t send_ip_offset, recv_ip_offset;
} fp_coll_layout_t;

/* What validation knows when it asks a collective for the expected value of an element. */
typedef struct fp_coll_check {
    int rank, nranks, root, in_place;
    fp_op_t op;
    const fp_coll_layout_t *layout;
    /* Rank r's input element i (the same pattern every rank wrote). */
    double (*input)(const struct fp_coll_check *check, int r, size_t i);
    uint32_t round;
    double limit; /* magnitude bound of the inputs */
} fp_coll_check_t;

typedef enum { FP_BUSBW_ALLREDUCE, FP_BUSBW_GATHER, FP_BUSBW_ONE } fp_busbw_t;

/* A collective: its buffers, its busbw factor and the results it must produce. */
typedef struct fp_coll {
    fp_coll_kind_t kind;
    fp_busbw_t busbw;      /* 2(n-1)/n, (n-1)/n or 1 */
    int elements_per_rank; /* S must divide into n blocks (allgather, reduce_scatter, alltoall) */
    void (*layout)(size_t count, int nranks, fp_coll_layout_t *layout);
    /* Expected value of output element i on check->rank; returns 0 when it is not checked. */
    int (*expect)(const fp_coll_check_t *check, size_t i, double *value);
} fp_coll_t;


/* A communication backend. Calls follow NCCL's conventions: in place when
 * fp_coll_ctx(ctx)->in_place, with send and recv pointers placed as nccl-tests places them; counts
 * in elements of ctx->params->datatype. A call may only enqueue: complete() finishes what was
 * enqueued. */
/* The NCCL backend's smallest automatic batch: at batch 1 a sample holds the host's launch gap
 * (3-5 us on an H200 at 512 MiB, against nccl-tests' back-to-back calls); at 8 it is within
 * nccl-tests' figure (bench/gpu-check.sh). */
#define FP_NCCL_MIN_BATCH 8

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
    /* Smallest automatic batch: calls enqueued on a stream overlap their host launch with the
     * previous call's work only when several follow each other (nccl-tests' timing); 0: none. */
    long min_batch;
    const char *missing; /* set when this build lacks the backend: says how to get it */
    /* --isolate, where the backend has a communicator of its own (NCCL): every rank of ctx->comm
     * calls split (color -1: in no group; key orders a group as MPI_Comm_split's does) and gets
     * the state of its group's communicator, which measurements swap in for ctx's state; unsplit
     * releases it. NULL: ctx->comm set to the group's MPI communicator is enough. */
    int (*split)(fp_ctx_t *ctx, int color, int key, void **group_state);
    void (*unsplit)(fp_ctx_t *ctx, void *group_state);
    /* Waits for the calls enqueued whatever the timer (complete does not where the timer times the
     * work itself); NULL: complete does. */
    int (*wait)(fp_ctx_t *ctx);
    /* What the library chose for its calls (NCCL: algorithm, protocol, channels): watch(ctx, 1)
     * starts recording the calls made from then on and returns 0 where nothing can be recorded;
     * watch(ctx, 0) stops, and chosen() hands over what was seen. NULL: nothing is known. */
    int (*watch)(fp_ctx_t *ctx, int on);
    void (*chosen)(fp_ctx_t *ctx, fp_nccl_choices_t *out);
} fp_coll_ops_t;

extern const fp_coll_ops_t fp_coll_mpi, fp_coll_nccl;

/* The collectives' part of fp_ctx_t (ctx->family): the backend, and what the core set up for the
 * variant being measured. */
typedef struct fp_coll_ctx {
    const fp_coll_ops_t *ops;
    void *state;        /* the backend's own (NCCL communicator) */
    int in_place;       /* send and receive share rbuf, as nccl-tests lays them out */
    const void *send;   /* where this call reads */
    void *recv;         /* where it writes */
    size_t count;       /* elements per call as the library takes it */
    int root;           /* rooted collectives: -r */
    /* Bit per fp_coll_kind_t whose in-place form is not run: the backend has none, or the
     * library is known to crash in it (said in the backend's header line). */
    unsigned no_in_place;
    /* Rotation: call k uses send + o and recv + o, o = (k mod steps) x stride bytes. */
    size_t steps, stride, calls;
    fp_variant_t sampling; /* the variant being sampled: only out of place is judged (--expect) */
    int watching;          /* ops->watch is recording this size's warm-up calls */
    /* One call of this collective on these buffers. */
    int (*call)(fp_ctx_t *ctx, const struct fp_coll_ctx *c, const void *send, void *recv);
    /* --suspects-from: the sweep's node names of its findings, what they resolve to in this job
     * (the list --isolate confirms: ranks and hosts), and the line that says so. */
    char seed_nodes[4096], seed_list[4096], seed_note[1536];
    int seed_findings;
} fp_coll_ctx_t;

static inline fp_coll_ctx_t *fp_coll_ctx(const fp_ctx_t *ctx)
{
    return (fp_coll_ctx_t *)ctx->family;
}

/* The collectives' part of a row (row->family): per variant (fp_variant_t); the row's common
 * time and batch are the out-of-place ones. */
typedef struct fp_coll_row {
    size_t count;        /* elements per rank's call, as nccl-tests prints them */
    const char *type, *redop; /* "float", "sum" ("none" without reduction) */
    int root;            /* -1 when not rooted */
    fp_stats_t var[FP_VAR_COUNT];
    long var_batch[FP_VAR_COUNT];
    double algbw[FP_VAR_COUNT], busbw[FP_VAR_COUNT]; /* GB/s from the median; NAN when not run */
    long var_wrong[FP_VAR_COUNT]; /* -1 when not validated */
    int chosen_known;             /* the backend records its choices (ops->watch) */
    fp_nccl_choices_t chosen;     /* what it chose in the out-of-place warm-up calls */
} fp_coll_row_t;
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

/* ---- decisions (coll_rules.c): pure, unit-tested ---- */

/* Fewest samples a fixed count is split into when the batch is chosen automatically: the 95%
 * interval of the median of 32 samples lies between the 10th and 23rd, well inside min..max. */
#define FP_COLL_MIN_SAMPLES 32
/* Largest automatic batch for `iterations` calls: one that leaves >= FP_COLL_MIN_SAMPLES samples
 * (1 when the count is smaller). */
long fp_coll_batch_limit(long iterations);
/* Whether a variant moves data at all (*moved_data) and across ranks (*crossed_ranks, returned):
 * one rank sends nothing to another; in place it does not even copy. */
int fp_coll_moved(int nranks, int in_place, int *moved_data, int *crossed_ranks);
/* Whether this MPI library (MPI_Get_library_version's text) crashes in MPI_Reduce(MPI_IN_PLACE)
 * at a root other than 0: MPICH 4.0 to 4.1.1 read the root's send buffer, MPI_IN_PLACE's
 * address, from 4 KiB up (pmodels/mpich#6540, fixed in 4.1.2). */
int fp_mpi_reduce_in_place_crashes(const char *library_version);
/* algbw and busbw (GB/s) of `bytes` in `us`: NAN where fp_coll_moved says nothing moved. */
void fp_coll_rates(fp_busbw_t kind, int nranks, int in_place, size_t bytes, double us, double *algbw,
                   double *busbw);
/* Positions a call's buffers take in turn (offsets 0, extent, 2 x extent, ...) inside buffers
 * of buffer_bytes, as nccl-tests shifts them; 1 when not rotating or when one extent fills it. */
size_t fp_coll_rotation_steps(size_t extent_bytes, size_t buffer_bytes, int rotate);
/* Fills count elements with a value no correct result has (NaN; the most negative integer), so
 * that an element the library never writes fails validation. */
void fp_type_fill_unwritten(fp_type_t type, void *buffer, size_t count);
/* Whether a loaded element still holds that value. */
int fp_type_is_unwritten(fp_type_t type, double value);

/* The collectives' header fields (fp_meta_t.family), filled when the family opens. */
typedef struct fp_coll_meta {
    char backend[1024];        /* "mpi (...)" or "nccl 2.28.9 (...); transport ...; algorithm per size: ..." */
    const char *datatype, *op; /* op: "none" for data movement */
    int root;                  /* -1 when not rooted */
    const char *busbw_formula; /* "2(n-1)/n" */
    double busbw_factor;
    int rotate;                /* buffers rotate between calls */
} fp_coll_meta_t;

/* --layout nccl-tests (coll_nccl_tests.c): its header lines and one row (report.h's types). */
struct fp_meta;
struct fp_row;
void fp_coll_nccl_header(FILE *out, const struct fp_meta *meta);
void fp_coll_nccl_row(FILE *out, const struct fp_meta *meta, const struct fp_row *row);

/* The family of the collectives (coll_run.c) and its metric (coll_schema.c). */
extern const struct fp_family fp_family_coll;
extern const struct fp_metric fp_metric_collective;

#endif
