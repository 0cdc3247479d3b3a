/* The pairs family: many pairs of ranks at once. fabperf_mbw_mr (the first half of the ranks each
 * send a window to a partner in the second half, as osu_mbw_mr) and the all-pairs sweeps
 * (fabperf_allpairs, fabperf_allpairs_lat: shift rounds, one pair at a time, or sampled shifts),
 * whose cells rank 0 gathers into a matrix, streams, and judges (outlier.h). */
#ifndef FP_PAIRS_H
#define FP_PAIRS_H

#include "evidence.h"
#include "expect.h"
#include "family.h"
#include "outlier.h"
#include "pairs_schedule.h"
#include "topology.h"
#include "uplink.h"

extern const struct fp_family fp_family_pairs;
/* Their metrics (pairs_schema.c): fabperf_mbw_mr's, and the bandwidth and latency sweeps'. */
extern const struct fp_metric fp_metric_msgrate, fp_metric_pairs_bandwidth, fp_metric_pairs_latency;

/* The pairs' header fields (fp_meta_t.family), filled when the family opens. */
typedef struct fp_pairs_meta {
    const char *pairs; /* fabperf_mbw_mr: "0 (host) -> 2 (host), ..."; NULL otherwise */
    char sweep[400];   /* the sweeps: mode and the judge's settings; empty otherwise */
    double min_effect, retest_s; /* the sweeps: --min-effect, --retest-budget (-1 auto) */
    char backend[640]; /* "nccl 2.28.9 (...)"; empty with MPI */
    /* --topology (pairs_topology.c); topology NULL without it */
    const fp_topology_t *topology;
    const char *topology_file;
    char *topology_text;         /* the header's line */
    size_t listed_switches;      /* switches of the file (those after: unlisted hosts' own) */
    int not_listed;              /* the job's hosts the file does not name */
    const char *const *hosts;    /* rank 0: host of every rank */
    const int *switch_of;        /* rank 0: switch of every rank */
    const unsigned char *first_of_host; /* rank 0: the rank is its host's first */
    int nranks;
} fp_pairs_meta_t;

typedef enum { FP_PAIRS_MULTI, FP_PAIRS_ALL } fp_pairs_pattern_t;

/* What a pairs program is (fp_bench_t.pairs). */
typedef struct fp_pairs {
    fp_pairs_pattern_t pattern;
    fp_quantity_t quantity;
} fp_pairs_t;

/* Rank 0's store of one size's sweep: the cells by shift (outlier.h) and the host names. */
typedef struct fp_pairs_matrix {
    fp_shifts_t layout;
    size_t *shift;    /* layout.shift, owned */
    long *round_of;   /* n: round of each shift, -1 when not measured */
    fp_cell_t *cells; /* layout.nshifts x n */
    double *samples;  /* the cells' sample counts, as the cells */
} fp_pairs_matrix_t;

/* How pairs move data: MPI (pairs_kernels.c) or NCCL (pairs_nccl.c; pairs_nccl_none.c in a build
 * without NCCL). A kernel runs `batch` operations with this round's partners (fp_pairs_ctx_t
 * send_to, recv_from) and may only enqueue: complete() finishes it inside the timed region. */
typedef struct fp_pairs_backend {
    const char *name;
    /* Collective, after the GPU and buffers; describes itself into about (the header's backend). */
    int (*init)(fp_ctx_t *ctx, char *about, size_t len);
    void (*fini)(fp_ctx_t *ctx);
    int (*multi)(fp_ctx_t *ctx, size_t bytes, long batch);     /* a window sender -> receiver */
    int (*bandwidth)(fp_ctx_t *ctx, size_t bytes, long batch); /* a sweep's window */
    int (*latency)(fp_ctx_t *ctx, size_t bytes, long batch);   /* a sweep's ping-pong */
    int (*sync)(fp_ctx_t *ctx);     /* before each sample: previous work done, ranks aligned */
    int (*complete)(fp_ctx_t *ctx); /* NULL: the kernel returns with its work done */
    int (*after)(fp_ctx_t *ctx);    /* a sweep, after each sample's timed region; NULL: nothing */
    /* The validation window: message by message, each with its own content (pairs_kernels.c). */
    int (*validate_window)(fp_ctx_t *ctx, size_t bytes, uint32_t round, unsigned char *host, long *wrong);
    int device_only;     /* buffers on the GPU, one GPU per rank; MPI does not touch them */
    const char *missing; /* set when this build lacks the backend: says how to get it */
} fp_pairs_backend_t;

extern const fp_pairs_backend_t fp_pairs_mpi, fp_pairs_nccl;

/* The family's part of the context (fp_ctx_t.family). */
typedef struct fp_pairs_ctx {
    const fp_pairs_t *kind;
    const fp_pairs_backend_t *backend;
    void *state;            /* the backend's own (NCCL communicator) */
    fp_pairs_meta_t meta;   /* the header's pairs fields */
    int send_to, recv_from; /* this round's partners, -1: none */
    int npairs;             /* multi: pairs; rank r < npairs sends to r + npairs */
    double traffic;         /* bytes this rank sent and received at this size (path evidence) */
    long batch;             /* operations per sample at this size: the first round's (pairs_sweep.c) */
    fp_judgement_t judgement; /* rank 0: this size's --expect over every cell (fp_row_t.judged) */
    fp_pairs_matrix_t matrix; /* rank 0 */
    fp_topology_t topology;   /* --topology: every rank reads it; rank 0 adds unlisted hosts */
    int has_topology;
    int *switch_of;           /* rank 0: switch index of every rank, with --topology */
    unsigned char *first_of_host; /* rank 0: rank r is the first of its host, with --topology */
    char (*names)[MPI_MAX_PROCESSOR_NAME + 1]; /* rank 0: host of every rank */
    const char **name_list;                    /* rank 0: names[] as pointers */
    char **hosts;                              /* rank 0, with --topology: plain host of every rank */
    /* The receive side of a sweep round, served while sending (pairs_kernels.c). */
    long rx_left;          /* windows (pings) still to come from recv_from in this sample */
    int rx_posted;         /* their receive is posted in requests[W, 2W) */
    size_t rx_bytes;       /* their size */
    MPI_Request answer;    /* the ack of a window sent */
    /* Where that ack lands: one byte of the wire's memory (device memory for D D), as osu_bw's
     * and fabperf_bw's ack, apart from the receive buffer that windows are landing in. */
    void *ack_in;
    const fp_mem_ops_t *ack_mem;
} fp_pairs_ctx_t;

static inline fp_pairs_ctx_t *fp_pairs_ctx(fp_ctx_t *ctx)
{
    return (fp_pairs_ctx_t *)ctx->family;
}

/* The pattern round of message w of validation round `round` (both backends). */
uint32_t fp_pairs_message_round(uint32_t round, int w);

/* The all-pairs sweep of one size (pairs_sweep.c). */
int fp_pairs_sweep(fp_run_t *run, size_t bytes, fp_row_t *row);
/* Every rank: one pair alone, a -> b, rank 0 getting a's cell (median, lo, hi, samples) into cell;
 * or the round of shift index r again, rank 0 getting every rank's cell into all (4 n). */
int fp_pairs_measure_alone(fp_run_t *run, size_t bytes, int a, int b, double *all, double cell[4]);
int fp_pairs_measure_shift(fp_run_t *run, size_t bytes, size_t r, double *all);

/* What the judge of one size decided (pairs_judge.c), on rank 0. */
typedef struct fp_pairs_verdict {
    int decided;          /* 0: the matrix could not be judged (reason) */
    unsigned places;      /* FP_PLACES_* */
    size_t suspects, stands, cleared, undecided, unmeasured;
    int uplinks;                       /* with --topology: the uplink screen ran */
    size_t uplinks_judged, uplinks_unjudged; /* uplinks with cells enough to judge, and without */
    double budget_s, spent_s; /* re-tests: their budget and the time they took */
    char reason[320];     /* why not decided, or why suspects stay undecided */
    char first_line[512]; /* the first standing finding */
} fp_pairs_verdict_t;

/* Every rank: the screen of the matrix (rank 0), the re-test of its suspects, the finding lines and
 * the judge record. sweep_s: the time the sweep's rounds took (the auto budget's base). */
int fp_pairs_judge(fp_run_t *run, size_t bytes, double sweep_s, double *all, fp_pairs_verdict_t *v);

/* Rank 0's records of a sweep (pairs_output.c). */
/* Every rank keeps the shifts; only rank 0 (with_cells) the cells. */
int fp_pairs_matrix_open(fp_pairs_matrix_t *m, size_t n, const size_t *shifts, size_t nshifts, int with_cells);
void fp_pairs_matrix_close(fp_pairs_matrix_t *m);
fp_cell_t *fp_pairs_matrix_cell(fp_pairs_matrix_t *m, size_t a, size_t b); /* NULL: not stored */
/* Whether a cell of `samples` samples has a 95% interval of its median (pairs_measure.c). */
int fp_pairs_cell_has_ci(double samples);
/* A bound of a cell's interval as printed: NaN (null) where `samples` allow no 95% interval of the
 * median (fewer than 6), since lo..hi then hold the samples' min..max, which the judge still reads. */
double fp_pairs_shown_bound(double bound, double samples);
void fp_pairs_emit_round(fp_run_t *run, size_t bytes, size_t round, const double *cells4);
/* Rank 0: a "link" record (text: "# link round" line) of the counters that moved in a round. */
void fp_pairs_emit_round_links(fp_run_t *run, size_t bytes, size_t round, const fp_link_set_t *set);
void fp_pairs_emit_matrix(fp_run_t *run, size_t bytes);
/* A finding and its re-test: alone (its cells measured alone) beside healthy (healthy pairs measured
 * alone); retested 0: no re-test was possible (no healthy partner); link_floor > 1: an undecided
 * link was slower alone, but by less than that factor, the noise of a matrix too noisy to judge;
 * explained_by (NULL: none) names what a cleared finding is explained by. */
void fp_pairs_emit_finding(fp_run_t *run, size_t bytes, const fp_finding_t *f, const fp_cell_t *alone,
                           const fp_cell_t *healthy, fp_retest_t status, int retested, double link_floor,
                           const char *explained_by);
/* A suspect uplink (uplink.h) and its re-test: pairs across it alone beside pairs inside its switch
 * alone; cleared, it was congested by the sweep's own flows. */
void fp_pairs_emit_uplink(fp_run_t *run, size_t bytes, const fp_uplink_tree_t *tree, const fp_uplink_finding_t *f,
                          const fp_cell_t *alone, const fp_cell_t *healthy, fp_retest_t status, int retested);
/* "slow uplink of leaf1 (up, out of it): 41 MB/s [40, 43] over 9 cells, typical 140 MB/s (0.29 x);
 * the sweep put up to 3 flows on it at once" */
void fp_pairs_uplink_line(const fp_pairs_ctx_t *pc, const fp_uplink_finding_t *f, const char *unit, char *buf,
                          size_t len);
/* The judge's record of a size: what could be judged, suspects and their outcomes, the budget. */
void fp_pairs_emit_judge(fp_run_t *run, size_t bytes, const fp_pairs_verdict_t *v, const fp_judge_summary_t *s);
/* A cell a -> b that failed an --expect threshold (j: its judgement); j NULL: a closing line saying
 * that `a` cells failed in all. */
void fp_pairs_emit_threshold(fp_run_t *run, size_t bytes, const fp_judgement_t *j, size_t a, size_t b,
                             const fp_cell_t *c);
const char *fp_pairs_unit(const fp_run_t *run);

/* --topology (pairs_topology.c): every rank reads the file in the family's prepare (err: one line,
 * "--topology: FILE:LINE: problem"); rank 0 places the ranks' hosts once it has them (the host of
 * rank r in hosts[r]); the JSON header's "topology" object; the family's close frees it all. */
int fp_pairs_topology_read(fp_run_t *run, char *err, size_t errlen);
int fp_pairs_topology_place(fp_run_t *run, const char *const *hosts, int n);
void fp_pairs_topology_json(FILE *out, const fp_pairs_meta_t *m);
void fp_pairs_topology_close(fp_pairs_ctx_t *pc);

#endif
