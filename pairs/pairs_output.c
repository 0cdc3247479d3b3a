/* Rank 0's store of a sweep's cells and its records: per round as it finishes, the matrix, the
 * findings and the failed thresholds, in text (comment lines) and JSON Lines. CSV keeps the rows
 * only. The records are described in docs/pairs.md ("All-pairs records"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "report.h"

/* Above these, the dense matrix is left out (the per-round records hold every cell). */
#define JSON_MATRIX_MAX_NODES 1024
#define TEXT_MATRIX_MAX_NODES 32

int fp_pairs_matrix_open(fp_pairs_matrix_t *m, size_t n, const size_t *shifts, size_t nshifts, int with_cells)
{
    size_t cells = with_cells ? n * nshifts : 0;
    memset(m, 0, sizeof *m);
    m->shift = malloc((nshifts + 1) * sizeof *m->shift);
    m->round_of = malloc(n * sizeof *m->round_of);
    m->cells = malloc((cells + 1) * sizeof *m->cells);
    m->samples = calloc(cells + 1, sizeof *m->samples);
    if (!m->shift || !m->round_of || !m->cells || !m->samples) {
        fp_pairs_matrix_close(m);
        return fp_fail("malloc of a %zu x %zu cell store failed", nshifts, n);
    }
    memcpy(m->shift, shifts, nshifts * sizeof *shifts);
    m->layout = (fp_shifts_t){n, nshifts, m->shift};
    for (size_t i = 0; i < n; i++)
        m->round_of[i] = -1;
    for (size_t r = 0; r < nshifts; r++)
        m->round_of[shifts[r]] = (long)r;
    for (size_t k = 0; k < cells; k++)
        m->cells[k] = (fp_cell_t){NAN, NAN, NAN};
    return FP_OK;
}

void fp_pairs_matrix_close(fp_pairs_matrix_t *m)
{
    free(m->shift);
    free(m->round_of);
    free(m->cells);
    free(m->samples);
    memset(m, 0, sizeof *m);
}

fp_cell_t *fp_pairs_matrix_cell(fp_pairs_matrix_t *m, size_t a, size_t b)
{
    size_t n = m->layout.n;
    if (!m->cells || a == b || a >= n || b >= n)
        return NULL;
    long r = m->round_of[(b + n - a) % n];
    return r < 0 ? NULL : &m->cells[(size_t)r * n + a];
}

const char *fp_pairs_unit(const fp_run_t *run)
{
    return run->bench->pairs->quantity == FP_QTY_LATENCY ? "us" : "MB/s";
}

static const char *quantity_name(const fp_run_t *run)
{
    return run->bench->pairs->quantity == FP_QTY_LATENCY ? "latency" : "bandwidth";
}

static FILE *records_out(const fp_run_t *run, int text_too)
{
    const fp_report_t *r = run->report;
    if (!r || r->format == FP_FORMAT_CSV || (!text_too && r->format == FP_FORMAT_TEXT))
        return NULL;
    return r->out;
}

static int json(const fp_run_t *run)
{
    return run->report->format == FP_FORMAT_JSON;
}

static void json_head(const fp_run_t *run, FILE *out, const char *type, size_t bytes)
{
    fprintf(out, "{\"type\":\"%s\",\"size\":%zu,\"quantity\":\"%s\",\"unit\":\"%s\"", type, bytes, quantity_name(run),
            fp_pairs_unit(run));
}

/* Whether a rank's name in the matrix ("h3", or "h3:5" where a host has several ranks) is node's. */
static int on_node(const char *name, const char *node)
{
    size_t n = strlen(node);
    return strncmp(name, node, n) == 0 && (name[n] == '\0' || name[n] == ':');
}

/* The link counters that moved during round r, and the cells of that round whose ends sit on a
 * node where one moved (its ranks as senders and as receivers). */
void fp_pairs_emit_round_links(fp_run_t *run, size_t bytes, size_t r, const fp_link_set_t *set)
{
    FILE *out = records_out(run, 1);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    const fp_pairs_matrix_t *m = &pc->matrix;
    size_t n = m->layout.n, k = m->layout.shift[r];
    if (!out || set->count == 0)
        return;
    flockfile(out);
    if (json(run)) {
        json_head(run, out, "link", bytes);
        fprintf(out, ",\"round\":%zu,\"shift\":%zu,\"errors\":%d,\"links\":", r + 1, k, set->errors);
        fp_link_json(out, set);
        fputs(",\"cells\":[", out);
    } else {
        fprintf(out, "# link round %zu/%zu (shift %zu): ", r + 1, m->layout.nshifts, k);
        fp_text_string(out, set->line);
        fputs("; cells", out);
    }
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        int on = 0; /* sender i or receiver (i + k) on a node where a counter moved */
        for (int l = 0; l < set->count && !on; l++)
            on = on_node(pc->names[i], set->moved[l].node) || on_node(pc->names[(i + k) % n], set->moved[l].node);
        if (!on)
            continue;
        if (json(run))
            fprintf(out, "%s[%zu,%zu]", first ? "" : ",", i, (i + k) % n);
        else
            fprintf(out, "%s %s -> %s", first ? "" : ",", pc->name_list[i], pc->name_list[(i + k) % n]);
        first = 0;
    }
    fputs(json(run) ? "]}\n" : "\n", out);
    funlockfile(out);
    fflush(out);
}

/* cells4: 4 doubles per sender (median, lo, hi, samples) of round r. */
/* With --topology: how many cells of shift k stay within one switch, join two switches under one
 * parent, or cross higher (class[3]); 0 without a topology. A round measures its classes under
 * the same load, and the uplinks' screen compares them. */
static int round_classes(const fp_pairs_ctx_t *pc, size_t n, size_t k, size_t class[3])
{
    if (!pc->switch_of)
        return 0;
    class[0] = class[1] = class[2] = 0;
    for (size_t i = 0; i < n; i++) {
        int a = pc->switch_of[i], b = pc->switch_of[(i + k) % n], pa = pc->topology.sw[a].parent;
        class[a == b ? 0 : pa >= 0 && pa == pc->topology.sw[b].parent ? 1 : 2]++;
    }
    return 1;
}

void fp_pairs_emit_round(fp_run_t *run, size_t bytes, size_t r, const double *cells4)
{
    FILE *out = records_out(run, 1);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    const fp_pairs_matrix_t *m = &pc->matrix;
    size_t n = m->layout.n, k = m->layout.shift[r], low = 0, class[3];
    if (!out)
        return;
    flockfile(out);
    if (json(run)) {
        json_head(run, out, "cells", bytes);
        fprintf(out, ",\"round\":%zu,\"rounds\":%zu,\"shift\":%zu", r + 1, m->layout.nshifts, k);
        if (round_classes(pc, n, k, class))
            fprintf(out, ",\"classes\":{\"same_switch\":%zu,\"same_parent\":%zu,\"above\":%zu}", class[0],
                    class[1], class[2]);
        fputs(",\"cells\":[", out);
        static const char *const keys[] = {"value", "ci_lo", "ci_hi", "samples"};
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "%s{\"sender\":%zu,\"receiver\":%zu", i ? "," : "", i, (i + k) % n);
            for (int v = 0; v < 4; v++) {
                double x = cells4[4 * i + v];
                fprintf(out, ",\"%s\":", keys[v]);
                fp_json_number_or_null(out, v == 1 || v == 2 ? fp_pairs_shown_bound(x, cells4[4 * i + 3]) : x);
            }
            fputc('}', out);
        }
        fputs("]}\n", out);
    } else {
        double med[4096];
        size_t m_count = 0;
        int higher = run->bench->pairs->quantity == FP_QTY_RATE;
        for (size_t i = 0; i < n; i++) {
            if (higher ? cells4[4 * i] < cells4[4 * low] : cells4[4 * i] > cells4[4 * low])
                low = i;
            if (m_count < 4096)
                med[m_count++] = cells4[4 * i];
        }
        const char *const *names = pc->name_list;
        fprintf(out, "# round %zu/%zu (shift %zu): median %.4g %s over %zu cells, %s %.4g (%s -> %s)", r + 1,
                m->layout.nshifts, k, fp_median_finite(med, m_count), fp_pairs_unit(run), n,
                higher ? "lowest" : "highest", cells4[4 * low], names[low], names[(low + k) % n]);
        if (round_classes(pc, n, k, class))
            fprintf(out, "; cells within a switch %zu, between switches under one parent %zu, higher %zu", class[0],
                    class[1], class[2]);
        fputc('\n', out);
    }
    funlockfile(out);
    fflush(out);
}

/* One row of a dense matrix field: the cells of sender a, null where not measured. */
static void json_matrix_row(FILE *out, fp_pairs_matrix_t *m, size_t a, int field)
{
    fputc('[', out);
    for (size_t b = 0; b < m->layout.n; b++) {
        const fp_cell_t *c = fp_pairs_matrix_cell(m, a, b);
        double samples = c ? m->samples[c - m->cells] : NAN;
        double v = !c ? NAN : field == 0 ? c->median : field == 1 ? fp_pairs_shown_bound(c->lo, samples)
                              : field == 2 ? fp_pairs_shown_bound(c->hi, samples) : samples;
        if (b)
            fputc(',', out);
        fp_json_number_or_null(out, v);
    }
    fputc(']', out);
}

static void json_matrix(fp_run_t *run, FILE *out, size_t bytes)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    static const char *const fields[] = {"values", "ci_lo", "ci_hi", "samples"};
    static const char *const modes[] = {"shift", "isolated", "sampled"};
    size_t n = pc->matrix.layout.n;
    json_head(run, out, "matrix", bytes);
    fprintf(out, ",\"better\":\"%s\",\"mode\":\"%s\",\"nodes\":[",
            pc->kind->quantity == FP_QTY_LATENCY ? "lower" : "higher", modes[run->params.pairs_mode]);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? "," : "", out);
        fp_json_string(out, pc->name_list[i]);
    }
    fputs("],\"shifts\":[", out);
    for (size_t r = 0; r < pc->matrix.layout.nshifts; r++)
        fprintf(out, "%s%zu", r ? "," : "", pc->matrix.layout.shift[r]);
    fputc(']', out);
    for (int f = 0; f < 4; f++) {
        fprintf(out, ",\"%s\":[", fields[f]);
        for (size_t a = 0; a < n; a++) {
            fputs(a ? "," : "", out);
            json_matrix_row(out, &pc->matrix, a, f);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void text_matrix(fp_run_t *run, FILE *out, size_t bytes)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    size_t n = pc->matrix.layout.n;
    fprintf(out, "# matrix at %zu bytes, %s (%s), sender per line, receivers in rank order:\n", bytes,
            quantity_name(run), fp_pairs_unit(run));
    for (size_t a = 0; a < n; a++) {
        fprintf(out, "#   %-4zu", a);
        for (size_t b = 0; b < n; b++) {
            const fp_cell_t *c = fp_pairs_matrix_cell(&pc->matrix, a, b);
            if (c && isfinite(c->median))
                fprintf(out, " %9.4g", c->median);
            else
                fprintf(out, " %9s", "-");
        }
        fprintf(out, "  %s\n", pc->name_list[a]);
    }
}

void fp_pairs_emit_matrix(fp_run_t *run, size_t bytes)
{
    FILE *out = records_out(run, 1);
    size_t n = fp_pairs_ctx(&run->ctx)->matrix.layout.n;
    if (!out || n > (json(run) ? JSON_MATRIX_MAX_NODES : TEXT_MATRIX_MAX_NODES))
        return;
    flockfile(out);
    if (json(run))
        json_matrix(run, out, bytes);
    else
        text_matrix(run, out, bytes);
    funlockfile(out);
    fflush(out);
}
