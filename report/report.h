/* Reporting: the metric's columns (metric.h) rendered as text, CSV or JSON Lines. */
#ifndef FP_REPORT_H
#define FP_REPORT_H

#include <stdio.h>

#include "escape.h"
#include "fp.h"
#include "placement.h"
#include "stats.h"

/* A group of ranks that see one value of a variable (NULL: not set there). */
typedef struct fp_env_value {
    const char *value;
    int *ranks, nranks;
} fp_env_value_t;

/* A recorded variable: set to value on every rank (nvalues 0), or differing between ranks
 * (values[nvalues], in order of their lowest rank; value is then the lowest setting rank's). */
typedef struct fp_env_var {
    const char *name, *value;
    int nvalues;
    fp_env_value_t *values;
} fp_env_var_t;

typedef struct fp_host {
    char name[MPI_MAX_PROCESSOR_NAME + 1];
    int ranks;
} fp_host_t;

/* Provenance: what ran, where, how. Rendered before the first row. */
typedef struct fp_meta {
    const char *program, *benchmark, *title;
    const struct fp_metric *metric; /* the rows' columns and renderings (metric.h) */
    char date[40];
    int nranks, nhosts;
    fp_host_t *hosts;
    char mpi_library[512];
    const char *cuda_aware; /* "yes", "no", "unknown" */
    char gpu[512];          /* empty when no GPU is used */
    char buffers[8];        /* "H H" */
    const char *timer;
    double timer_overhead_us, timer_resolution_us;
    char iterations[224], warmup[96], batch[640];
    const char *sample; /* what one sample is */
    long window;
    int adaptive;
    double ci_target_pct, time_budget_s;
    int validate, staging;
    const char *label;
    const char *baseline;      /* --expect baseline=FILE: which entry judges, and how (NULL: none) */
    int layout;                /* an fp_layout_t: text columns */
    int nenv;
    fp_env_var_t *env;         /* the union over ranks, by name */
    int env_unrecorded;        /* variables over the per-rank bound, not sent */
    char *env_buffer;          /* what env points into */
    fp_placement_t placement;  /* per rank, on rank 0 */
    /* The family's own header fields, read by its metric's hooks (collectives: fp_coll_meta_t,
     * collective.h); NULL: none. */
    const void *family;
    /* Path evidence and verdicts: rows carry their fields (JSON, CSV); text adds Eff%/Verdict
     * columns when verdict_columns is set. */
    int evidence_fields, verdict_columns;
    /* UCX's selection on rank 0 (ucx_log.h), from its log: at the header (NULL: the MPI did not
     * load UCX, or capture is off), and at the end when more was selected during the sweep. */
    const struct fp_ucx_selection *ucx, *ucx_end;
    /* The link counters rank 0's node reads around each size (link_health.h); empty: none read
     * (path evidence off). */
    char link_counters[512];
    /* A soak (--cycles, --soak): rows carry "cycle" and "t_s"; 0 cycles: as many as soak_s allows. */
    int soak;
    long soak_cycles;
    double soak_s;
} fp_meta_t;

/* A quantity's median and the 95% confidence interval of that median, in its unit. */
typedef struct fp_estimate {
    double p50, lo, hi;
} fp_estimate_t;

/* One size's results: the part every family has, then a pointer to the family's own part.
 * Times are microseconds per operation (per window for bandwidth). */
typedef struct fp_row {
    size_t size;
    long batch;
    fp_stats_t time;
    double osu;          /* OSU's value: mean latency (us) or bandwidth from the mean (MB/s); collectives: their metric's osu_value */
    /* The family's headline quantity (latency: us; bandwidth: MB/s; collectives: out-of-place
     * busbw, GB/s): what a threshold is judged on. */
    fp_estimate_t headline;
    int target_met;      /* adaptive: 1/0; -1 in fixed mode */
    int staged;          /* device data went through pinned host copies */
    int check;           /* -1 off, 0 Fail, 1 Pass */
    long wrong;          /* wrong bytes found by validation (elements for collectives) */
    /* For the path evidence: bytes this rank sent to and received from traffic_peer during the
     * measurement, warm-up included (the family knows them); traffic_peer -1: no single peer. */
    double traffic_bytes;
    int traffic_peer;
    const struct fp_evidence *evidence; /* this size's path and verdict (evidence.h); NULL: none */
    /* --expect judged by the family itself (a sweep: over every cell of its matrix); NULL: the
     * core judges the headline (verdict.c). */
    const fp_judgement_t *judged;
    const void *family;  /* collectives: fp_coll_row_t (collective.h); NULL otherwise */
    long cycle;          /* a soak's cycle (1-based), 0: no soak */
    double t_s;          /* a soak: seconds from its start to this size's end */
} fp_row_t;

#define FP_REPORT_PATH_SHOWN 512

typedef struct fp_report {
    FILE *out;
    fp_format_t format;
    const fp_meta_t *meta;
    /* The metric's running figure for its closing lines (fp_metric_t.tally): a sum and how many
     * values it holds (collectives: busbw, for nccl-tests' "Avg bus bandwidth"). */
    double total;
    long counted;
    long wrong_total; /* wrong bytes or elements over the rows */
    char path_shown[FP_REPORT_PATH_SHOWN]; /* text: the last path line printed ("" none yet) */
} fp_report_t;

/* Gives OUT a buffer that holds whole records, before anything is written to it: the report
 * flushes at the end of every record, so each record leaves in one write. A launcher that merges
 * the ranks' outputs, where another rank's library prints too (UCX_LOG_LEVEL=info), then cannot
 * cut a record in two. One stream per process. */
void fp_report_whole_records(FILE *out);
/* Standard output for records: a stream of its own on a copy of descriptor 1, with such a buffer
 * (MPI libraries may leave stdout itself unbuffered, one write per character: MPICH's UCX does).
 * stdout itself where no copy can be made. */
FILE *fp_report_stdout(void);
void fp_report_begin(fp_report_t *r, FILE *out, fp_format_t format, const fp_meta_t *meta);
void fp_report_row(fp_report_t *r, const fp_row_t *row);
/* status: "complete", or "cut short: WHY" when the run stopped early. */
void fp_report_end(fp_report_t *r, const char *status, int failures);

#endif
