#include "config.h" /* PACKAGE_VERSION */
#include "report.h"

#include "collective.h"

#include <math.h>
#include <string.h>

#include "escape.h"
#include "evidence.h"
#include "provenance.h"
#include "report_compat.h"

/* COL_TIME: nccl-tests' time (2, 1 or 0 decimals by magnitude); COL_WRONG: "N/A" in text when
 * not validated; COL_TEXT: a string (str); COL_RATE: "n/a" in text where no data moved; data_only:
 * CSV and JSON only (generic aliases). */
typedef enum { COL_REAL, COL_COUNT, COL_FLAG, COL_CHECK, COL_TIME, COL_WRONG, COL_TEXT, COL_RATE } col_type_t;

typedef struct column {
    const char *key;    /* CSV header and JSON key */
    const char *header; /* text header */
    int width, precision;
    col_type_t type;
    double (*get)(const fp_row_t *row);
    const char *yes, *no; /* COL_FLAG words in text */
    const char *(*str)(const fp_row_t *row); /* COL_TEXT */
    const char *group, *unit; /* text header lines above and below the names (collectives) */
    int data_only;
} column_t;

static double get_size(const fp_row_t *r) { return (double)r->size; }
static double get_osu(const fp_row_t *r) { return r->osu; }
static double get_bw_p50(const fp_row_t *r) { return r->headline.p50; }
static double get_bw_lo(const fp_row_t *r) { return r->headline.lo; }
static double get_bw_hi(const fp_row_t *r) { return r->headline.hi; }
static double get_mean(const fp_row_t *r) { return r->time.mean; }
static double get_min(const fp_row_t *r) { return r->time.min; }
static double get_p50(const fp_row_t *r) { return r->time.p50; }
static double get_p50_lo(const fp_row_t *r) { return r->time.p50_lo; }
static double get_p50_hi(const fp_row_t *r) { return r->time.p50_hi; }
static double get_p99(const fp_row_t *r) { return r->time.p99; }
static double get_max(const fp_row_t *r) { return r->time.max; }
static double get_stddev(const fp_row_t *r) { return r->time.stddev; }
static double get_ci_pct(const fp_row_t *r) { return r->time.has_ci ? r->time.ci_halfwidth_pct : NAN; }
static double get_samples(const fp_row_t *r) { return (double)r->time.n; }
static double get_batch(const fp_row_t *r) { return (double)r->batch; }
static double get_target(const fp_row_t *r) { return r->target_met < 0 ? NAN : r->target_met; }
static double get_staged(const fp_row_t *r) { return r->staged; }
static double get_check(const fp_row_t *r) { return r->check < 0 ? NAN : r->check; }
static double get_wrong(const fp_row_t *r) { return r->check < 0 ? NAN : (double)r->wrong; }

/* The schema. Text keeps OSU's first two columns ("%-10zu%18.2f") so their parsers still work. */
static const column_t col_size = {"size", "# Size", 10, 0, COL_COUNT, get_size, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_avg_latency = {"avg_us", "Avg Latency(us)", 18, 2, COL_REAL, get_osu, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_bandwidth = {"bw_mbps", "Bandwidth (MB/s)", 18, 2, COL_REAL, get_osu, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_bw_p50 = {"bw_p50_mbps", "P50(MB/s)", 12, 2, COL_REAL, get_bw_p50, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_bw_lo = {"bw_ci_lo_mbps", "CIlo(MB/s)", 12, 2, COL_REAL, get_bw_lo, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_bw_hi = {"bw_ci_hi_mbps", "CIhi(MB/s)", 12, 2, COL_REAL, get_bw_hi, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_mean = {"avg_us", "Avg(us)", 12, 2, COL_REAL, get_mean, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_min = {"min_us", "Min(us)", 12, 2, COL_REAL, get_min, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_p50 = {"p50_us", "P50(us)", 12, 2, COL_REAL, get_p50, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_p50_lo = {"p50_ci_lo_us", "CIlo(us)", 12, 2, COL_REAL, get_p50_lo, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_p50_hi = {"p50_ci_hi_us", "CIhi(us)", 12, 2, COL_REAL, get_p50_hi, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_p99 = {"p99_us", "P99(us)", 12, 2, COL_REAL, get_p99, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_max = {"max_us", "Max(us)", 12, 2, COL_REAL, get_max, NULL, NULL, NULL, NULL, NULL, 0};
static double get_rate(const fp_row_t *r) { return r->size ? r->osu * 1e6 / (double)r->size : NAN; }
static double get_rate_p50(const fp_row_t *r) { return r->size ? r->headline.p50 * 1e6 / (double)r->size : NAN; }
static const column_t col_rate = {"msgs_per_s", "Messages/s", 16, 2, COL_REAL, get_rate, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_rate_p50 = {"msgs_p50_per_s", "P50(msg/s)", 14, 2, COL_REAL, get_rate_p50, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_stddev = {"stddev_us", "Stddev(us)", 12, 2, COL_REAL, get_stddev, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_ci_pct = {"ci_halfwidth_pct", "CI+-%", 8, 2, COL_REAL, get_ci_pct, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_samples = {"samples", "Samples", 9, 0, COL_COUNT, get_samples, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_batch = {"batch", "Batch", 7, 0, COL_COUNT, get_batch, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_target = {"target_met", "Target", 7, 0, COL_FLAG, get_target, "met", "missed", NULL, NULL, NULL, 0};
static const column_t col_staged = {"staged", "Staged", 7, 0, COL_FLAG, get_staged, "yes", "no", NULL, NULL, NULL, 0};
static const column_t col_check = {"validation", "Check", 7, 0, COL_CHECK, get_check, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t col_wrong = {"wrong", "Wrong", 7, 0, COL_COUNT, get_wrong, NULL, NULL, NULL, NULL, NULL, 0};

/* ---- collectives: nccl-tests' columns, then fabperf's statistics ---- */
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
static const column_t ccol_size = {"size", "size", 12, 0, COL_COUNT, get_size, NULL, NULL, NULL, NULL, "(B)", 0};
static const column_t ccol_count = {"count", "count", 14, 0, COL_COUNT, get_count, NULL, NULL, NULL, NULL, "(elements)", 0};
static const column_t ccol_type = {"datatype", "type", 10, 0, COL_TEXT, NULL, NULL, NULL, get_type, NULL, NULL, 0};
static const column_t ccol_redop = {"redop", "redop", 8, 0, COL_TEXT, NULL, NULL, NULL, get_redop, NULL, NULL, 0};
static const column_t ccol_root = {"root", "root", 8, 0, COL_COUNT, get_root, NULL, NULL, NULL, NULL, NULL, 0};
#define VAR_COLUMNS(v, G)                                                                          \
    static const column_t ccol_##v##_time = {#v "_p50_us", "time", 9, 2, COL_TIME, get_##v##_p50, NULL, NULL, NULL, G, "(us)", 0}; \
    static const column_t ccol_##v##_algbw = {#v "_algbw_gbps", "algbw", 8, 2, COL_RATE, get_##v##_algbw, NULL, NULL, NULL, G, "(GB/s)", 0}; \
    static const column_t ccol_##v##_busbw = {#v "_busbw_gbps", "busbw", 8, 2, COL_RATE, get_##v##_busbw, NULL, NULL, NULL, G, "(GB/s)", 0}; \
    static const column_t ccol_##v##_wrong = {#v "_wrong", "#wrong", 7, 0, COL_WRONG, get_##v##_wrong, NULL, NULL, NULL, G, NULL, 0};
#define VAR_CI(v)                                                                                  \
    static const column_t ccol_##v##_lo = {#v "_p50_ci_lo_us", #v ":lo", 10, 2, COL_TIME, get_##v##_lo, NULL, NULL, NULL, NULL, "(us)", 0}; \
    static const column_t ccol_##v##_hi = {#v "_p50_ci_hi_us", #v ":hi", 10, 2, COL_TIME, get_##v##_hi, NULL, NULL, NULL, NULL, "(us)", 0};
VAR_COLUMNS(oop, OOP)
VAR_COLUMNS(ip, IP)
VAR_CI(oop)
VAR_CI(ip)
VAR_CI(iso)
static const column_t ccol_iso_time = {"iso_p50_us", "iso:time", 10, 2, COL_TIME, get_iso_p50, NULL, NULL, NULL, NULL, "(us)", 0};
static double get_iso_mean(const fp_row_t *r) { return coll(r)->var[FP_VAR_ISO].n ? coll(r)->var[FP_VAR_ISO].mean : NAN; }
static double get_timed_calls(const fp_row_t *r) { return (double)r->time.n * (double)r->batch; }
static double get_coll_lo(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_lo : NAN; }
static double get_coll_hi(const fp_row_t *r) { return r->time.has_ci ? r->time.p50_hi : NAN; }
static const column_t ccol_ci_pct = {"ci_halfwidth_pct", "CI+-%", 8, 2, COL_REAL, get_oop_ci_pct, NULL, NULL, NULL, NULL, "(oop)", 0};
static const column_t ccol_ip_ci_pct = {"ip_ci_halfwidth_pct", "", 0, 0, COL_REAL, get_ip_ci_pct, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_iso_ci_pct = {"iso_ci_halfwidth_pct", "", 0, 0, COL_REAL, get_iso_ci_pct, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_iso_mean = {"iso_avg_us", "", 0, 0, COL_REAL, get_iso_mean, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_timed_calls = {"timed_calls", "", 0, 0, COL_COUNT, get_timed_calls, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_samples = {"samples", "samples", 9, 0, COL_COUNT, get_samples, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t ccol_batch = {"batch", "batch", 7, 0, COL_COUNT, get_batch, NULL, NULL, NULL, NULL, NULL, 0};
static const column_t ccol_target = {"target_met", "target", 8, 0, COL_FLAG, get_target, "met", "missed", NULL, NULL, NULL, 0};
/* The out-of-place statistics under generic keys, so that consumers of every fabperf result work. */
static const column_t ccol_p50 = {"p50_us", "", 0, 0, COL_REAL, get_p50, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_p50_lo = {"p50_ci_lo_us", "", 0, 0, COL_REAL, get_coll_lo, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_p50_hi = {"p50_ci_hi_us", "", 0, 0, COL_REAL, get_coll_hi, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_min = {"min_us", "", 0, 0, COL_REAL, get_min, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_max = {"max_us", "", 0, 0, COL_REAL, get_max, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_mean = {"avg_us", "", 0, 0, COL_REAL, get_mean, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_p99 = {"p99_us", "", 0, 0, COL_REAL, get_p99, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_stddev = {"stddev_us", "", 0, 0, COL_REAL, get_stddev, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_check = {"validation", "", 0, 0, COL_CHECK, get_check, NULL, NULL, NULL, NULL, NULL, 1};
static const column_t ccol_wrong = {"wrong", "", 0, 0, COL_COUNT, get_wrong, NULL, NULL, NULL, NULL, NULL, 1};

static const column_t *const collective_layout[] = {
    &ccol_size, &ccol_count, &ccol_type, &ccol_redop, &ccol_root,
    &ccol_oop_time, &ccol_oop_algbw, &ccol_oop_busbw, &ccol_oop_wrong,
    &ccol_ip_time, &ccol_ip_algbw, &ccol_ip_busbw, &ccol_ip_wrong,
    &ccol_oop_lo, &ccol_oop_hi, &ccol_ip_lo, &ccol_ip_hi, &ccol_iso_time, &ccol_iso_lo, &ccol_iso_hi,
    &ccol_ci_pct, &ccol_samples, &ccol_batch, &ccol_target,
    &ccol_p50, &ccol_p50_lo, &ccol_p50_hi, &ccol_min, &ccol_max, &ccol_mean, &ccol_p99, &ccol_stddev,
    &ccol_ip_ci_pct, &ccol_iso_ci_pct, &ccol_iso_mean, &ccol_timed_calls, &ccol_check, &ccol_wrong, NULL,
};

static const column_t *const latency_layout[] = {
    &col_size, &col_avg_latency, &col_min, &col_p50, &col_p50_lo, &col_p50_hi, &col_p99, &col_max,
    &col_stddev, &col_ci_pct, &col_samples, &col_batch, &col_target, &col_staged, &col_check, &col_wrong, NULL,
};
static const column_t *const bandwidth_layout[] = {
    &col_size, &col_bandwidth, &col_bw_p50, &col_bw_lo, &col_bw_hi, &col_mean, &col_min, &col_p50,
    &col_p50_lo, &col_p50_hi, &col_p99, &col_max, &col_stddev, &col_ci_pct, &col_samples,
    &col_batch, &col_target, &col_staged, &col_check, &col_wrong, NULL,
};

/* osu_mbw_mr's two columns first: aggregate MB/s and messages/s. */
static const column_t *const msgrate_layout[] = {
    &col_size, &col_bandwidth, &col_rate, &col_bw_p50, &col_bw_lo, &col_bw_hi, &col_rate_p50, &col_mean,
    &col_min, &col_p50, &col_p50_lo, &col_p50_hi, &col_p99, &col_max, &col_stddev, &col_ci_pct,
    &col_samples, &col_batch, &col_target, &col_staged, &col_check, &col_wrong, NULL,
};

static const column_t *const *layout_of(fp_report_kind_t kind)
{
    switch (kind) {
    case FP_REPORT_MSGRATE: return msgrate_layout;
    case FP_REPORT_BANDWIDTH: return bandwidth_layout;
    case FP_REPORT_COLLECTIVE: return collective_layout;
    default: return latency_layout;
    }
}

static const char *check_word(double v)
{
    return isnan(v) ? "-" : (v != 0 ? "Pass" : "Fail");
}

/* ---- text ---- */

static void text_meta_collective(FILE *out, const fp_meta_t *m)
{
    fprintf(out, "# time: median of the per-iteration maximum over ranks (95%% CI in lo/hi and CI+-%%, "
                 "'-' where a variant has fewer than 6 samples: too few for one); algbw = size / time, "
                 "GB/s = 1e9 B/s\n");
    if (m->nranks > 1)
        fprintf(out, "# busbw: algbw x %s = %.4g with n = %d\n", m->busbw_formula, m->busbw_factor, m->nranks);
    else
        fprintf(out, "# busbw: n/a with n = 1 (no data crosses between ranks); algbw: n/a in place (no data "
                     "moves), out of place a local copy of size bytes\n");
    fprintf(out, "# variants: out-of-place and in-place time `batch` calls per sample (one call when batch is "
                 "1; calls enqueued back to back, as nccl-tests does, when more); iso = one call and its "
                 "completion per sample\n");
    fprintf(out, "# per size: %s\n", m->layout == FP_LAYOUT_FULL
                ? "samples and batch (calls per sample) in the row's columns"
                : "samples, batch (calls per sample) and timed_calls in --format csv or json");
    fprintf(out, "# buffers rotate: %s\n", m->rotate ? "on: each call uses the next size-long slice of the "
                "-m MAX buffers, as nccl-tests shifts them" : "off: every call uses the same slice");
}

static void text_meta(FILE *out, const fp_meta_t *m)
{
    fprintf(out, "# %s %s: %s\n", m->program, PACKAGE_VERSION, m->title);
    fprintf(out, "# date: %s\n", m->date);
    fprintf(out, "# ranks: %d on %d host(s):", m->nranks, m->nhosts);
    for (int i = 0; i < m->nhosts; i++) {
        fputc(' ', out);
        fp_text_string(out, m->hosts[i].name);
        fprintf(out, " (%d)", m->hosts[i].ranks);
    }
    fprintf(out, "\n# mpi: %s\n# cuda-aware mpi: %s\n", m->mpi_library, m->cuda_aware);
    if (m->gpu[0])
        fprintf(out, "# gpu: %s\n", m->gpu);
    fprintf(out, "# buffers: %s%s\n", m->buffers, m->staging ? " (staged through pinned host copies)" : "");
    fprintf(out, "# timer: %s (overhead %.3f us, resolution %.3f us)\n", m->timer, m->timer_overhead_us,
            m->timer_resolution_us);
    fprintf(out, "# sample: %s\n", m->sample);
    fprintf(out, "# iterations: %s\n# warm-up: %s\n# batch: %s\n", m->iterations, m->warmup, m->batch);
    if (m->window > 0)
        fprintf(out, "# window: %ld\n", m->window);
    if (m->pairs)
        fprintf(out, "# pairs: %s\n", m->pairs);
    if (m->report != FP_REPORT_COLLECTIVE && m->backend[0]) /* pairs on NCCL */
        fprintf(out, "# backend: %s\n", m->backend);
    if (m->report == FP_REPORT_COLLECTIVE) {
        fprintf(out, "# backend: %s\n", m->backend);
        fprintf(out, "# datatype: %s, op: %s, root: %d\n", m->datatype, m->op, m->root);
        text_meta_collective(out, m);
    }
    fprintf(out, "# validation: %s\n", m->validate ? "on" : "off");
    fp_provenance_text(out, m);
}

/* One header line of the collective layout: `field` picks group, names or units. */
static void text_header_line(FILE *out, const column_t *const *cols, int field)
{
    fputc('#', out);
    for (int i = 0; cols[i]; i++) {
        const column_t *c = cols[i];
        if (c->data_only)
            continue;
        const char *text = field == 0 ? c->group : field == 1 ? c->header : c->unit;
        int width = c->width - (i == 0);
        if (field == 0 && text) { /* a group spans its columns, label right-aligned */
            int j = i;
            while (cols[j + 1] && cols[j + 1]->group == text) {
                width += cols[++j]->width;
            }
            fprintf(out, "%*s", width, text);
            i = j;
            continue;
        }
        fprintf(out, "%*s", width, text ? text : "");
    }
    fputc('\n', out);
}

static void text_header(FILE *out, const column_t *const *cols, int collective, int verdicts)
{
    if (collective) {
        for (int field = 0; field < 3; field++)
            text_header_line(out, cols, field);
        return;
    }
    fprintf(out, "%-*s", cols[0]->width, cols[0]->header);
    for (int i = 1; cols[i]; i++)
        fprintf(out, "%*s", cols[i]->width, cols[i]->header);
    if (verdicts)
        fp_evidence_text_header(out);
    fputc('\n', out);
}

static void text_row(FILE *out, const column_t *const *cols, const fp_row_t *row, int collective, int verdicts)
{
    fprintf(out, collective ? "%*zu" : "%-*zu", cols[0]->width, row->size);
    for (int i = 1; cols[i]; i++) {
        const column_t *c = cols[i];
        if (c->data_only)
            continue;
        if (collective) /* a value wider than its column still leaves the fields apart */
            fputc(' ', out);
        int width = c->width - collective;
        if (c->type == COL_TEXT) {
            fprintf(out, "%*s", width, c->str(row));
            continue;
        }
        double v = c->get(row);
        if (c->type == COL_CHECK)
            fprintf(out, "%*s", width, check_word(v));
        else if (isnan(v))
            fprintf(out, "%*s", width, c->type == COL_WRONG ? "N/A" : c->type == COL_RATE ? "n/a" : "-");
        else if (c->type == COL_FLAG)
            fprintf(out, "%*s", width, v != 0 ? c->yes : c->no);
        else if (c->type == COL_TIME) /* nccl-tests: fewer decimals as times grow */
            fprintf(out, "%*.*f", width, v >= 10000.0 ? 0 : v >= 100.0 ? 1 : 2, v);
        else
            fprintf(out, "%*.*f", width, c->precision, v);
    }
    if (verdicts)
        fp_evidence_text_cells(out, row->evidence);
    fputc('\n', out);
    fp_evidence_text_lines(out, row->size, row->evidence);
}

/* ---- CSV and JSON ---- */

static void value_plain(FILE *out, const column_t *c, const fp_row_t *row, int json)
{
    if (c->type == COL_TEXT) {
        if (json)
            fp_json_string(out, c->str(row));
        else
            fp_csv_field(out, c->str(row));
        return;
    }
    double v = c->get(row);
    if (isnan(v) || isinf(v))
        fputs(json ? "null" : "", out);
    else if (c->type == COL_CHECK)
        fputs(json ? (v != 0 ? "\"pass\"" : "\"fail\"") : (v != 0 ? "pass" : "fail"), out);
    else if (c->type == COL_FLAG)
        fputs(v != 0 ? "true" : "false", out);
    else if (c->type == COL_COUNT || c->type == COL_WRONG)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.9g", v);
}

static void json_meta(FILE *out, const fp_meta_t *m, const column_t *const *cols)
{
    fprintf(out, "{\"type\":\"meta\",\"program\":");
    fp_json_string(out, m->program);
    fprintf(out, ",\"version\":\"%s\",\"benchmark\":", PACKAGE_VERSION);
    fp_json_string(out, m->benchmark);
    static const char *const metrics[] = {[FP_REPORT_LATENCY] = "latency", [FP_REPORT_BANDWIDTH] = "bandwidth",
                                          [FP_REPORT_COLLECTIVE] = "collective",
                                          [FP_REPORT_MSGRATE] = "bandwidth"};
    fprintf(out, ",\"metric\":\"%s\",\"title\":", metrics[m->report]);
    fp_json_string(out, m->title);
    fprintf(out, ",\"date\":\"%s\",\"ranks\":%d,\"hosts\":[", m->date, m->nranks);
    for (int i = 0; i < m->nhosts; i++) {
        fprintf(out, "%s{\"name\":", i ? "," : "");
        fp_json_string(out, m->hosts[i].name);
        fprintf(out, ",\"ranks\":%d}", m->hosts[i].ranks);
    }
    fprintf(out, "],\"mpi_library\":");
    fp_json_string(out, m->mpi_library);
    fprintf(out, ",\"cuda_aware\":\"%s\",\"gpu\":", m->cuda_aware);
    if (m->gpu[0])
        fp_json_string(out, m->gpu);
    else
        fputs("null", out);
    fprintf(out, ",\"buffers\":\"%s\",\"staging\":%s,\"timer\":", m->buffers, m->staging ? "true" : "false");
    fp_json_string(out, m->timer);
    fprintf(out, ",\"timer_overhead_us\":%.6g,\"timer_resolution_us\":%.6g,\"sample\":", m->timer_overhead_us,
            m->timer_resolution_us);
    fp_json_string(out, m->sample);
    fprintf(out, ",\"iterations\":");
    fp_json_string(out, m->iterations);
    fprintf(out, ",\"warmup\":");
    fp_json_string(out, m->warmup);
    fprintf(out, ",\"batch\":");
    fp_json_string(out, m->batch);
    if (m->window > 0)
        fprintf(out, ",\"window\":%ld", m->window);
    if (m->pairs) {
        fprintf(out, ",\"pairs\":");
        fp_json_string(out, m->pairs);
    }
    if (m->report != FP_REPORT_COLLECTIVE && m->backend[0]) {
        fprintf(out, ",\"backend\":");
        fp_json_string(out, m->backend);
    }
    if (m->report == FP_REPORT_COLLECTIVE) {
        fprintf(out, ",\"backend\":");
        fp_json_string(out, m->backend);
        fprintf(out, ",\"datatype\":\"%s\",\"op\":\"%s\",\"root\":%d,\"busbw_formula\":\"%s\","
                     "\"busbw_factor\":%.9g,\"rotate\":%s", m->datatype, m->op, m->root, m->busbw_formula,
                m->busbw_factor, m->rotate ? "true" : "false");
    }
    fprintf(out, ",\"adaptive\":%s", m->adaptive ? "true" : "false");
    if (m->adaptive)
        fprintf(out, ",\"ci_target_pct\":%.6g,\"time_budget_s\":%.6g", m->ci_target_pct, m->time_budget_s);
    fprintf(out, ",\"validation\":%s", m->validate ? "true" : "false");
    fp_provenance_json(out, m);
    fprintf(out, ",\"columns\":[");
    for (int i = 0; cols[i]; i++)
        fprintf(out, "%s\"%s\"", i ? "," : "", cols[i]->key);
    if (m->evidence_fields)
        fp_evidence_json_keys(out);
    fprintf(out, "]}\n");
}

void fp_report_begin(fp_report_t *r, FILE *out, fp_format_t format, const fp_meta_t *meta)
{
    const column_t *const *cols = layout_of(meta->report);
    r->out = out;
    r->format = format;
    r->meta = meta;
    r->busbw_sum = 0;
    r->busbw_count = 0;
    r->wrong_total = 0;
    switch (format) {
    case FP_FORMAT_TEXT:
        text_meta(out, meta);
        if (meta->layout == FP_LAYOUT_FULL)
            text_header(out, cols, meta->report == FP_REPORT_COLLECTIVE, meta->verdict_columns);
        else
            fp_compat_header(out, meta);
        break;
    case FP_FORMAT_CSV: /* the header as '#' lines: read_csv(comment='#') and the like skip them */
        text_meta(out, meta);
        for (int i = 0; cols[i]; i++)
            fprintf(out, "%s%s", i ? "," : "", cols[i]->key);
        if (meta->evidence_fields)
            fp_evidence_csv_header(out);
        fputc('\n', out);
        break;
    case FP_FORMAT_JSON: json_meta(out, meta, cols); break;
    }
    fflush(out);
}

void fp_report_row(fp_report_t *r, const fp_row_t *row)
{
    const column_t *const *cols = layout_of(r->meta->report);
    FILE *out = r->out;
    if (r->meta->report == FP_REPORT_COLLECTIVE)
        for (int v = FP_VAR_OOP; v <= FP_VAR_IP; v++)
            if (isfinite(coll(row)->busbw[v])) {
                r->busbw_sum += coll(row)->busbw[v];
                r->busbw_count++;
            }
    if (row->wrong > 0)
        r->wrong_total += row->wrong;
    if (r->format == FP_FORMAT_TEXT && r->meta->layout != FP_LAYOUT_FULL) {
        fp_compat_row(out, r->meta, row);
    } else if (r->format == FP_FORMAT_TEXT) {
        text_row(out, cols, row, r->meta->report == FP_REPORT_COLLECTIVE, r->meta->verdict_columns);
    } else {
        int json = r->format == FP_FORMAT_JSON;
        if (json)
            fputs("{\"type\":\"row\"", out);
        for (int i = 0; cols[i]; i++) {
            if (json)
                fprintf(out, ",\"%s\":", cols[i]->key);
            else if (i)
                fputc(',', out);
            value_plain(out, cols[i], row, json);
        }
        if (r->meta->evidence_fields)
            (json ? fp_evidence_json : fp_evidence_csv)(out, row->evidence);
        fputs(json ? "}\n" : "\n", out);
    }
    fflush(out);
}

void fp_report_end(fp_report_t *r, const char *status, int failures)
{
    int collective = r->meta->report == FP_REPORT_COLLECTIVE;
    double avg_busbw = r->busbw_count ? r->busbw_sum / (double)r->busbw_count : 0.0;
    if (r->format == FP_FORMAT_JSON) {
        fprintf(r->out, "{\"type\":\"end\",\"status\":");
        fp_json_string(r->out, status);
        fprintf(r->out, ",\"failures\":%d", failures);
        if (collective && r->busbw_count)
            fprintf(r->out, ",\"avg_busbw_gbps\":%.9g,\"wrong\":%ld", avg_busbw, r->wrong_total);
        else if (collective)
            fprintf(r->out, ",\"avg_busbw_gbps\":null,\"wrong\":%ld", r->wrong_total);
        fp_provenance_json_end(r->out, r->meta);
        fputs("}\n", r->out);
    } else {
        if (collective && r->format == FP_FORMAT_TEXT) { /* nccl-tests' closing lines: scrapers look for them */
            if (r->meta->validate) /* nccl-tests says "0 OK" unchecked too; fabperf only when checked */
                fprintf(r->out, "# Out of bounds values : %ld %s\n", r->wrong_total, r->wrong_total ? "FAILED" : "OK");
            if (r->busbw_count)
                fprintf(r->out, "# Avg bus bandwidth    : %g \n#\n", avg_busbw);
            else
                fprintf(r->out, "# Avg bus bandwidth    : n/a (no data crossed between ranks)\n#\n");
        }
        int complete = strcmp(status, "complete") == 0;
        fp_provenance_text_end(r->out, r->meta);
        if (r->meta->validate)
            fprintf(r->out, "# validation: %s\n",
                    failures ? "FAILED" : complete ? "all sizes passed" : "the sizes above passed");
        fprintf(r->out, "# run %s\n", status); /* the end record, last: without it the run was killed */
    }
    fflush(r->out);
}
