/* The report machinery: renders the columns and hooks of the run's metric (metric.h) as text,
 * CSV or JSON Lines; it knows no metric by name. */
#include "config.h" /* PACKAGE_VERSION */
#include "report.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include "escape.h"
#include "evidence.h"
#include "metric.h"
#include "provenance.h"
#include "report_compat.h"

static const char *check_word(double v)
{
    return isnan(v) ? "-" : (v != 0 ? "Pass" : "Fail");
}

/* ---- text ---- */

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
    if (m->metric->text_meta)
        m->metric->text_meta(out, m);
    fprintf(out, "# validation: %s\n", m->validate ? "on" : "off");
    if (m->soak) {
        fputs("# soak: the sweep repeated", out);
        if (m->soak_cycles > 0)
            fprintf(out, " %ld times", m->soak_cycles);
        if (m->soak_s > 0)
            fprintf(out, "%s for %g s", m->soak_cycles > 0 ? ", at most," : "", m->soak_s);
        fputs("; each size's series (and each all-pairs cell's) searched for steps at the end\n", out);
    }
    fp_provenance_text(out, m);
}

/* Whether the layout shows the column (metric.h: fp_col_show_t). */
static int column_shown(const fp_column_t *c, const fp_meta_t *m)
{
    int full = m->layout == FP_LAYOUT_FULL;
    switch (c->show) {
    case FP_SHOW_ALWAYS: return 1;
    case FP_SHOW_DATA: return 0;
    case FP_SHOW_FULL: return full;
    case FP_SHOW_ADAPTIVE: return full || m->adaptive;
    case FP_SHOW_VALIDATE: return full || m->validate;
    }
    return 1;
}

/* One header line of the grouped style: `field` picks group, names or units. */
static void text_header_line(FILE *out, const fp_meta_t *m, int field)
{
    const fp_column_t *const *cols = m->metric->columns;
    fputc('#', out);
    for (int i = 0; cols[i]; i++) {
        const fp_column_t *c = cols[i];
        if (!column_shown(c, m))
            continue;
        const char *text = field == 0 ? c->group : field == 1 ? c->header : c->unit;
        int width = c->width - (i == 0);
        if (field == 0 && text) { /* a group spans its shown columns, label right-aligned */
            int j = i;
            while (cols[j + 1] && cols[j + 1]->group == text) {
                if (column_shown(cols[++j], m))
                    width += cols[j]->width;
            }
            fprintf(out, "%*s", width, text);
            i = j;
            continue;
        }
        fprintf(out, "%*s", width, text ? text : "");
    }
    fputc('\n', out);
}

static void text_header(FILE *out, const fp_meta_t *m, int verdicts)
{
    const fp_column_t *const *cols = m->metric->columns;
    if (m->metric->text_style == FP_TEXT_GROUPED) {
        for (int field = 0; field < 3; field++)
            text_header_line(out, m, field);
        return;
    }
    fprintf(out, "%-*s", cols[0]->width, cols[0]->header);
    for (int i = 1; cols[i]; i++)
        if (column_shown(cols[i], m))
            fprintf(out, "%*s", cols[i]->width, cols[i]->header);
    if (verdicts)
        fp_evidence_text_header(out);
    fputc('\n', out);
}

static void text_row(FILE *out, const fp_meta_t *m, const fp_row_t *row, int verdicts, char *path_shown)
{
    const fp_column_t *const *cols = m->metric->columns;
    int grouped = m->metric->text_style == FP_TEXT_GROUPED;
    fprintf(out, grouped ? "%*zu" : "%-*zu", cols[0]->width, row->size);
    for (int i = 1; cols[i]; i++) {
        const fp_column_t *c = cols[i];
        if (!column_shown(c, m))
            continue;
        if (grouped) /* a value wider than its column still leaves the fields apart */
            fputc(' ', out);
        int width = c->width - grouped;
        if (c->type == FP_COL_TEXT) {
            fprintf(out, "%*s", width, c->str(row));
            continue;
        }
        double v = c->get(row);
        if (c->type == FP_COL_CHECK)
            fprintf(out, "%*s", width, check_word(v));
        else if (isnan(v))
            fprintf(out, "%*s", width, c->type == FP_COL_WRONG ? "N/A" : c->type == FP_COL_RATE ? "n/a" : "-");
        else if (c->type == FP_COL_FLAG)
            fprintf(out, "%*s", width, v != 0 ? c->yes : c->no);
        else if (c->type == FP_COL_TIME) /* nccl-tests: fewer decimals as times grow */
            fprintf(out, "%*.*f", width, v >= 10000.0 ? 0 : v >= 100.0 ? 1 : 2, v);
        else
            fprintf(out, "%*.*f", width, c->precision, v);
    }
    if (verdicts)
        fp_evidence_text_cells(out, row->evidence);
    fputc('\n', out);
    fp_evidence_text_lines(out, row->size, row->evidence, path_shown, FP_REPORT_PATH_SHOWN);
    if (m->metric->text_row_lines)
        m->metric->text_row_lines(out, row);
}

/* ---- CSV and JSON ---- */

static void value_plain(FILE *out, const fp_column_t *c, const fp_row_t *row, int json)
{
    if (c->type == FP_COL_TEXT) { /* NULL: not known */
        const char *s = c->str(row);
        if (json)
            s ? fp_json_string(out, s) : (void)fputs("null", out);
        else
            fp_csv_field(out, s ? s : "");
        return;
    }
    double v = c->get(row);
    if (isnan(v) || isinf(v))
        fputs(json ? "null" : "", out);
    else if (c->type == FP_COL_CHECK)
        fputs(json ? (v != 0 ? "\"pass\"" : "\"fail\"") : (v != 0 ? "pass" : "fail"), out);
    else if (c->type == FP_COL_FLAG)
        fputs(v != 0 ? "true" : "false", out);
    else if (c->type == FP_COL_COUNT || c->type == FP_COL_WRONG)
        fprintf(out, "%.0f", v);
    else
        fprintf(out, "%.9g", v);
}

static void json_meta(FILE *out, const fp_meta_t *m, const fp_column_t *const *cols)
{
    fprintf(out, "{\"type\":\"meta\",\"program\":");
    fp_json_string(out, m->program);
    fprintf(out, ",\"version\":\"%s\",\"benchmark\":", PACKAGE_VERSION);
    fp_json_string(out, m->benchmark);
    fprintf(out, ",\"metric\":\"%s\",\"title\":", m->metric->name);
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
    if (m->metric->json_meta)
        m->metric->json_meta(out, m);
    fprintf(out, ",\"adaptive\":%s", m->adaptive ? "true" : "false");
    if (m->adaptive)
        fprintf(out, ",\"ci_target_pct\":%.6g,\"time_budget_s\":%.6g", m->ci_target_pct, m->time_budget_s);
    fprintf(out, ",\"validation\":%s", m->validate ? "true" : "false");
    fp_provenance_json(out, m);
    fprintf(out, ",\"columns\":[");
    for (int i = 0; cols[i]; i++)
        fprintf(out, "%s\"%s\"", i ? "," : "", cols[i]->key);
    if (m->evidence_fields)
        fp_evidence_json_keys(out, m->metric);
    if (m->soak)
        fputs(",\"cycle\",\"t_s\"", out);
    fputc(']', out);
    if (m->soak) {
        fprintf(out, ",\"soak\":{\"cycles\":");
        fp_json_number_or_null(out, m->soak_cycles > 0 ? (double)m->soak_cycles : NAN);
        fputs(",\"seconds\":", out);
        fp_json_number_or_null(out, m->soak_s > 0 ? m->soak_s : NAN);
        fputc('}', out);
    }
    fprintf(out, "}\n");
}

void fp_report_whole_records(FILE *out)
{
    static char buffer[1 << 20]; /* larger than any record a sweep writes */
    setvbuf(out, buffer, _IOFBF, sizeof buffer);
}

FILE *fp_report_stdout(void)
{
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        if (fd >= 0)
            close(fd);
        return stdout;
    }
    fp_report_whole_records(out);
    return out;
}

void fp_report_begin(fp_report_t *r, FILE *out, fp_format_t format, const fp_meta_t *meta)
{
    const fp_column_t *const *cols = meta->metric->columns;
    r->out = out;
    r->format = format;
    r->meta = meta;
    r->total = 0;
    r->counted = 0;
    r->wrong_total = 0;
    r->path_shown[0] = '\0';
    switch (format) {
    case FP_FORMAT_TEXT:
        text_meta(out, meta);
        if (meta->layout == FP_LAYOUT_SUMMARY || meta->layout == FP_LAYOUT_FULL)
            text_header(out, meta, meta->verdict_columns);
        else
            fp_compat_header(out, meta);
        break;
    case FP_FORMAT_CSV: /* the header as '#' lines: read_csv(comment='#') and the like skip them */
        text_meta(out, meta);
        for (int i = 0; cols[i]; i++)
            fprintf(out, "%s%s", i ? "," : "", cols[i]->key);
        if (meta->evidence_fields)
            fp_evidence_csv_header(out, meta->metric);
        if (meta->soak)
            fputs(",cycle,t_s", out);
        fputc('\n', out);
        break;
    case FP_FORMAT_JSON: json_meta(out, meta, cols); break;
    }
    fflush(out);
}

static void data_row(FILE *out, const fp_meta_t *meta, const fp_row_t *row, int json)
{
    const fp_column_t *const *cols = meta->metric->columns;
    if (json)
        fputs("{\"type\":\"row\"", out);
    for (int i = 0; cols[i]; i++) {
        if (json)
            fprintf(out, ",\"%s\":", cols[i]->key);
        else if (i)
            fputc(',', out);
        value_plain(out, cols[i], row, json);
    }
    if (meta->evidence_fields)
        (json ? fp_evidence_json : fp_evidence_csv)(out, row->evidence, meta->metric);
    if (meta->soak)
        fprintf(out, json ? ",\"cycle\":%ld,\"t_s\":%.3f" : ",%ld,%.3f", row->cycle, row->t_s);
    fputs(json ? "}\n" : "\n", out);
}

void fp_report_row(fp_report_t *r, const fp_row_t *row)
{
    const fp_meta_t *meta = r->meta;
    if (meta->metric->tally)
        meta->metric->tally(r, row);
    if (row->wrong > 0)
        r->wrong_total += row->wrong;
    if (r->format == FP_FORMAT_TEXT && (meta->layout == FP_LAYOUT_OSU || meta->layout == FP_LAYOUT_NCCL_TESTS))
        fp_compat_row(r->out, meta, row);
    else if (r->format == FP_FORMAT_TEXT)
        text_row(r->out, meta, row, meta->verdict_columns, r->path_shown);
    else
        data_row(r->out, meta, row, r->format == FP_FORMAT_JSON);
    fflush(r->out);
}

void fp_report_end(fp_report_t *r, const char *status, int failures)
{
    const fp_metric_t *metric = r->meta->metric;
    if (r->format == FP_FORMAT_JSON) {
        fprintf(r->out, "{\"type\":\"end\",\"status\":");
        fp_json_string(r->out, status);
        fprintf(r->out, ",\"failures\":%d", failures);
        if (metric->json_end)
            metric->json_end(r->out, r);
        fp_provenance_json_end(r->out, r->meta);
        fputs("}\n", r->out);
    } else {
        if (r->format == FP_FORMAT_TEXT && metric->text_end)
            metric->text_end(r->out, r);
        int complete = strcmp(status, "complete") == 0;
        fp_provenance_text_end(r->out, r->meta);
        if (r->meta->validate)
            fprintf(r->out, "# validation: %s\n",
                    failures ? "FAILED" : complete ? "all sizes passed" : "the sizes above passed");
        fprintf(r->out, "# run %s\n", status); /* the end record, last: without it the run was killed */
    }
    fflush(r->out);
}
