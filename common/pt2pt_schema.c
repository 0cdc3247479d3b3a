/* The point-to-point metrics: latency (us per operation, OSU's osu_latency) and bandwidth (MB/s
 * of a window, OSU's osu_bw and osu_bibw); OSU's value column first, then the statistics. */
#include "comm.h"
#include "metric.h"

static const fp_column_t *const latency_columns[] = {
    &fp_col_size, &fp_col_avg_latency, &fp_col_min, &fp_col_p50, &fp_col_p50_lo, &fp_col_p50_hi, &fp_col_p99,
    &fp_col_max, &fp_col_stddev, &fp_col_ci_pct, &fp_col_samples, &fp_col_batch, &fp_col_target,
    &fp_col_staged, &fp_col_check, &fp_col_wrong, NULL,
};

static const fp_column_t *const bandwidth_columns[] = {
    &fp_col_size, &fp_col_bandwidth, &fp_col_bw_p50, &fp_col_bw_lo, &fp_col_bw_hi, &fp_col_mean, &fp_col_min,
    &fp_col_p50, &fp_col_p50_lo, &fp_col_p50_hi, &fp_col_p99, &fp_col_max, &fp_col_stddev, &fp_col_ci_pct,
    &fp_col_samples, &fp_col_batch, &fp_col_target, &fp_col_staged, &fp_col_check, &fp_col_wrong, NULL,
};

const fp_metric_t fp_metric_latency = {
    .name = "latency",
    .columns = latency_columns,
    .text_style = FP_TEXT_OSU,
    .osu_heading = "Latency (us)", /* osu_latency */
    .quantity = FP_QTY_LATENCY,
    .unit = "us",
    .defaults = {.iterations = {10000, 1000}, .warmup = {100, 10}},
    .defaults_whose = "OSU's",
};

const fp_metric_t fp_metric_bandwidth = {
    .name = "bandwidth",
    .columns = bandwidth_columns,
    .text_style = FP_TEXT_OSU,
    .osu_heading = "Bandwidth (MB/s)",
    .quantity = FP_QTY_RATE,
    .unit = "MB/s",
    .line_rate_divisor = 8e6, /* bits/s per MB/s */
    .defaults = {.iterations = {100, 20}, .warmup = {10, 2}},
    .defaults_whose = "OSU's",
};
