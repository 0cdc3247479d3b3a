/* The point-to-point metrics: latency (us per operation, OSU's osu_latency) and bandwidth (MB/s
 * of a window, OSU's osu_bw and osu_bibw), on the common part's columns (columns.c). */
#include "comm.h"
#include "metric.h"

const fp_metric_t fp_metric_latency = {
    .name = "latency",
    .columns = fp_columns_latency,
    .text_style = FP_TEXT_OSU,
    .osu_heading = "Avg Latency(us)", /* osu_latency 7.4 (print_only_header) */
    .quantity = FP_QTY_LATENCY,
    .unit = "us",
    .defaults = {.iterations = {10000, 1000}, .warmup = {100, 10}},
    .defaults_whose = "OSU's",
};

const fp_metric_t fp_metric_bandwidth = {
    .name = "bandwidth",
    .columns = fp_columns_bandwidth,
    .text_style = FP_TEXT_OSU,
    .osu_heading = "Bandwidth (MB/s)",
    .quantity = FP_QTY_RATE,
    .unit = "MB/s",
    .line_rate_divisor = 8e6, /* bits/s per MB/s */
    .defaults = {.iterations = {100, 20}, .warmup = {10, 2}},
    .defaults_whose = "OSU's",
};
