/* Rank 0's lines for the findings of a sweep and for the cells that failed an --expect threshold. */
#include <math.h>
#include <stdio.h>

#include "pairs.h"
#include "report.h"

/* Node findings list their row / column in "pairs" up to this many nodes (above: implied). */
#define PAIRS_LISTED_MAX_NODES 64

static FILE *out_of(const fp_run_t *run)
{
    const fp_report_t *r = run->report;
    return r && r->format != FP_FORMAT_CSV ? r->out : NULL;
}

static void pair(FILE *out, const char *const *names, size_t a, size_t b, int *first)
{
    fputs(*first ? "[" : ",[", out);
    fp_json_string(out, names[a]);
    fputc(',', out);
    fp_json_string(out, names[b]);
    fputc(']', out);
    *first = 0;
}

/* The cells behind a finding, as [sender, receiver] host names. */
static void json_pairs(FILE *out, const fp_pairs_ctx_t *pc, const fp_finding_t *f)
{
    const char *const *names = pc->name_list;
    size_t n = pc->matrix.layout.n, a = (size_t)f->a;
    int first = 1;
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) {
        fputs(",\"pairs\":[", out);
        pair(out, names, a, (size_t)f->b, &first);
        if (f->kind == FP_FIND_LINK_BOTH)
            pair(out, names, (size_t)f->b, a, &first);
        fputc(']', out);
        return;
    }
    if (n > PAIRS_LISTED_MAX_NODES)
        return;
    fputs(",\"pairs\":[", out);
    for (size_t j = 0; j < n; j++) {
        if (f->kind != FP_FIND_RECEIVER && fp_pairs_matrix_cell((fp_pairs_matrix_t *)&pc->matrix, a, j))
            pair(out, names, a, j, &first);
        if (f->kind != FP_FIND_SENDER && fp_pairs_matrix_cell((fp_pairs_matrix_t *)&pc->matrix, j, a))
            pair(out, names, j, a, &first);
    }
    fputc(']', out);
}

static void json_finding(FILE *out, fp_run_t *run, size_t bytes, const fp_finding_t *f, const fp_cell_t *alone,
                         int cleared, const char *line)
{
    static const char *const directions[] = {"send", "receive", "both", "one-way", "both-ways"};
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int link = f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH;
    fprintf(out, "{\"type\":\"finding\",\"size\":%zu,\"quantity\":\"%s\",\"unit\":\"%s\",\"kind\":\"%s\","
                 "\"direction\":\"%s\",\"nodes\":[",
            bytes, pc->kind->quantity == FP_QTY_LATENCY ? "latency" : "bandwidth", fp_pairs_unit(run),
            link ? "slow_link" : "slow_node", directions[f->kind]);
    fp_json_string(out, pc->name_list[f->a]);
    if (link) {
        fputc(',', out);
        fp_json_string(out, pc->name_list[f->b]);
    }
    fprintf(out, "],\"ranks\":[%d", f->a);
    if (link)
        fprintf(out, ",%d", f->b);
    fputc(']', out);
    json_pairs(out, pc, f);
    fputs(",\"value\":", out);
    fp_json_number_or_null(out, f->median);
    fputs(",\"ci_lo\":", out);
    fp_json_number_or_null(out, f->lo);
    fputs(",\"ci_hi\":", out);
    fp_json_number_or_null(out, f->hi);
    fputs(",\"expected\":", out);
    fp_json_number_or_null(out, f->typical);
    fprintf(out, ",\"cells\":%zu,\"confirmed\":%zu,\"alone\":", f->cells, f->confirmed);
    if (alone) {
        fputs("{\"value\":", out);
        fp_json_number_or_null(out, alone->median);
        fputs(",\"ci_lo\":", out);
        fp_json_number_or_null(out, alone->lo);
        fputs(",\"ci_hi\":", out);
        fp_json_number_or_null(out, alone->hi);
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fprintf(out, ",\"cleared\":%s,\"message\":", cleared ? "true" : "false");
    fp_json_string(out, line);
    fputs("}\n", out);
}

void fp_pairs_emit_finding(fp_run_t *run, size_t bytes, const fp_finding_t *f, const fp_cell_t *alone, int cleared)
{
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    char line[1024], tail[256] = "";
    if (!out)
        return;
    fp_finding_format(f, pc->name_list, fp_pairs_unit(run), line, sizeof line);
    if (alone)
        snprintf(tail, sizeof tail, "; alone: %.4g %s [%.4g, %.4g]: %s", alone->median, fp_pairs_unit(run), alone->lo,
                 alone->hi, cleared ? "cleared, congestion of the sweep" : "stands");
    flockfile(out);
    if (run->report->format == FP_FORMAT_JSON) {
        char full[1300];
        snprintf(full, sizeof full, "%s%s", line, tail);
        json_finding(out, run, bytes, f, alone, cleared, full);
    } else {
        fprintf(out, "# finding at %zu bytes: %s%s\n", bytes, line, tail);
    }
    funlockfile(out);
    fflush(out);
}

static void json_threshold(FILE *out, const fp_pairs_ctx_t *pc, size_t bytes, const fp_judgement_t *j, size_t a,
                           size_t b, const fp_cell_t *c)
{
    fprintf(out, "{\"type\":\"verdict\",\"size\":%zu,\"expect\":", bytes);
    fp_json_string(out, j->expect);
    fputs(",\"verdict\":\"fail\",\"threshold\":", out);
    fp_json_number_or_null(out, j->threshold);
    fputs(",\"pair\":[", out);
    fp_json_string(out, pc->name_list[a]);
    fputc(',', out);
    fp_json_string(out, pc->name_list[b]);
    fprintf(out, "],\"ranks\":[%zu,%zu],\"value\":", a, b);
    fp_json_number_or_null(out, c->median);
    fputs(",\"ci_lo\":", out);
    fp_json_number_or_null(out, c->lo);
    fputs(",\"ci_hi\":", out);
    fp_json_number_or_null(out, c->hi);
    fputs("}\n", out);
}

void fp_pairs_emit_threshold(fp_run_t *run, size_t bytes, const fp_judgement_t *j, size_t a, size_t b,
                             const fp_cell_t *c)
{
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (!out)
        return;
    flockfile(out);
    if (!j && run->report->format == FP_FORMAT_TEXT)
        fprintf(out, "# expect at %zu bytes: %zu cells failed in all (the first 20 shown)\n", bytes, a);
    else if (j && run->report->format == FP_FORMAT_TEXT)
        fprintf(out, "# expect failed at %zu bytes: %s -> %s %.4g %s [%.4g, %.4g] against %s\n", bytes,
                pc->name_list[a], pc->name_list[b], c->median, fp_pairs_unit(run), c->lo, c->hi, j->expect);
    else if (j)
        json_threshold(out, pc, bytes, j, a, b, c);
    funlockfile(out);
    fflush(out);
}
