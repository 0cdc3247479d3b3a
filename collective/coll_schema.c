/* The collectives' metric: nccl-tests' columns (size, count, type, redop, root, then time, algbw,
 * busbw and #wrong out of place and in place), then fabperf's statistics; the header's collective
 * lines, nccl-tests' closing lines, and OSU's row (the isolated call's mean). */
#include <math.h>

#include "collective.h"
#include "metric.h"

static const fp_coll_row_t *coll(const fp_row_t *r) { return r->family; }
static const char *get_type(const fp_row_t *r) { return coll(r)->type; }
static const char *get_redop(const fp_row_t *r) { return coll(r)->redop; }
static double get_count(const fp_row_t *r) { return (double)coll(r)->count; }
static double get_root(const fp_row_t *r) { return coll(r)->root; }
/* The interval only where the samples give a 95% one (fp_stats_t.has_ci), else none. */
#define VAR_GETTERS(v, V)                                                                          \
    static double get_##v##_p50(const fp_row_t *r) { return coll(r)->var[V].n ? coll(r)->var[V].p50 : NAN; }    \
    static double get_##v##_lo(const fp_row_t *r) { return coll(r)->var[V].has_ci ? coll(r)->var[V].p50_lo : NAN; }  \
    static double get_##v##_hi(const fp_row_t *r) { return coll(r)->var[V].has_ci ? coll(r)->var[V].p50_hi : NAN; }  \
    static double get_##v##_ci_pct(const fp_row_t *r)                                              \
    {                                                                                              \
        return coll(r)->var[V].has_ci && coll(r)->var[V].p50 > 0 ? coll(r)->var[V].ci_halfwidth_pct : NAN; \
    }

#define VAR_RATES(v, V)                                                                            \
    static double get_##v##_algbw(const fp_row_t *r) { return coll(r)->algbw[V]; }                  \
    static double get_##v##_busbw(const fp_row_t *r) { return coll(r)->busbw[V]; }                  \
    static double get_##v##_wrong(const fp_row_t *r)                                               \
    {                                                                                              \
        return coll(r)->var_wrong[V] < 0 ? NAN : (double)coll(r)->var_wrong[V];                    \
    }
VAR_GETTERS(oop, FP_VAR_OOP)
VAR_GETTERS(ip, FP_VAR_IP)
VAR_GETTERS(iso, FP_VAR_ISO)
VAR_RATES(oop, FP_VAR_OOP)
VAR_RATES(ip, FP_VAR_IP)

#define OOP "out-of-place"
#define IP "in-place"
static const fp_column_t ccol_size = {"size", "size", 12, 0, FP_COL_COUNT, fp_get_size, NULL, NULL, NULL, NULL, "(B)", 0};
static const fp_column_t ccol_count = {"count", "count", 14, 0, FP_COL_COUNT, get_count, NULL, NULL, NULL, NULL, "(elements)", 0};
static const fp_column_t ccol_type = {"datatype", "type", 10, 0, FP_COL_TEXT, NULL, NULL, NULL, get_type, NULL, NULL, FP_SHOW_FULL};
static const fp_column_t ccol_redop = {"redop", "redop", 8, 0, FP_COL_TEXT, NULL, NULL, NULL, get_redop, NULL, NULL, FP_SHOW_FULL};
static const fp_column_t ccol_root = {"root", "root", 8, 0, FP_COL_COUNT, get_root, NULL, NULL, NULL, NULL, NULL, FP_SHOW_FULL};
#define VAR_COLUMNS(v, G)                                                                          \
    static const fp_column_t ccol_##v##_time = {#v "_p50_us", "time", 9, 2, FP_COL_TIME, get_##v##_p50, NULL, NULL, NULL, G, "(us)", 0}; \
    static const fp_column_t ccol_##v##_algbw = {#v "_algbw_gbps", "algbw", 8, 2, FP_COL_RATE, get_##v##_algbw, NULL, NULL, NULL, G, "(GB/s)", 0}; \
    static const fp_column_t ccol_##v##_busbw = {#v "_busbw_gbps", "busbw", 8, 2, FP_COL_RATE, get_##v##_busbw, NULL, NULL, NULL, G, "(GB/s)", 0}; \
    static const fp_column_t ccol_##v##_wrong = {#v "_wrong", "#wrong", 7, 0, FP_COL_WRONG, get_##v##_wrong, NULL, NULL, NULL, G, NULL, 0};
#define VAR_CI(v)                                                                                  \
    static const fp_column_t ccol_##v##_lo = {#v "_p50_ci_lo_us", #v ":lo", 10, 2, FP_COL_TIME, get_##v##_lo, NULL, NULL, NULL, NULL, "(us)", FP_SHOW_FULL}; \
    static const fp_column_t ccol_##v##_hi = {#v "_p50_ci_hi_us", #v ":hi", 10, 2, FP_COL_TIME, get_##v##_hi, NULL, NULL, NULL, NULL, "(us)", FP_SHOW_FULL};
VAR_COLUMNS(oop, OOP)
VAR_COLUMNS(ip, IP)
VAR_CI(oop)
VAR_CI(ip)
VAR_CI(iso)
static const fp_column_t ccol_iso_time = {"iso_p50_us", "iso:time", 10, 2, FP_COL_TIME, get_iso_p50, NULL, NULL, NULL, NULL, "(us)", FP_SHOW_FULL};
static double get_iso_mean(const fp_row_t *r) { return coll(r)->var[FP_VAR_ISO].n ? coll(r)->var[FP_VAR_ISO].mean : NAN; }
static double get_timed_calls(const fp_row_t *r) { return (double)r->time.n * (double)r->batch; }
static double get_coll_lo(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_lo : NAN; }
static double get_coll_hi(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_hi : NAN; }
static const fp_column_t ccol_ci_pct = {"ci_halfwidth_pct", "CI+-%", 8, 2, FP_COL_REAL, get_oop_ci_pct, NULL, NULL, NULL, NULL, "(oop)", 0};
static const fp_column_t ccol_ip_ci_pct = {"ip_ci_halfwidth_pct", "", 0, 0, FP_COL_REAL, get_ip_ci_pct, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_iso_ci_pct = {"iso_ci_halfwidth_pct", "", 0, 0, FP_COL_REAL, get_iso_ci_pct, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_iso_mean = {"iso_avg_us", "", 0, 0, FP_COL_REAL, get_iso_mean, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_timed_calls = {"timed_calls", "", 0, 0, FP_COL_COUNT, get_timed_calls, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_samples = {"samples", "samples", 9, 0, FP_COL_COUNT, fp_get_samples, NULL, NULL, NULL, NULL, NULL, 0};
static const fp_column_t ccol_batch = {"batch", "batch", 7, 0, FP_COL_COUNT, fp_get_batch, NULL, NULL, NULL, NULL, NULL, 0};
static const fp_column_t ccol_target = {"target_met", "target", 8, 0, FP_COL_FLAG, fp_get_target, "met", "missed", NULL, NULL, NULL, FP_SHOW_ADAPTIVE};
/* The out-of-place statistics under generic keys, so that consumers of every fabperf result work. */
static const fp_column_t ccol_p50 = {"p50_us", "", 0, 0, FP_COL_REAL, fp_get_p50, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_p50_lo = {"p50_ci_lo_us", "", 0, 0, FP_COL_REAL, get_coll_lo, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_p50_hi = {"p50_ci_hi_us", "", 0, 0, FP_COL_REAL, get_coll_hi, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_min = {"min_us", "", 0, 0, FP_COL_REAL, fp_get_min, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_max = {"max_us", "", 0, 0, FP_COL_REAL, fp_get_max, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_mean = {"avg_us", "", 0, 0, FP_COL_REAL, fp_get_mean, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_p99 = {"p99_us", "", 0, 0, FP_COL_REAL, fp_get_p99, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_stddev = {"stddev_us", "", 0, 0, FP_COL_REAL, fp_get_stddev, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_check = {"validation", "", 0, 0, FP_COL_CHECK, fp_get_check, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_wrong = {"wrong", "", 0, 0, FP_COL_COUNT, fp_get_wrong, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};

/* What the backend chose (NCCL): the choice most warm-up calls had; null where not recorded. */
static const fp_nccl_choice_t *chosen(const fp_row_t *r)
{
    return coll(r)->chosen_known ? fp_nccl_choices_main(&coll(r)->chosen) : NULL;
}
static const char *get_algo(const fp_row_t *r) { return chosen(r) ? chosen(r)->algo : NULL; }
static const char *get_proto(const fp_row_t *r) { return chosen(r) ? chosen(r)->proto : NULL; }
static double get_channels(const fp_row_t *r) { return chosen(r) ? chosen(r)->channels : NAN; }
static const fp_column_t ccol_algo = {"nccl_algo", "", 0, 0, FP_COL_TEXT, NULL, NULL, NULL, get_algo, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_proto = {"nccl_proto", "", 0, 0, FP_COL_TEXT, NULL, NULL, NULL, get_proto, NULL, NULL, FP_SHOW_DATA};
static const fp_column_t ccol_channels = {"nccl_channels", "", 0, 0, FP_COL_COUNT, get_channels, NULL, NULL, NULL, NULL, NULL, FP_SHOW_DATA};

static const fp_column_t *const collective_columns[] = {
    &ccol_size, &ccol_count, &ccol_type, &ccol_redop, &ccol_root,
    &ccol_oop_time, &ccol_oop_algbw, &ccol_oop_busbw, &ccol_oop_wrong,
    &ccol_ip_time, &ccol_ip_algbw, &ccol_ip_busbw, &ccol_ip_wrong,
    &ccol_oop_lo, &ccol_oop_hi, &ccol_ip_lo, &ccol_ip_hi, &ccol_iso_time, &ccol_iso_lo, &ccol_iso_hi,
    &ccol_ci_pct, &ccol_samples, &ccol_batch, &ccol_target,
    &ccol_p50, &ccol_p50_lo, &ccol_p50_hi, &ccol_min, &ccol_max, &ccol_mean, &ccol_p99, &ccol_stddev,
    &ccol_ip_ci_pct, &ccol_iso_ci_pct, &ccol_iso_mean, &ccol_timed_calls, &ccol_check, &ccol_wrong,
    &ccol_algo, &ccol_proto, &ccol_channels, NULL,
};

/* ---- the header and the closing lines ---- */

static const fp_coll_meta_t *coll_meta(const fp_meta_t *m) { return m->family; }

static void coll_text_meta(FILE *out, const fp_meta_t *m)
{
    const fp_coll_meta_t *c = coll_meta(m);
    fprintf(out, "# backend: %s\n", c->backend);
    fprintf(out, "# datatype: %s, op: %s, root: %d\n", c->datatype, c->op, c->root);
    fprintf(out, "# time: median of the per-iteration maximum over ranks (95%% CI in lo/hi and CI+-%%, "
                 "'-' where a variant has fewer than 6 samples: too few for one); algbw = size / time, "
                 "GB/s = 1e9 B/s\n");
    if (m->nranks > 1)
        fprintf(out, "# busbw: algbw x %s = %.4g with n = %d\n", c->busbw_formula, c->busbw_factor, m->nranks);
    else
        fprintf(out, "# busbw: n/a with n = 1 (no data crosses between ranks); algbw: n/a in place (no data "
                     "moves), out of place a local copy of size bytes\n");
    fprintf(out, "# variants: out-of-place and in-place time `batch` calls per sample (one call when batch is "
                 "1; calls enqueued back to back, as nccl-tests does, when more); iso = one call and its "
                 "completion per sample\n");
    fprintf(out, "# per size: %s\n", m->layout == FP_LAYOUT_FULL || m->layout == FP_LAYOUT_SUMMARY
                ? "samples and batch (calls per sample) in the row's columns"
                : "samples, batch (calls per sample) and timed_calls in --format csv or json");
    fprintf(out, "# buffers rotate: %s\n", c->rotate ? "on: each call uses the next size-long slice of the "
                "-m MAX buffers, as nccl-tests shifts them" : "off: every call uses the same slice");
}

static void coll_json_meta(FILE *out, const fp_meta_t *m)
{
    const fp_coll_meta_t *c = coll_meta(m);
    fprintf(out, ",\"backend\":");
    fp_json_string(out, c->backend);
    fprintf(out, ",\"datatype\":\"%s\",\"op\":\"%s\",\"root\":%d,\"busbw_formula\":\"%s\","
                 "\"busbw_factor\":%.9g,\"rotate\":%s", c->datatype, c->op, c->root, c->busbw_formula,
            c->busbw_factor, c->rotate ? "true" : "false");
}

/* For nccl-tests' "Avg bus bandwidth": every busbw measured, out of place and in place. */
static void coll_tally(fp_report_t *r, const fp_row_t *row)
{
    for (int v = FP_VAR_OOP; v <= FP_VAR_IP; v++)
        if (isfinite(coll(row)->busbw[v])) {
            r->total += coll(row)->busbw[v];
            r->counted++;
        }
}

static double avg_busbw(const fp_report_t *r)
{
    return r->counted ? r->total / (double)r->counted : 0.0;
}

/* nccl-tests' closing lines: scrapers look for them. */
static void coll_text_end(FILE *out, const fp_report_t *r)
{
    if (r->meta->validate) /* nccl-tests says "0 OK" unchecked too; fabperf only when checked */
        fprintf(out, "# Out of bounds values : %ld %s\n", r->wrong_total, r->wrong_total ? "FAILED" : "OK");
    if (r->counted)
        fprintf(out, "# Avg bus bandwidth    : %g \n#\n", avg_busbw(r));
    else
        fprintf(out, "# Avg bus bandwidth    : n/a (no data crossed between ranks)\n#\n");
}

static void coll_json_end(FILE *out, const fp_report_t *r)
{
    if (r->counted)
        fprintf(out, ",\"avg_busbw_gbps\":%.9g,\"wrong\":%ld", avg_busbw(r), r->wrong_total);
    else
        fprintf(out, ",\"avg_busbw_gbps\":null,\"wrong\":%ld", r->wrong_total);
}

/* Under the row in text: every choice the warm-up's calls had, or that none was seen. */
static void coll_text_row_lines(FILE *out, const fp_row_t *row)
{
    if (!coll(row)->chosen_known)
        return;
    char text[640];
    fp_nccl_choices_text(&coll(row)->chosen, text, sizeof text);
    fprintf(out, "# nccl %zu: %s\n", row->size, text[0] ? text : "no call recorded during the warm-up (-x 0 runs none)");
}

/* --layout osu: OSU times one call per iteration, as the isolated variant does. */
static double coll_osu_value(const fp_row_t *row)
{
    return coll(row)->var[FP_VAR_ISO].mean;
}

const fp_metric_t fp_metric_collective = {
    .name = "collective",
    .columns = collective_columns,
    .text_style = FP_TEXT_GROUPED,
    .text_meta = coll_text_meta,
    .json_meta = coll_json_meta,
    .tally = coll_tally,
    .text_end = coll_text_end,
    .json_end = coll_json_end,
    .text_row_lines = coll_text_row_lines,
    .osu_heading = "Avg Latency(us)", /* osu_allreduce and the others */
    .osu_value = coll_osu_value,
    .nccl_header = fp_coll_nccl_header,
    .nccl_row = fp_coll_nccl_row,
    .quantity = FP_QTY_RATE,
    .unit = "GB/s busbw",
    .line_rate_divisor = 8e9, /* bits/s per GB/s */
    .defaults = {.iterations = {1000, 100}, .warmup = {100, 10}},
    .defaults_whose = "OSU 7.4's for collectives",
};
