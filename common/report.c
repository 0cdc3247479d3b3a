#include "report.h"

#include <math.h>
#include <string.h>

typedef enum { COL_REAL, COL_COUNT, COL_FLAG, COL_CHECK } col_type_t;

typedef struct column {
    const char *key;    /* CSV header and JSON key */
    const char *header; /* text header */
    int width, precision;
    col_type_t type;
    double (*get)(const fp_row_t *row);
    const char *yes, *no; /* COL_FLAG words in text */
} column_t;

static double get_size(const fp_row_t *r) { return (double)r->size; }
static double get_osu(const fp_row_t *r) { return r->osu; }
static double get_bw_p50(const fp_row_t *r) { return r->bw_p50; }
static double get_bw_lo(const fp_row_t *r) { return r->bw_lo; }
static double get_bw_hi(const fp_row_t *r) { return r->bw_hi; }
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
static const column_t col_size = {"size", "# Size", 10, 0, COL_COUNT, get_size, NULL, NULL};
static const column_t col_avg_latency = {"avg_us", "Avg Latency(us)", 18, 2, COL_REAL, get_osu, NULL, NULL};
static const column_t col_bandwidth = {"bw_mbps", "Bandwidth (MB/s)", 18, 2, COL_REAL, get_osu, NULL, NULL};
static const column_t col_bw_p50 = {"bw_p50_mbps", "P50(MB/s)", 12, 2, COL_REAL, get_bw_p50, NULL, NULL};
static const column_t col_bw_lo = {"bw_ci_lo_mbps", "CIlo(MB/s)", 12, 2, COL_REAL, get_bw_lo, NULL, NULL};
static const column_t col_bw_hi = {"bw_ci_hi_mbps", "CIhi(MB/s)", 12, 2, COL_REAL, get_bw_hi, NULL, NULL};
static const column_t col_mean = {"avg_us", "Avg(us)", 12, 2, COL_REAL, get_mean, NULL, NULL};
static const column_t col_min = {"min_us", "Min(us)", 12, 2, COL_REAL, get_min, NULL, NULL};
static const column_t col_p50 = {"p50_us", "P50(us)", 12, 2, COL_REAL, get_p50, NULL, NULL};
static const column_t col_p50_lo = {"p50_ci_lo_us", "CIlo(us)", 12, 2, COL_REAL, get_p50_lo, NULL, NULL};
static const column_t col_p50_hi = {"p50_ci_hi_us", "CIhi(us)", 12, 2, COL_REAL, get_p50_hi, NULL, NULL};
static const column_t col_p99 = {"p99_us", "P99(us)", 12, 2, COL_REAL, get_p99, NULL, NULL};
static const column_t col_max = {"max_us", "Max(us)", 12, 2, COL_REAL, get_max, NULL, NULL};
static const column_t col_stddev = {"stddev_us", "Stddev(us)", 12, 2, COL_REAL, get_stddev, NULL, NULL};
static const column_t col_ci_pct = {"ci_halfwidth_pct", "CI+-%", 8, 2, COL_REAL, get_ci_pct, NULL, NULL};
static const column_t col_samples = {"samples", "Samples", 9, 0, COL_COUNT, get_samples, NULL, NULL};
static const column_t col_batch = {"batch", "Batch", 7, 0, COL_COUNT, get_batch, NULL, NULL};
static const column_t col_target = {"target_met", "Target", 7, 0, COL_FLAG, get_target, "met", "missed"};
static const column_t col_staged = {"staged", "Staged", 7, 0, COL_FLAG, get_staged, "yes", "no"};
static const column_t col_check = {"validation", "Check", 7, 0, COL_CHECK, get_check, NULL, NULL};
static const column_t col_wrong = {"wrong", "Wrong", 7, 0, COL_COUNT, get_wrong, NULL, NULL};

static const column_t *const latency_layout[] = {
    &col_size, &col_avg_latency, &col_min, &col_p50, &col_p50_lo, &col_p50_hi, &col_p99, &col_max,
    &col_stddev, &col_ci_pct, &col_samples, &col_batch, &col_target, &col_staged, &col_check, &col_wrong, NULL,
};
static const column_t *const bandwidth_layout[] = {
    &col_size, &col_bandwidth, &col_bw_p50, &col_bw_lo, &col_bw_hi, &col_mean, &col_min, &col_p50,
    &col_p50_lo, &col_p50_hi, &col_p99, &col_max, &col_stddev, &col_ci_pct, &col_samples,
    &col_batch, &col_target, &col_staged, &col_check, &col_wrong, NULL,
};

static const column_t *const *layout_of(fp_report_kind_t kind)
{
    return kind == FP_REPORT_BANDWIDTH ? bandwidth_layout : latency_layout;
}

void fp_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static const char *check_word(double v)
{
    return isnan(v) ? "-" : (v != 0 ? "Pass" : "Fail");
}

/* ---- text ---- */

static void text_meta(FILE *out, const fp_meta_t *m)
{
    fprintf(out, "# %s %s: %s\n", m->program, FP_VERSION_STRING, m->title);
    fprintf(out, "# date: %s\n", m->date);
    fprintf(out, "# ranks: %d on %d host(s):", m->nranks, m->nhosts);
    for (int i = 0; i < m->nhosts; i++)
        fprintf(out, " %s (%d)", m->hosts[i].name, m->hosts[i].ranks);
    fprintf(out, "\n# mpi: %s\n# cuda-aware mpi: %s\n", m->mpi_library, m->cuda_aware);
    if (m->gpu[0])
        fprintf(out, "# gpu: %s\n", m->gpu);
    fprintf(out, "# buffers: %s%s\n", m->buffers, m->staging ? " (staged through pinned host copies)" : "");
    fprintf(out, "# timer: %s (overhead %.3f us)\n", m->timer, m->timer_overhead_us);
    fprintf(out, "# sample: %s\n", m->sample);
    fprintf(out, "# iterations: %s\n# warm-up: %s\n# batch: %s\n", m->iterations, m->warmup, m->batch);
    if (m->window > 0)
        fprintf(out, "# window: %ld\n", m->window);
    fprintf(out, "# validation: %s\n", m->validate ? "on" : "off");
    if (m->label)
        fprintf(out, "# label: %s\n", m->label);
    fprintf(out, "# env:");
    for (int i = 0; i < m->nenv; i++)
        fprintf(out, " %s=%s", m->env[i].name, m->env[i].value);
    fprintf(out, "%s\n", m->nenv ? "" : " (no provider-selecting variables set)");
}

static void text_header(FILE *out, const column_t *const *cols)
{
    fprintf(out, "%-*s", cols[0]->width, cols[0]->header);
    for (int i = 1; cols[i]; i++)
        fprintf(out, "%*s", cols[i]->width, cols[i]->header);
    fputc('\n', out);
}

static void text_row(FILE *out, const column_t *const *cols, const fp_row_t *row)
{
    fprintf(out, "%-*zu", cols[0]->width, row->size);
    for (int i = 1; cols[i]; i++) {
        double v = cols[i]->get(row);
        if (cols[i]->type == COL_CHECK)
            fprintf(out, "%*s", cols[i]->width, check_word(v));
        else if (isnan(v))
            fprintf(out, "%*s", cols[i]->width, "-");
        else if (cols[i]->type == COL_FLAG)
            fprintf(out, "%*s", cols[i]->width, v != 0 ? cols[i]->yes : cols[i]->no);
        else
            fprintf(out, "%*.*f", cols[i]->width, cols[i]->precision, v);
    }
    fputc('\n', out);
}

/* ---- CSV and JSON ---- */

static void value_plain(FILE *out, const column_t *c, double v, int json)
{
    if (isnan(v) || isinf(v))
        fputs(json ? "null" : "", out);
    else if (c->type == COL_CHECK)
        fputs(json ? (v != 0 ? "\"pass\"" : "\"fail\"") : (v != 0 ? "pass" : "fail"), out);
    else if (c->type == COL_FLAG)
        fputs(v != 0 ? "true" : "false", out);
    else if (c->type == COL_COUNT)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.9g", v);
}

static void json_meta(FILE *out, const fp_meta_t *m, const column_t *const *cols)
{
    fprintf(out, "{\"type\":\"meta\",\"program\":");
    fp_json_string(out, m->program);
    fprintf(out, ",\"version\":\"%s\",\"benchmark\":", FP_VERSION_STRING);
    fp_json_string(out, m->benchmark);
    fprintf(out, ",\"metric\":\"%s\",\"title\":", m->report == FP_REPORT_BANDWIDTH ? "bandwidth" : "latency");
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
    fprintf(out, ",\"timer_overhead_us\":%.6g,\"sample\":", m->timer_overhead_us);
    fp_json_string(out, m->sample);
    fprintf(out, ",\"iterations\":");
    fp_json_string(out, m->iterations);
    fprintf(out, ",\"warmup\":");
    fp_json_string(out, m->warmup);
    fprintf(out, ",\"batch\":");
    fp_json_string(out, m->batch);
    if (m->window > 0)
        fprintf(out, ",\"window\":%ld", m->window);
    fprintf(out, ",\"adaptive\":%s", m->adaptive ? "true" : "false");
    if (m->adaptive)
        fprintf(out, ",\"ci_target_pct\":%.6g,\"time_budget_s\":%.6g", m->ci_target_pct, m->time_budget_s);
    fprintf(out, ",\"validation\":%s,\"label\":", m->validate ? "true" : "false");
    if (m->label)
        fp_json_string(out, m->label);
    else
        fputs("null", out);
    fprintf(out, ",\"env\":{");
    for (int i = 0; i < m->nenv; i++) {
        fputs(i ? "," : "", out);
        fp_json_string(out, m->env[i].name);
        fputc(':', out);
        fp_json_string(out, m->env[i].value);
    }
    fprintf(out, "},\"columns\":[");
    for (int i = 0; cols[i]; i++)
        fprintf(out, "%s\"%s\"", i ? "," : "", cols[i]->key);
    fprintf(out, "]}\n");
}

void fp_report_begin(fp_report_t *r, FILE *out, fp_format_t format, const fp_meta_t *meta)
{
    const column_t *const *cols = layout_of(meta->report);
    r->out = out;
    r->format = format;
    r->meta = meta;
    switch (format) {
    case FP_FORMAT_TEXT:
        text_meta(out, meta);
        text_header(out, cols);
        break;
    case FP_FORMAT_CSV:
        for (int i = 0; cols[i]; i++)
            fprintf(out, "%s%s", i ? "," : "", cols[i]->key);
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
    if (r->format == FP_FORMAT_TEXT) {
        text_row(out, cols, row);
    } else {
        int json = r->format == FP_FORMAT_JSON;
        if (json)
            fputs("{\"type\":\"row\"", out);
        for (int i = 0; cols[i]; i++) {
            if (json)
                fprintf(out, ",\"%s\":", cols[i]->key);
            else if (i)
                fputc(',', out);
            value_plain(out, cols[i], cols[i]->get(row), json);
        }
        fputs(json ? "}\n" : "\n", out);
    }
    fflush(out);
}

void fp_report_end(fp_report_t *r, const char *status, int failures)
{
    if (r->format == FP_FORMAT_JSON) {
        fprintf(r->out, "{\"type\":\"end\",\"status\":");
        fp_json_string(r->out, status);
        fprintf(r->out, ",\"failures\":%d}\n", failures);
    } else if (r->format == FP_FORMAT_TEXT) {
        int complete = strcmp(status, "complete") == 0;
        if (!complete)
            fprintf(r->out, "# run %s\n", status);
        if (r->meta->validate)
            fprintf(r->out, "# validation: %s\n",
                    failures ? "FAILED" : complete ? "all sizes passed" : "the sizes above passed");
    }
    fflush(r->out);
}
