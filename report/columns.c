/* The columns of a row's common part (statistics of the time per operation, OSU's value, the
 * headline, the run's flags) in OSU's text style, shared by the metrics of every family. */
#include "metric.h"

#include <math.h>

double fp_get_size(const fp_row_t *r) { return (double)r->size; }
double fp_get_osu(const fp_row_t *r) { return r->osu; }
double fp_get_headline_p50(const fp_row_t *r) { return r->headline.p50; }
/* The interval columns hold a 95% CI of the median or nothing: below 6 samples (has_ci 0) the
 * samples' min..max would read as one; min and max have their own columns. */
double fp_get_headline_lo(const fp_row_t *r) { return r->time.has_ci ? r->headline.lo : NAN; }
double fp_get_headline_hi(const fp_row_t *r) { return r->time.has_ci ? r->headline.hi : NAN; }
double fp_get_mean(const fp_row_t *r) { return r->time.mean; }
double fp_get_min(const fp_row_t *r) { return r->time.min; }
double fp_get_p50(const fp_row_t *r) { return r->time.p50; }
double fp_get_p50_lo(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_lo : NAN; }
double fp_get_p50_hi(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_hi : NAN; }
double fp_get_p99(const fp_row_t *r) { return r->time.p99; }
double fp_get_max(const fp_row_t *r) { return r->time.max; }
double fp_get_stddev(const fp_row_t *r) { return r->time.stddev; }
double fp_get_ci_pct(const fp_row_t *r) { return r->time.has_ci ? r->time.ci_halfwidth_pct : NAN; }
double fp_get_samples(const fp_row_t *r) { return (double)r->time.n; }
double fp_get_batch(const fp_row_t *r) { return (double)r->batch; }
double fp_get_target(const fp_row_t *r) { return r->target_met < 0 ? NAN : r->target_met; }
double fp_get_staged(const fp_row_t *r) { return r->staged; }
double fp_get_check(const fp_row_t *r) { return r->check < 0 ? NAN : r->check; }
double fp_get_wrong(const fp_row_t *r) { return r->check < 0 ? NAN : (double)r->wrong; }

/* Text keeps OSU's first two columns ("%-10zu%18.2f") so their parsers still work. */
const fp_column_t fp_col_size = {"size", "# Size", 10, 0, FP_COL_COUNT, fp_get_size, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_avg_latency = {"avg_us", "Avg Latency(us)", 18, 2, FP_COL_REAL, fp_get_osu, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_bandwidth = {"bw_mbps", "Bandwidth (MB/s)", 18, 2, FP_COL_REAL, fp_get_osu, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_bw_p50 = {"bw_p50_mbps", "P50(MB/s)", 12, 2, FP_COL_REAL, fp_get_headline_p50, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_bw_lo = {"bw_ci_lo_mbps", "CIlo(MB/s)", 12, 2, FP_COL_REAL, fp_get_headline_lo, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_bw_hi = {"bw_ci_hi_mbps", "CIhi(MB/s)", 12, 2, FP_COL_REAL, fp_get_headline_hi, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_mean = {"avg_us", "Avg(us)", 12, 2, FP_COL_REAL, fp_get_mean, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_min = {"min_us", "Min(us)", 12, 2, FP_COL_REAL, fp_get_min, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_p50 = {"p50_us", "P50(us)", 12, 2, FP_COL_REAL, fp_get_p50, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_p50_lo = {"p50_ci_lo_us", "CIlo(us)", 12, 2, FP_COL_REAL, fp_get_p50_lo, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_p50_hi = {"p50_ci_hi_us", "CIhi(us)", 12, 2, FP_COL_REAL, fp_get_p50_hi, NULL, NULL, NULL, NULL, NULL, 0};
/* A rate's time statistics: the rate's own columns are its summary. */
const fp_column_t fp_col_rate_time_p50 = {"p50_us", "P50(us)", 12, 2, FP_COL_REAL, fp_get_p50, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_rate_time_lo = {"p50_ci_lo_us", "CIlo(us)", 12, 2, FP_COL_REAL, fp_get_p50_lo, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_rate_time_hi = {"p50_ci_hi_us", "CIhi(us)", 12, 2, FP_COL_REAL, fp_get_p50_hi, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_p99 = {"p99_us", "P99(us)", 12, 2, FP_COL_REAL, fp_get_p99, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_max = {"max_us", "Max(us)", 12, 2, FP_COL_REAL, fp_get_max, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_stddev = {"stddev_us", "Stddev(us)", 12, 2, FP_COL_REAL, fp_get_stddev, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_ci_pct = {"ci_halfwidth_pct", "CI+-%", 8, 2, FP_COL_REAL, fp_get_ci_pct, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_samples = {"samples", "Samples", 9, 0, FP_COL_COUNT, fp_get_samples, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_batch = {"batch", "Batch", 7, 0, FP_COL_COUNT, fp_get_batch, NULL, NULL, NULL, NULL, NULL, 0};
const fp_column_t fp_col_target = {"target_met", "Target", 7, 0, FP_COL_FLAG, fp_get_target, "met", "missed", NULL, NULL, NULL, FP_SHOW_ADAPTIVE};
const fp_column_t fp_col_staged = {"staged", "Staged", 7, 0, FP_COL_FLAG, fp_get_staged, "yes", "no", NULL, NULL, NULL, FP_SHOW_FULL};
const fp_column_t fp_col_check = {"validation", "Check", 7, 0, FP_COL_CHECK, fp_get_check, NULL, NULL, NULL, NULL, NULL, FP_SHOW_VALIDATE};
const fp_column_t fp_col_wrong = {"wrong", "Wrong", 7, 0, FP_COL_COUNT, fp_get_wrong, NULL, NULL, NULL, NULL, NULL, FP_SHOW_VALIDATE};

/* The rows of OSU-style programs: OSU's value column first, then the statistics. */
const fp_column_t *const fp_columns_latency[] = {
    &fp_col_size, &fp_col_avg_latency, &fp_col_min, &fp_col_p50, &fp_col_p50_lo, &fp_col_p50_hi, &fp_col_p99,
    &fp_col_max, &fp_col_stddev, &fp_col_ci_pct, &fp_col_samples, &fp_col_batch, &fp_col_target,
    &fp_col_staged, &fp_col_check, &fp_col_wrong, NULL,
};

const fp_column_t *const fp_columns_bandwidth[] = {
    &fp_col_size, &fp_col_bandwidth, &fp_col_bw_p50, &fp_col_bw_lo, &fp_col_bw_hi, &fp_col_mean, &fp_col_min,
    &fp_col_rate_time_p50, &fp_col_rate_time_lo, &fp_col_rate_time_hi, &fp_col_p99, &fp_col_max, &fp_col_stddev, &fp_col_ci_pct,
    &fp_col_samples, &fp_col_batch, &fp_col_target, &fp_col_staged, &fp_col_check, &fp_col_wrong, NULL,
};
