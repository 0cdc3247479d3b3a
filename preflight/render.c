/* The consolidated table: one row per fact, one column per node; then the findings. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "preflight.h"
#include "report.h"

typedef struct {
    const char *device, *key;
} row_t;

/* Every (device, fact) of any node, in the order nodes report them: the node's own facts first. */
static row_t *table_rows(const pf_node_t *nodes, int count, size_t *nrows)
{
    size_t cap = 0;
    for (int n = 0; n < count; n++)
        cap += nodes[n].nfacts;
    row_t *rows = calloc(cap ? cap : 1, sizeof *rows);
    *nrows = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int n = 0; rows && n < count; n++)
            for (size_t f = 0; f < nodes[n].nfacts; f++) {
                const pf_fact_t *fact = &nodes[n].facts[f];
                if ((strcmp(fact->device, "node") == 0) != (pass == 0))
                    continue;
                size_t r = 0;
                while (r < *nrows && !(strcmp(rows[r].device, fact->device) == 0 && strcmp(rows[r].key, fact->key) == 0))
                    r++;
                if (r == *nrows)
                    rows[(*nrows)++] = (row_t){fact->device, fact->key};
            }
    return rows;
}

static int row_differs(const pf_node_t *nodes, int count, const row_t *row)
{
    char first_set[sizeof nodes[0].facts[0].value], set[sizeof first_set];
    const char *first = pf_fact_compared(&nodes[0], row->device, row->key, first_set, sizeof first_set);
    for (int n = 1; n < count; n++) {
        const char *v = pf_fact_compared(&nodes[n], row->device, row->key, set, sizeof set);
        if (!v != !first || (v && strcmp(v, first) != 0))
            return 1;
    }
    return 0;
}

static void count_findings(const pf_node_t *nodes, int count, const pf_node_t *summary, int *fails, int *warns)
{
    *fails = *warns = 0;
    for (int n = 0; n <= count; n++) {
        const pf_node_t *src = n < count ? &nodes[n] : summary;
        for (size_t i = 0; i < src->nfindings; i++)
            *(src->findings[i].level == PF_FAIL ? fails : warns) += 1;
    }
}

static void text_table(FILE *out, const pf_node_t *nodes, int count, const row_t *rows, size_t nrows)
{
    int wd = 6, wk = 4, *wn = calloc((size_t)count, sizeof *wn);
    if (!wn)
        return;
    for (int n = 0; n < count; n++)
        wn[n] = (int)strlen(nodes[n].node);
    for (size_t r = 0; r < nrows; r++) {
        wd = (int)strlen(rows[r].device) > wd ? (int)strlen(rows[r].device) : wd;
        wk = (int)strlen(rows[r].key) > wk ? (int)strlen(rows[r].key) : wk;
        for (int n = 0; n < count; n++) {
            const char *v = pf_fact_value(&nodes[n], rows[r].device, rows[r].key);
            wn[n] = v && (int)strlen(v) > wn[n] ? (int)strlen(v) : wn[n];
        }
    }
    fprintf(out, "# %-*s  %-*s", wd - 2, "device", wk, "fact");
    for (int n = 0; n < count; n++)
        fprintf(out, "  %-*s", n + 1 < count ? wn[n] : 0, nodes[n].node);
    fprintf(out, "\n");
    for (size_t r = 0; r < nrows; r++) {
        fprintf(out, "%-*s  %-*s", wd, rows[r].device, wk, rows[r].key);
        for (int n = 0; n < count; n++) {
            const char *v = pf_fact_value(&nodes[n], rows[r].device, rows[r].key);
            fprintf(out, "  %-*s", n + 1 < count ? wn[n] : 0, v ? v : "-");
        }
        fprintf(out, "%s\n", count > 1 && row_differs(nodes, count, &rows[r]) ? "   <- differs" : "");
    }
    free(wn);
}

static void text_findings(FILE *out, const pf_node_t *nodes, int count, const pf_node_t *summary)
{
    for (int n = 0; n <= count; n++) {
        const pf_node_t *src = n < count ? &nodes[n] : summary;
        for (size_t i = 0; i < src->nfindings; i++) {
            const pf_finding_t *f = &src->findings[i];
            fprintf(out, "%s %s %s: %s\n", f->level == PF_FAIL ? "FAIL" : "WARN", f->node, f->device, f->text);
        }
    }
}

static void json_rows(FILE *out, const pf_node_t *nodes, int count, const row_t *rows, size_t nrows)
{
    for (size_t r = 0; r < nrows; r++) {
        fputs("{\"type\":\"fact\",\"device\":", out);
        fp_json_string(out, rows[r].device);
        fputs(",\"fact\":", out);
        fp_json_string(out, rows[r].key);
        fputs(",\"values\":[", out);
        for (int n = 0; n < count; n++) {
            const char *v = pf_fact_value(&nodes[n], rows[r].device, rows[r].key);
            fputs(n ? "," : "", out);
            if (v)
                fp_json_string(out, v);
            else
                fputs("null", out);
        }
        fprintf(out, "],\"differs\":%s}\n", row_differs(nodes, count, &rows[r]) ? "true" : "false");
    }
}

static void json_findings(FILE *out, const pf_node_t *nodes, int count, const pf_node_t *summary)
{
    for (int n = 0; n <= count; n++) {
        const pf_node_t *src = n < count ? &nodes[n] : summary;
        for (size_t i = 0; i < src->nfindings; i++) {
            const pf_finding_t *f = &src->findings[i];
            fprintf(out, "{\"type\":\"finding\",\"level\":\"%s\",\"node\":", f->level == PF_FAIL ? "fail" : "warn");
            fp_json_string(out, f->node);
            fputs(",\"device\":", out);
            fp_json_string(out, f->device);
            fputs(",\"message\":", out);
            fp_json_string(out, f->text);
            fputs("}\n", out);
        }
    }
}

/* The distinct nodes among the ranks, and how many ranks each holds: "one rank each", "2 ranks
 * each", "1 to 3 ranks each". */
static int ranks_per_node(const pf_node_t *nodes, int count, char *out, size_t len)
{
    int distinct = 0, least = count, most = 0;
    for (int i = 0; i < count; i++) {
        int same = 0, first = 1;
        for (int j = 0; j < count; j++) {
            int match = strcmp(nodes[i].node, nodes[j].node) == 0;
            same += match;
            first &= !(match && j < i);
        }
        if (!first)
            continue;
        distinct++;
        least = same < least ? same : least;
        most = same > most ? same : most;
    }
    if (most <= 1)
        snprintf(out, len, "one rank each");
    else if (least == most)
        snprintf(out, len, "%d ranks each", most);
    else
        snprintf(out, len, "%d to %d ranks each", least, most);
    return distinct;
}

void pf_render(FILE *out, pf_format_t format, const pf_node_t *nodes, int count, const pf_node_t *summary)
{
    size_t nrows;
    row_t *rows = table_rows(nodes, count, &nrows);
    int fails, warns;
    count_findings(nodes, count, summary, &fails, &warns);
    if (format == PF_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"meta\",\"program\":\"fabperf_preflight\",\"version\":\"%s\",\"nodes\":[", PACKAGE_VERSION);
        for (int n = 0; n < count; n++) {
            fputs(n ? "," : "", out);
            fp_json_string(out, nodes[n].node);
        }
        fputs("],\"topology\":", out);
        fp_json_string(out, pf_topology_source());
        fputs("}\n", out);
        json_rows(out, nodes, count, rows ? rows : NULL, rows ? nrows : 0);
        json_findings(out, nodes, count, summary);
        fprintf(out, "{\"type\":\"end\",\"result\":\"%s\",\"failures\":%d,\"warnings\":%d}\n",
                fails ? "fail" : "pass", fails, warns);
    } else {
        char ranks[64];
        int nodes_seen = ranks_per_node(nodes, count, ranks, sizeof ranks);
        fprintf(out, "# fabperf_preflight %s: %d node(s), %s\n# PCIe paths from %s\n", PACKAGE_VERSION,
                nodes_seen, ranks, pf_topology_source());
        if (rows)
            text_table(out, nodes, count, rows, nrows);
        fprintf(out, "# findings: %d failure(s), %d warning(s)\n", fails, warns);
        text_findings(out, nodes, count, summary);
        fprintf(out, "# result: %s\n", fails ? "fail" : "pass");
    }
    free(rows);
}
