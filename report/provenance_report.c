/* The provenance part of every result: label, environment of every rank, placement of every
 * rank, UCX's selection on rank 0. Everything that came from outside goes through escape.h. */
#include "escape.h"
#include "provenance.h"
#include "ucx_log.h"

/* "rank 3" or "ranks 0,2-5". */
static void ranks_text(FILE *out, const int *ranks, int n)
{
    fputs(n == 1 ? "rank " : "ranks ", out);
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        fprintf(out, j > i ? "%s%d-%d" : "%s%d", i ? "," : "", ranks[i], ranks[j]);
        i = j;
    }
}

static void env_text(FILE *out, const fp_meta_t *m)
{
    int alike = 0;
    fputs("# env:", out);
    for (int i = 0; i < m->nenv; i++) {
        if (m->env[i].nvalues)
            continue;
        fputc(' ', out);
        fp_text_string(out, m->env[i].name);
        fputc('=', out);
        fp_text_string(out, m->env[i].value);
        alike++;
    }
    if (!alike)
        fputs(m->nenv ? " (none set alike on every rank)" : " (no provider-selecting variables set)", out);
    fputc('\n', out);
    for (int i = 0; i < m->nenv; i++) {
        const fp_env_var_t *v = &m->env[i];
        if (!v->nvalues)
            continue;
        fputs("# env differs between ranks:", out);
        for (int g = 0; g < v->nvalues; g++) {
            fputs(g ? "; " : " ", out);
            if (v->values[g].value) {
                fp_text_string(out, v->name);
                fputc('=', out);
                fp_text_string(out, v->values[g].value);
            } else {
                fp_text_string(out, v->name);
                fputs(" unset", out);
            }
            fputs(" on ", out);
            ranks_text(out, v->values[g].ranks, v->values[g].nranks);
        }
        fputc('\n', out);
    }
    if (m->env_unrecorded)
        fprintf(out, "# env: %d variable(s) not recorded: over the bound of 256 KiB per rank\n", m->env_unrecorded);
}

static void cpu_text(FILE *out, int cpu, int numa)
{
    if (cpu < 0)
        fputs("cpu unknown", out);
    else
        fprintf(out, "cpu %d", cpu);
    if (numa < 0)
        fputs(" (numa unknown)", out);
    else
        fprintf(out, " (numa %d)", numa);
}

static void placement_text(FILE *out, const fp_placement_t *p)
{
    for (int r = 0; r < p->nranks && p->ranks; r++) {
        const fp_place_t *pl = &p->ranks[r];
        fprintf(out, "# rank %d: host ", r);
        fp_text_string(out, pl->host);
        fputs(", cpus ", out);
        fp_text_string(out, pl->cpus);
        fputs(", at start on ", out);
        cpu_text(out, pl->cpu_start, pl->numa_start);
        fputs(", gpu ", out);
        fp_text_string(out, pl->gpu[0] ? pl->gpu : "none");
        fputs(", nic ", out);
        fp_text_string(out, pl->nic);
        fputc('\n', out);
    }
}

/* "# ucx (rank 0, from UCX's log): 1.13.1: peer tag(tcp/lo) ..." */
static void ucx_text(FILE *out, const char *when, const fp_ucx_selection_t *s)
{
    char text[4096];
    if (!s)
        return;
    fp_ucx_selection_text(s, text, sizeof text);
    fprintf(out, "# ucx%s (rank 0, from UCX's log): ", when);
    fp_text_string(out, text);
    fputc('\n', out);
}

void fp_provenance_text(FILE *out, const fp_meta_t *m)
{
    if (m->label) {
        fputs("# label: ", out);
        fp_text_string(out, m->label);
        fputc('\n', out);
    }
    if (m->baseline) {
        fputs("# baseline: ", out);
        fp_text_string(out, m->baseline);
        fputc('\n', out);
    }
    env_text(out, m);
    placement_text(out, &m->placement);
    ucx_text(out, "", m->ucx);
    if (m->link_counters[0]) {
        fputs("# link counters (rank 0's node, read around each size): ", out);
        fp_text_string(out, m->link_counters);
        fputc('\n', out);
    }
}

void fp_provenance_text_end(FILE *out, const fp_meta_t *m)
{
    const fp_placement_t *p = &m->placement;
    ucx_text(out, " at the end", m->ucx_end);
    if (!p->ended || !p->ranks)
        return;
    int moved = 0;
    fputs("# cpu at end:", out);
    for (int r = 0; r < p->nranks; r++) {
        const fp_place_t *pl = &p->ranks[r];
        if (pl->cpu_end == pl->cpu_start && pl->cpu_start >= 0)
            continue;
        fprintf(out, "%s rank %d on ", moved++ ? ";" : "", r);
        cpu_text(out, pl->cpu_end, pl->numa_end);
        fputs(", started on ", out);
        cpu_text(out, pl->cpu_start, pl->numa_start);
    }
    fputs(moved ? "\n" : " every rank on the cpu it started on\n", out);
}

static void json_int_array(FILE *out, const int *v, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%d", i ? "," : "", v[i]);
    fputc(']', out);
}

static void env_json(FILE *out, const fp_meta_t *m)
{
    int first = 1;
    fputs(",\"env\":{", out);
    for (int i = 0; i < m->nenv; i++) {
        if (m->env[i].nvalues)
            continue;
        fputs(first ? "" : ",", out);
        first = 0;
        fp_json_string(out, m->env[i].name);
        fputc(':', out);
        fp_json_string(out, m->env[i].value);
    }
    fputs("},\"env_differs\":{", out);
    first = 1;
    for (int i = 0; i < m->nenv; i++) {
        const fp_env_var_t *v = &m->env[i];
        if (!v->nvalues)
            continue;
        fputs(first ? "" : ",", out);
        first = 0;
        fp_json_string(out, v->name);
        fputs(":[", out);
        for (int g = 0; g < v->nvalues; g++) {
            fputs(g ? ",{\"value\":" : "{\"value\":", out);
            if (v->values[g].value)
                fp_json_string(out, v->values[g].value);
            else
                fputs("null", out);
            fputs(",\"ranks\":", out);
            json_int_array(out, v->values[g].ranks, v->values[g].nranks);
            fputc('}', out);
        }
        fputc(']', out);
    }
    fprintf(out, "},\"env_unrecorded\":%d", m->env_unrecorded);
}

static void placement_json(FILE *out, const fp_placement_t *p)
{
    fputs(",\"placement\":[", out);
    for (int r = 0; r < p->nranks && p->ranks; r++) {
        const fp_place_t *pl = &p->ranks[r];
        fprintf(out, "%s{\"rank\":%d,\"host\":", r ? "," : "", r);
        fp_json_string(out, pl->host);
        fputs(",\"cpus\":", out);
        fp_json_string(out, pl->cpus);
        fprintf(out, ",\"cpu_start\":%d,\"numa_start\":%d,\"gpu\":", pl->cpu_start, pl->numa_start);
        fp_json_string_or_null(out, pl->gpu);
        fputs(",\"nic\":", out);
        fp_json_string(out, pl->nic);
        fputc('}', out);
    }
    fputc(']', out);
}

void fp_provenance_json(FILE *out, const fp_meta_t *m)
{
    fputs(",\"label\":", out);
    if (m->label)
        fp_json_string(out, m->label);
    else
        fputs("null", out);
    if (m->baseline) { /* only where judged by one: older readers see the keys they know */
        fputs(",\"baseline\":", out);
        fp_json_string(out, m->baseline);
    }
    env_json(out, m);
    placement_json(out, &m->placement);
    fputs(",\"ucx\":", out);
    if (m->ucx)
        fp_ucx_selection_json(out, m->ucx);
    else
        fputs("null", out);
    if (m->link_counters[0]) { /* only where the path evidence read them: older readers see their keys */
        fputs(",\"link_counters\":", out);
        fp_json_string(out, m->link_counters);
    }
}

void fp_provenance_json_end(FILE *out, const fp_meta_t *m)
{
    const fp_placement_t *p = &m->placement;
    if (m->ucx_end) {
        fputs(",\"ucx_end\":", out);
        fp_ucx_selection_json(out, m->ucx_end);
    }
    if (!p->ended || !p->ranks)
        return;
    fputs(",\"placement_end\":[", out);
    for (int r = 0; r < p->nranks; r++)
        fprintf(out, "%s{\"rank\":%d,\"cpu_end\":%d,\"numa_end\":%d}", r ? "," : "", r, p->ranks[r].cpu_end,
                p->ranks[r].numa_end);
    fputc(']', out);
}
