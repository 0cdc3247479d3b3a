/* A metric: what the rows of one kind of benchmark hold and how the report renders them (columns,
 * header lines, closing lines, OSU's and nccl-tests' exact rows), the quantity an --expect judges
 * and OSU's default counts. A program's descriptor points to one (fp_bench_t.metric); the family
 * defines its metrics in its own file (pt2pt_schema.c, coll_schema.c). report.c, report_compat.c,
 * plan.c, options.c and verdict.c read these fields and never ask which metric they render. */
#ifndef FP_METRIC_H
#define FP_METRIC_H

#include <stdio.h>

#include "expect.h"
#include "plan.h"
#include "report.h"

/* How a column's value is written. FP_COL_TIME: nccl-tests' time (2, 1 or 0 decimals by
 * magnitude); FP_COL_WRONG: "N/A" in text when not validated; FP_COL_TEXT: a string (str);
 * FP_COL_RATE: "n/a" in text where no data moved. */
typedef enum {
    FP_COL_REAL, FP_COL_COUNT, FP_COL_FLAG, FP_COL_CHECK, FP_COL_TIME, FP_COL_WRONG, FP_COL_TEXT, FP_COL_RATE
} fp_col_type_t;

/* Which text layouts show a column. The summary (default) keeps a terminal's width: OSU's columns,
 * the median and its interval, samples and batch, and the run's flags only when they can say
 * something; the tails (min, p99, max, stddev) and per-run constants are the full layout's. */
typedef enum {
    FP_SHOW_ALWAYS,   /* summary and full */
    FP_SHOW_DATA,     /* CSV and JSON only (generic aliases of a text column) */
    FP_SHOW_FULL,     /* full only */
    FP_SHOW_ADAPTIVE, /* full; summary with -a */
    FP_SHOW_VALIDATE, /* full; summary with -c */
} fp_col_show_t;

typedef struct fp_column {
    const char *key;    /* CSV header and JSON key */
    const char *header; /* text header */
    int width, precision;
    fp_col_type_t type;
    double (*get)(const fp_row_t *row);
    const char *yes, *no; /* FP_COL_FLAG words in text */
    const char *(*str)(const fp_row_t *row); /* FP_COL_TEXT */
    const char *group, *unit; /* FP_TEXT_GROUPED: header lines above and below the names */
    fp_col_show_t show;       /* where text shows the column; CSV and JSON have every one */
} fp_column_t;

/* How the full text layout draws the columns. */
typedef enum {
    /* One header line; the size left-aligned and the columns abutting, so that OSU's first two
     * columns ("%-10zu%18.2f") parse as OSU's; Eff%/Verdict columns appended when judged. */
    FP_TEXT_OSU,
    /* nccl-tests': three header lines (group, name, unit), right-aligned fields one space apart. */
    FP_TEXT_GROUPED,
} fp_text_style_t;

typedef struct fp_metric {
    const char *name;                  /* the JSON meta's "metric" */
    const fp_column_t *const *columns; /* the row, NULL-terminated: full text, CSV and JSON */
    fp_text_style_t text_style;
    /* Header lines and JSON meta keys of the metric, after the window's (meta->family holds the
     * family's header fields); NULL: none. */
    void (*text_meta)(FILE *out, const fp_meta_t *meta);
    void (*json_meta)(FILE *out, const fp_meta_t *meta);
    /* Each row rendered, for the closing lines: adds to r->total and r->counted; NULL: nothing. */
    void (*tally)(fp_report_t *r, const fp_row_t *row);
    /* Closing lines in text (before the provenance's) and keys of the JSON end record; NULL: none. */
    void (*text_end)(FILE *out, const fp_report_t *r);
    void (*json_end)(FILE *out, const fp_report_t *r);
    /* Text lines under a row, after its evidence lines; NULL: none. */
    void (*text_row_lines)(FILE *out, const fp_row_t *row);
    /* --layout osu: the name of OSU's value column, and the value (NULL: row->osu); or, where
     * OSU's program prints more than one value (osu_mbw_mr), its own header and row (NULL: none). */
    const char *osu_heading;
    double (*osu_value)(const fp_row_t *row);
    void (*osu_header)(FILE *out, const fp_meta_t *meta);
    void (*osu_row)(FILE *out, const fp_meta_t *meta, const fp_row_t *row);
    /* --layout nccl-tests: its header lines and row; NULL: the layout does not apply. */
    void (*nccl_header)(FILE *out, const fp_meta_t *meta);
    void (*nccl_row)(FILE *out, const fp_meta_t *meta, const fp_row_t *row);
    /* --expect: the quantity of row->headline, its unit in verdict lines, and bits/s per unit of
     * the headline for line-rate terms (0: a line rate does not apply). */
    fp_quantity_t quantity;
    const char *unit;
    double line_rate_divisor;
    /* OSU's counts when -i/-x are left at their default (plan.c, --help, the header), and whose
     * defaults they are. */
    fp_osu_defaults_t defaults;
    const char *defaults_whose;
} fp_metric_t;

/* Values of the row's common part, for the columns of any metric (columns.c). */
double fp_get_size(const fp_row_t *r);
double fp_get_osu(const fp_row_t *r);
double fp_get_headline_p50(const fp_row_t *r);
double fp_get_headline_lo(const fp_row_t *r);
double fp_get_headline_hi(const fp_row_t *r);
double fp_get_mean(const fp_row_t *r);
double fp_get_min(const fp_row_t *r);
double fp_get_p50(const fp_row_t *r);
double fp_get_p50_lo(const fp_row_t *r);
double fp_get_p50_hi(const fp_row_t *r);
double fp_get_p99(const fp_row_t *r);
double fp_get_max(const fp_row_t *r);
double fp_get_stddev(const fp_row_t *r);
double fp_get_ci_pct(const fp_row_t *r);
double fp_get_samples(const fp_row_t *r);
double fp_get_batch(const fp_row_t *r);
double fp_get_target(const fp_row_t *r);
double fp_get_staged(const fp_row_t *r);
double fp_get_check(const fp_row_t *r);
double fp_get_wrong(const fp_row_t *r);

/* fabperf's columns of the common part in OSU's text style (columns.c): a metric lists the ones
 * it shows, in its order, beside its own. */
extern const fp_column_t fp_col_size, fp_col_avg_latency, fp_col_bandwidth, fp_col_bw_p50, fp_col_bw_lo,
    fp_col_bw_hi, fp_col_mean, fp_col_min, fp_col_p50, fp_col_p50_lo, fp_col_p50_hi, fp_col_p99, fp_col_max,
    fp_col_stddev, fp_col_ci_pct, fp_col_samples, fp_col_batch, fp_col_target, fp_col_staged, fp_col_check,
    fp_col_wrong, fp_col_rate_time_p50, fp_col_rate_time_lo, fp_col_rate_time_hi;
/* Their rows (NULL-terminated): latency (OSU's mean latency first) and bandwidth (OSU's MB/s
 * first, then the median's MB/s and its CI). */
extern const fp_column_t *const fp_columns_latency[], *const fp_columns_bandwidth[];

#endif
