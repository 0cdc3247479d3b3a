/* fabperf measurement core: the types a benchmark program sees. */
#ifndef FP_H
#define FP_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Exit codes shared by every program. */
enum { FP_EXIT_OK = 0, FP_EXIT_FAIL = 1, FP_EXIT_USAGE = 2 };

typedef enum { FP_MEM_HOST, FP_MEM_PINNED, FP_MEM_CUDA, FP_MEM_MANAGED, FP_MEM_COUNT } fp_mem_kind_t;
typedef enum { FP_TIMER_WTIME, FP_TIMER_CUDA, FP_TIMER_COUNT } fp_timer_kind_t;
typedef enum { FP_FORMAT_TEXT, FP_FORMAT_CSV, FP_FORMAT_JSON } fp_format_t;
typedef enum { FP_REPORT_LATENCY, FP_REPORT_BANDWIDTH, FP_REPORT_COLLECTIVE } fp_report_kind_t;
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

/* Which options a benchmark accepts beyond the common ones. */
enum {
    FP_USES_WINDOW = 1u << 0,     /* -W */
    FP_USES_COLLECTIVE = 1u << 1, /* --backend, -T */
    FP_USES_OP = 1u << 2,         /* -o: reductions */
    FP_USES_ROOT = 1u << 3,       /* -r: rooted collectives */
};

/* Everything the command line decides; filled by fp_options_parse(). */
typedef struct fp_params {
    size_t min_size, max_size; /* -m MIN:MAX, or -b / -e */
    double step_factor;        /* -f: next size = size * factor */
    size_t step_bytes;         /* --step-bytes: next size = size + step (nccl-tests -i) */
    long iterations;           /* -i: timed operations per size; -1 = OSU default per size class */
    long warmup;               /* -x: untimed operations per size; -1 = OSU default */
    int adaptive;              /* --adaptive: sample until the median's CI is narrow enough */
    double ci_target_pct;      /* --ci-target: CI half-width target, % of the median */
    double time_budget_s;      /* --time-budget: per-size limit of adaptive sampling */
    long max_samples;          /* --max-samples: cap of stored samples per size */
    long batch;                /* --batch: operations per sample; 0 = auto */
    long window;               /* -W: messages per window (bw, bibw) */
    int validate;              /* -c */
    int format;                /* --format, an fp_format_t */
    const char *output;        /* --output FILE, NULL = stdout */
    const char *label;         /* --label: names this configuration in results */
    char placement[2];         /* per-side buffer letters: 'H', 'P', 'D', 'M' */
    int accelerator;           /* -d cuda: 1 */
    long device;               /* --device: GPU index, -1 = from the node-local rank */
    int timer;                 /* --timer, an fp_timer_kind_t */
    int staging;               /* --staging: move device data through pinned host buffers */
    int backend;               /* --backend, an fp_backend_t (collectives) */
    int datatype;              /* -T/--datatype, an fp_type_t */
    int op;                    /* -o/--op, an fp_op_t */
    long root;                 /* -r/--root */
    long timeout_s;            /* --timeout: per-size watchdog, seconds; -1 = auto (guard.c) */
    int help, version;
} fp_params_t;

/* One rank's view of a running benchmark. Kernels move data through comm.h, never directly. */
typedef struct fp_ctx {
    MPI_Comm comm;
    int rank, nranks, peer;   /* peer: the other rank of a pair, -1 for collectives */
    const fp_params_t *params;
    const struct fp_mem_ops *mem; /* kind of this rank's buffers */
    void *sbuf, *rbuf;        /* max_bytes each, of that kind */
    void *wire_sbuf, *wire_rbuf; /* what MPI touches: sbuf/rbuf, or pinned copies when staging */
    int staging;
    size_t max_bytes;
    long window;
    MPI_Request *requests;    /* 2 * window, for windowed kernels */
    /* Collectives: the backend, and what the core set up for the variant being measured. */
    const struct fp_coll_ops *coll;
    void *coll_state;         /* the backend's own (NCCL communicator) */
    int in_place;             /* send and receive share rbuf, as nccl-tests lays them out */
    const void *send;         /* where this call reads */
    void *recv;               /* where it writes */
    size_t count;             /* elements per call as the library takes it */
} fp_ctx_t;

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

/* A benchmark: its kernel and how to read a sample. */
typedef struct fp_bench {
    const char *name;  /* program suffix: fabperf_<name> */
    const char *title; /* first header line */
    const char *sample_text; /* what one sample is, for the header */
    int ranks;         /* exact number of ranks, 0 = any */
    fp_report_kind_t report;
    unsigned uses;     /* FP_USES_* */
    double time_divisor; /* one sample's time per operation: RTT / 2 for latency */
    int directions;      /* bandwidth: 1 (bw) or 2 (bibw) */
    size_t default_max;  /* largest default size */
    /* Receivers of full-size data in a validation round: bit r set = rank r checks rbuf. */
    unsigned check_ranks;
    /* Optional: synchronises ranks before each sample, outside the timed region. */
    int (*sync)(fp_ctx_t *ctx);
    const fp_coll_t *coll; /* collectives: per-iteration max over ranks, variants, busbw */
    /* Runs `batch` operations of `bytes`; the only code inside the timed region. */
    int (*sample)(fp_ctx_t *ctx, size_t bytes, long batch);
} fp_bench_t;

int fp_main(const fp_bench_t *bench, int argc, char **argv);

#endif
