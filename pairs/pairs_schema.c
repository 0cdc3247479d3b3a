/* The pairs family's metrics: multi-pair bandwidth and message rate (osu_mbw_mr's two values
 * first, then fabperf's statistics), and the sweeps' rows, OSU's bandwidth or latency rows over the
 * cells' medians; the header's pairs and backend lines; osu_mbw_mr's exact row. */
#include <math.h>

#include "escape.h"
#include "metric.h"
#include "pairs.h"

static const fp_pairs_meta_t *pairs_meta(const fp_meta_t *m)
{
    return m->family;
}

static void pairs_text_meta(FILE *out, const fp_meta_t *m)
{
    const fp_pairs_meta_t *p = pairs_meta(m);
    if (p && p->pairs)
        fprintf(out, "# pairs: %s\n", p->pairs);
    if (p && p->backend[0]) /* NCCL: what moved the data */
        fprintf(out, "# backend: %s\n", p->backend);
    if (p && p->sweep[0])
        fprintf(out, "# sweep: %s\n", p->sweep);
    if (p && p->topology_text)
        fprintf(out, "# topology: %s\n", p->topology_text);
}

static void pairs_json_meta(FILE *out, const fp_meta_t *m)
{
    const fp_pairs_meta_t *p = pairs_meta(m);
    if (p && p->pairs) {
        fputs(",\"pairs\":", out);
        fp_json_string(out, p->pairs);
    }
    if (p && p->backend[0]) {
        fputs(",\"backend\":", out);
        fp_json_string(out, p->backend);
    }
    if (p && p->sweep[0]) {
        fputs(",\"sweep\":", out);
        fp_json_string(out, p->sweep);
        fputs(",\"judge\":{\"min_nodes\":", out);
        fprintf(out, "%d,\"min_effect\":", FP_JUDGE_MIN_NODES);
        fp_json_number_or_null(out, p->min_effect);
        fputs(",\"retest_budget_s\":", out);
        if (p->retest_s >= 0)
            fp_json_number_or_null(out, p->retest_s);
        else
            fputs("\"auto\"", out);
        fputs("}", out);
    }
    if (p && p->topology_text)
        fp_pairs_topology_json(out, p);
}

/* ---- fabperf_mbw_mr ---- */

static double get_rate(const fp_row_t *r) { return r->size ? r->osu * 1e6 / (double)r->size : NAN; }
static double get_rate_p50(const fp_row_t *r) { return r->size ? r->headline.p50 * 1e6 / (double)r->size : NAN; }
static const fp_column_t col_rate = {"msgs_per_s", "Messages/s", 16, 2, FP_COL_REAL, get_rate, NULL, NULL, NULL, NULL, NULL, 0};
static const fp_column_t col_rate_p50 = {"msgs_p50_per_s", "P50(msg/s)", 14, 2, FP_COL_REAL, get_rate_p50, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};

static const fp_column_t *const msgrate_columns[] = {
    &fp_col_size, &fp_col_bandwidth, &col_rate, &fp_col_bw_p50, &fp_col_bw_lo, &fp_col_bw_hi, &col_rate_p50,
    &fp_col_mean, &fp_col_min, &fp_col_rate_time_p50, &fp_col_rate_time_lo, &fp_col_rate_time_hi, &fp_col_p99, &fp_col_max,
    &fp_col_stddev, &fp_col_ci_pct, &fp_col_samples, &fp_col_batch, &fp_col_target, &fp_col_staged,
    &fp_col_check, &fp_col_wrong, NULL,
};

/* osu_mbw_mr: "%-10d%18.2f%18.2f" under "# Size", "MB/s", "Messages/s" (FIELD_WIDTH, 18 as
 * OSU 7.4's configure defines it). */
static void mbw_mr_osu_header(FILE *out, const fp_meta_t *m)
{
    (void)m;
    fprintf(out, "%-*s%*s%*s\n", 10, "# Size", 18, "MB/s", 18, "Messages/s");
}

static void mbw_mr_osu_row(FILE *out, const fp_meta_t *m, const fp_row_t *row)
{
    (void)m;
    fprintf(out, "%-*zu%*.*f%*.*f\n", 10, row->size, 18, 2, row->osu, 18, 2, get_rate(row));
}

const fp_metric_t fp_metric_msgrate = {
    .name = "bandwidth",
    .columns = msgrate_columns,
    .text_style = FP_TEXT_OSU,
    .text_meta = pairs_text_meta,
    .json_meta = pairs_json_meta,
    .osu_heading = "MB/s",
    .osu_header = mbw_mr_osu_header,
    .osu_row = mbw_mr_osu_row,
    .quantity = FP_QTY_RATE,
    .unit = "MB/s",
    .line_rate_divisor = 8e6, /* bits/s per MB/s */
    .defaults = {.iterations = {100, 20}, .warmup = {10, 2}},
    .defaults_whose = "osu_mbw_mr's",
};

/* ---- the sweeps: a row over the cells' medians ---- */

const fp_metric_t fp_metric_pairs_bandwidth = {
    .name = "bandwidth",
    .columns = fp_columns_bandwidth,
    .text_style = FP_TEXT_OSU,
    .text_meta = pairs_text_meta,
    .json_meta = pairs_json_meta,
    .osu_heading = "Bandwidth (MB/s)",
    .quantity = FP_QTY_RATE,
    .unit = "MB/s",
    .line_rate_divisor = 8e6,
    .defaults = {.iterations = {100, 20}, .warmup = {10, 2}},
    .defaults_whose = "osu_bw's",
};

const fp_metric_t fp_metric_pairs_latency = {
    .name = "latency",
    .columns = fp_columns_latency,
    .text_style = FP_TEXT_OSU,
    .text_meta = pairs_text_meta,
    .json_meta = pairs_json_meta,
    .osu_heading = "Avg Latency(us)", /* osu_latency 7.4 */
    .quantity = FP_QTY_LATENCY,
    .unit = "us",
    .defaults = {.iterations = {10000, 1000}, .warmup = {100, 10}},
    .defaults_whose = "osu_latency's",
};
