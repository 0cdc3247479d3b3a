/* A fabperf-baseline file read into --expect terms for the entry that matches this run. */
#include "expect_baseline.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"
#include "json_read.h"

void fp_baseline_placement(char *out, size_t len, const char *buffers, int nranks, int nhosts)
{
    snprintf(out, len, "%s, %d ranks on %d host(s)", buffers, nranks, nhosts);
}

static int refuse(char *err, size_t errlen, const char *path, const char *fmt, const char *a, const char *b)
{
    char what[2048];
    snprintf(what, sizeof what, fmt, a, b);
    snprintf(err, errlen, "--expect baseline=%s: %.1800s", path, what);
    return FP_ERR;
}

/* An entry's label as a word of a message: 'fabric', or (none). */
static const char *label_text(const char *label)
{
    return label ? label : "(none)";
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The configurations of `program` in the baseline, "'fabric' (H H, 2 ranks on 2 host(s)); ...". */
static void configurations(const fp_json_t *entries, const char *program, char *out, size_t len)
{
    out[0] = '\0';
    for (const fp_json_t *x = entries->child; x; x = x->next) {
        const char *p = fp_json_member_string(x, "program"), *label = fp_json_member_string(x, "label"),
                   *placement = fp_json_member_string(x, "placement");
        if (!p || !placement || (program && strcmp(p, program) != 0))
            continue;
        int seen = 0; /* one mention per configuration */
        for (const fp_json_t *y = entries->child; y != x && !seen; y = y->next)
            seen = same(fp_json_member_string(y, "program"), p) && same(fp_json_member_string(y, "label"), label) &&
                   same(fp_json_member_string(y, "placement"), placement);
        if (seen)
            continue;
        const char *sep = out[0] ? "; " : "";
        if (label)
            fp_append(out, len, "%s%s%s'%s' (%s)", sep, program ? "" : p, program ? "" : " ", label, placement);
        else
            fp_append(out, len, "%s%s%s(no label) (%s)", sep, program ? "" : p, program ? "" : " ", placement);
    }
    if (!out[0])
        snprintf(out, len, "none");
}

/* The entry's bound as a term on this program's quantity, relaxed by the tolerance. */
static int entry_term(const fp_json_t *x, const fp_baseline_run_t *run, double tolerance, fp_expect_term_t *t,
                      const char *path, char *err, size_t errlen)
{
    const fp_json_t *size = fp_json_member(x, "size"), *bound = fp_json_member(x, "bound"),
                    *higher = fp_json_member(x, "higher_is_better");
    const char *unit = fp_json_member_string(x, "unit");
    if (!size || size->kind != FP_JSON_NUMBER || size->number < 0 || size->number != floor(size->number) ||
        size->number > (double)SIZE_MAX / 2 || !bound || bound->kind != FP_JSON_NUMBER || !isfinite(bound->number) ||
        bound->number <= 0 || !higher || higher->kind != FP_JSON_BOOL || !unit)
        return refuse(err, errlen, path, "an entry of %s%s lacks a size, a positive bound, higher_is_better or its unit",
                      run->program, "");
    /* The program's unit is "MB/s", "us" or "GB/s busbw": its first word names the entry's. */
    size_t unit_len = strcspn(run->unit, " ");
    int rate = run->quantity == FP_QTY_RATE;
    if (strlen(unit) != unit_len || strncmp(unit, run->unit, unit_len) != 0 || higher->boolean != rate)
        return refuse(err, errlen, path, "%s's entries are in %s, a quantity this program does not judge", run->program,
                      unit);
    memset(t, 0, sizeof *t);
    t->quantity = run->quantity;
    t->at_least = rate;
    t->value = bound->number * (rate ? 1 - tolerance : 1 + tolerance);
    t->min_size = t->max_size = (size_t)size->number;
    const char *name = !rate ? "lat<=" : strstr(run->unit, "busbw") ? "busbw>=" : "bw>=";
    snprintf(t->text, sizeof t->text, "%s%.6g@%zu (baseline)", name, t->value, t->min_size);
    return FP_OK;
}

/* Whether `value` is one of the strings of the array `list`. */
static int listed(const fp_json_t *list, const char *value)
{
    for (const fp_json_t *v = list && list->kind == FP_JSON_ARRAY ? list->child : NULL; v; v = v->next)
        if (v->kind == FP_JSON_STRING && strcmp(v->string, value) == 0)
            return 1;
    return 0;
}

static void first_of(const fp_json_t *list, char *out, size_t len)
{
    const fp_json_t *v = list && list->kind == FP_JSON_ARRAY ? list->child : NULL;
    snprintf(out, len, "%s", v && v->kind == FP_JSON_STRING ? v->string : "unknown");
}

/* "# baseline: ..." of the header: the entry, its launches and bound, and a software difference. */
static void note(fp_expect_t *e, const fp_json_t *doc, const fp_baseline_run_t *run, const char *label,
                 const fp_json_t *first_entry, int terms)
{
    const fp_json_t *from = fp_json_member(doc, "built_from"), *launches = fp_json_member(first_entry, "launches"),
                    *coverage = fp_json_member(doc, "coverage"), *confidence = fp_json_member(doc, "confidence");
    char *n = e->baseline_note;
    size_t len = sizeof e->baseline_note;
    n[0] = '\0';
    fp_append(n, len, "%s: %s %s%s%s (%s), %d size(s)", e->baseline_path, run->program, label ? "'" : "",
              label_text(label), label ? "'" : "", run->placement, terms);
    if (launches && launches->kind == FP_JSON_NUMBER)
        fp_append(n, len, ", bounds from %.0f launches", launches->number);
    if (coverage && confidence && coverage->kind == FP_JSON_NUMBER && confidence->kind == FP_JSON_NUMBER)
        fp_append(n, len, " (%g of healthy launches better, with confidence %g)", coverage->number,
                  confidence->number);
    fp_append(n, len, ", tolerance %g", e->baseline_tolerance);
    const char *first = fp_json_member_string(from, "first"), *last = fp_json_member_string(from, "last");
    if (first && last)
        fp_append(n, len, ", launches of %s to %s", first, last);
    const fp_json_t *mpi = fp_json_member(from, "mpi_library"), *versions = fp_json_member(from, "fabperf");
    char theirs[512];
    if (mpi && !listed(mpi, run->mpi_library)) {
        first_of(mpi, theirs, sizeof theirs);
        fp_append(n, len, "; software differs: MPI library '%s' here, '%s' in the baseline", run->mpi_library, theirs);
    }
    if (versions && !listed(versions, run->version)) {
        first_of(versions, theirs, sizeof theirs);
        fp_append(n, len, "; software differs: fabperf %s here, %s in the baseline", run->version, theirs);
    }
}

/* The matching entries' terms; FP_ERR with the reason in err. */
static int select_terms(fp_expect_t *e, const fp_json_t *doc, const fp_json_t *entries, const fp_baseline_run_t *run,
                        char *err, size_t errlen)
{
    const char *path = e->baseline_path, *label = run->label;
    int matched = 0;
    const fp_json_t *first = NULL;
    for (const fp_json_t *x = entries->child; x; x = x->next) {
        const char *program = fp_json_member_string(x, "program"), *placement = fp_json_member_string(x, "placement");
        const char *entry_label = fp_json_member_string(x, "label");
        if (!program || !placement || strcmp(program, run->program) != 0 || strcmp(placement, run->placement) != 0 ||
            (label && !same(entry_label, label)))
            continue;
        if (first && !same(entry_label, fp_json_member_string(first, "label"))) {
            char list[1024];
            configurations(entries, run->program, list, sizeof list);
            return refuse(err, errlen, path, "holds several configurations of %s (%s): give --label to name one",
                          run->program, list);
        }
        if (!first)
            first = x;
        matched++;
    }
    if (!matched) {
        char want[700], list[1024];
        snprintf(want, sizeof want, "%s%s%s%s (%s)", run->program, label ? " '" : "", label ? label : "",
                 label ? "'" : "", run->placement);
        configurations(entries, NULL, list, sizeof list);
        return refuse(err, errlen, path, "no entry of this run, %s; the baseline has: %s", want, list);
    }
    e->from_baseline = calloc((size_t)matched, sizeof *e->from_baseline);
    if (!e->from_baseline)
        return refuse(err, errlen, path, "out of memory for %s%s", run->program, "'s terms");
    const char *chosen_label = fp_json_member_string(first, "label");
    for (const fp_json_t *x = first; x; x = x->next) {
        const char *program = fp_json_member_string(x, "program"), *placement = fp_json_member_string(x, "placement");
        if (!program || !placement || strcmp(program, run->program) != 0 || strcmp(placement, run->placement) != 0 ||
            !same(fp_json_member_string(x, "label"), chosen_label))
            continue;
        if (entry_term(x, run, e->baseline_tolerance, &e->from_baseline[e->nfrom_baseline], path, err, errlen) != FP_OK)
            return FP_ERR;
        e->nfrom_baseline++;
    }
    note(e, doc, run, chosen_label, first, e->nfrom_baseline);
    return FP_OK;
}

int fp_expect_baseline_load(fp_expect_t *e, const fp_baseline_run_t *run, char *err, size_t errlen)
{
    if (!e->baseline_path[0])
        return FP_OK;
    char why[1024];
    fp_json_t *doc = fp_json_read_file(e->baseline_path, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "--expect baseline=: cannot read a baseline: %s", why);
        return FP_ERR;
    }
    const char *type = fp_json_member_string(doc, "type");
    const fp_json_t *entries = fp_json_member(doc, "entries");
    int rc;
    if (!type || strcmp(type, "fabperf-baseline") != 0 || !entries || entries->kind != FP_JSON_ARRAY)
        rc = refuse(err, errlen, e->baseline_path, "not a fabperf-baseline file (%s%s)",
                    "accepted: what fabperf-baseline build writes", "");
    else
        rc = select_terms(e, doc, entries, run, err, errlen);
    fp_json_free(doc);
    if (rc != FP_OK)
        fp_expect_release(e);
    return rc;
}
