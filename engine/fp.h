/* fabperf: the types every benchmark program sees (descriptor, parameters, context). Point-to-point
 * moves are in comm.h, everything only collectives use in collective.h, the pairs family's own
 * in pairs.h. */
#ifndef FP_H
#define FP_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "expect.h"

/* Exit codes shared by every program. */
enum { FP_EXIT_OK = 0, FP_EXIT_FAIL = 1, FP_EXIT_USAGE = 2, FP_EXIT_EXPECT = 3, FP_EXIT_INCONCLUSIVE = 4 };

/* --inconclusive: what an inconclusive --expect does to the exit status. */
typedef enum { FP_INCONCLUSIVE_STATUS, FP_INCONCLUSIVE_FAIL, FP_INCONCLUSIVE_PASS } fp_inconclusive_t;

typedef enum { FP_MEM_HOST, FP_MEM_PINNED, FP_MEM_CUDA, FP_MEM_MANAGED, FP_MEM_COUNT } fp_mem_kind_t;
typedef enum { FP_TIMER_WTIME, FP_TIMER_CUDA, FP_TIMER_COUNT } fp_timer_kind_t;
typedef enum { FP_FORMAT_TEXT, FP_FORMAT_CSV, FP_FORMAT_JSON } fp_format_t;
/* Text columns: fabperf's (compatible first columns, then statistics), or exactly OSU's or
 * nccl-tests' row (statistics then only in csv and json). */
typedef enum { FP_LAYOUT_SUMMARY, FP_LAYOUT_FULL, FP_LAYOUT_OSU, FP_LAYOUT_NCCL_TESTS } fp_layout_t;
/* Which options a benchmark accepts beyond the common ones. */
enum {
    FP_USES_WINDOW = 1u << 0,     /* -W */
    FP_USES_COLLECTIVE = 1u << 1, /* -T, --rotate */
    FP_USES_OP = 1u << 2,         /* -o: reductions */
    FP_USES_ROOT = 1u << 3,       /* -r: rooted collectives */
    FP_USES_SWEEP = 1u << 4,      /* --mode, --rounds, --expect uniform: all-pairs sweeps */
    FP_USES_BACKEND = 1u << 5,    /* --backend: collectives, pairs */
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
    int layout;                /* --layout, an fp_layout_t: text columns */
    int rotate;                /* --rotate: collectives move their buffers between calls (1) */
    int isolate;               /* --isolate: after the sweep, search for the member that slows it */
    const char *suspects;      /* --suspects: with --isolate, only these ranks or hosts, confirmed */
    const char *suspects_from; /* --suspects-from: an all-pairs results file whose findings are the suspects */
    int backend;               /* --backend, an fp_backend_t (collectives) */
    int datatype;              /* -T/--datatype, an fp_type_t */
    int op;                    /* -o/--op, an fp_op_t */
    long root;                 /* -r/--root */
    long timeout_s;            /* --timeout: per-size watchdog, seconds; -1 = auto (plan.c) */
    long startup_timeout_s;    /* --startup-timeout: MPI start-up and set-up; -1 = auto (plan.c) */
    long finalize_timeout_s;   /* --finalize-timeout: MPI_Finalize after the results; -1 = auto (plan.c) */
    fp_expect_t expect;        /* --expect: thresholds per size (expect.h) */
    int inconclusive;          /* --inconclusive, an fp_inconclusive_t */
    double line_rate_bps;      /* --line-rate: bits/s; 0 = from the NIC the path evidence found */
    const char *expect_nic;    /* --expect-nic: NIC that must carry >= 90% of the inter-node payload */
    long cycles;               /* --cycles: sweeps to run (a soak when > 1 or with --soak; with --soak
                                * the most); 0: not given (1, or as many as --soak allows) */
    double soak_s;             /* --soak: repeat the sweep until this many seconds have passed; 0 off */
    const char *sysfs_root;    /* --sysfs-root: NIC counters read under it (%r, %h per rank); NULL: /sys */
    int path_evidence;         /* --path-evidence: 1 on (default), 0 off */
    int pairs_mode;            /* --mode, an fp_pairs_mode_t (pairs_schedule.h) */
    long pairs_rounds;         /* --rounds: shift rounds of the sampled mode */
    double pairs_retest_s;     /* --retest-budget: seconds per size for re-tests; -1 = auto */
    double pairs_min_effect;   /* --min-effect: smallest slowdown a finding claims */
    const char *topology;      /* --topology: switches of the hosts (topology.h) */
    int help, version;
} fp_params_t;

/* One rank's view of a running benchmark. Point-to-point kernels move data through comm.h; the
 * collectives through their library's ops (coll_mpi.c, nccl_backend.c); the pairs family's kernels
 * call MPI or NCCL themselves (pairs_kernels.c, pairs_nccl.c), since their partners change per round. */
typedef struct fp_ctx {
    /* Every family. */
    MPI_Comm comm;
    int rank, nranks;
    const fp_params_t *params;
    const struct fp_mem_ops *mem; /* kind of this rank's buffers */
    void *sbuf, *rbuf;        /* max_bytes each, of that kind */
    void *wire_sbuf, *wire_rbuf; /* what MPI touches: sbuf/rbuf, or pinned copies when staging */
    int staging;
    size_t max_bytes;
    /* Messages between two ranks (comm.h). */
    int peer;                 /* the other rank of a pair, -1 for collectives */
    long window;
    MPI_Request *requests;    /* 2 * window, for windowed kernels */
    /* Validation of windows (pt2pt_run.c): message w of [slot_first, slot_first + slot_count) is
     * sent from and received into its own slot of `bytes`; NULL in the timed loop, where every
     * message of a window uses the one wire buffer, as OSU does. */
    unsigned char *slot_sbuf, *slot_rbuf;
    long slot_first, slot_count;
    /* The family's own part (collectives: fp_coll_ctx_t in collective.h), set up by its ops. */
    void *family;
} fp_ctx_t;

/* A benchmark: its kernel and how to read a sample. */
typedef struct fp_bench {
    const char *name;  /* program suffix: fabperf_<name> */
    const char *title; /* first header line */
    const char *sample_text; /* what one sample is, for the header */
    int ranks;         /* exact number of ranks, 0 = any */
    /* What a row holds and how it is reported, the quantity --expect judges, OSU's default counts
     * (metric.h): fp_metric_latency, fp_metric_bandwidth (comm.h), fp_metric_collective. */
    const struct fp_metric *metric;
    unsigned uses;     /* FP_USES_* */
    double time_divisor; /* point-to-point: one sample's time per operation (RTT / 2 for latency) */
    int directions;      /* bandwidth: 1 (bw) or 2 (bibw) */
    size_t default_max;  /* largest default size */
    /* Receivers of full-size data in a validation round: bit r set = rank r checks rbuf. */
    unsigned check_ranks;
    /* What differs around the one sampler (family.h): fp_family_pt2pt or fp_family_coll. */
    const struct fp_family *family;
    const struct fp_coll *coll; /* collectives: layout, expected values, busbw (collective.h) */
    const struct fp_pairs *pairs; /* pairs: which pattern and quantity (pairs.h) */
    /* Point-to-point: runs `batch` operations of `bytes`; the only code inside the timed region.
     * Collectives leave it NULL: the family's one batch loop calls the backend. */
    int (*sample)(fp_ctx_t *ctx, size_t bytes, long batch);
} fp_bench_t;

int fp_main(const fp_bench_t *bench, int argc, char **argv);

#endif
