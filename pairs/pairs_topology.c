/* --topology FILE for the sweeps: every rank reads it (a bad file is refused everywhere alike);
 * rank 0 places the job's hosts on its switches and says so in the header. A host the topology
 * does not name gets a switch of its own, named in the header, never guessed into another. */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "pairs.h"

#define HOSTS_SHOWN 4 /* host names listed per switch in the text header */

int fp_pairs_topology_read(fp_run_t *run, char *err, size_t errlen)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    const char *path = run->params.topology;
    if (!path)
        return FP_OK;
    char why[512];
    if (fp_topology_read(path, &pc->topology, why, sizeof why) != 0) {
        snprintf(err, errlen, "--topology: %s", why);
        return FP_ERR;
    }
    pc->has_topology = 1;
    pc->meta.topology_file = path;
    return FP_OK;
}

/* Switch of host, adding one of its own ("HOST (not in the topology)") when the file lacks it. */
static int host_switch(fp_topology_t *t, const char *host, int *missing)
{
    int s = fp_topology_switch_of(t, host);
    if (s >= 0)
        return s;
    char name[FP_TOPO_NAME], err[160];
    snprintf(name, sizeof name, "%.60s (not in the topology)", host);
    s = fp_topo_add_switch(t, name, err, sizeof err);
    if (s >= 0 && fp_topo_add_node(t, host, s, err, sizeof err) == 0)
        ++*missing;
    return s;
}

static const char *host_name(const void *items, size_t i)
{
    return ((const char *const *)items)[i];
}

/* first[r]: rank r is the first rank of its host (a host counts once); by an index of the names,
 * so that 10,000 ranks cost no 10^8 comparisons. 0, or -1 out of memory. */
static int first_of_hosts(const char *const *hosts, int n, unsigned char *first)
{
    fp_name_index_t seen = {0};
    int rc = 0;
    for (int r = 0; r < n && rc == 0; r++) {
        first[r] = fp_name_index_find(&seen, hosts, host_name, hosts[r]) < 0;
        rc = fp_name_index_add(&seen, hosts, (size_t)r + 1, host_name);
    }
    fp_name_index_free(&seen);
    return rc;
}

/* Rank 0, with hosts[r] the host of rank r: switch_of[r], and the header's line. */
int fp_pairs_topology_place(fp_run_t *run, const char *const *hosts, int n)
{
    fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (!pc->has_topology)
        return FP_OK;
    fp_topology_t *t = &pc->topology;
    fp_pairs_meta_t *m = &pc->meta;
    m->topology = t;
    m->listed_switches = t->nsw; /* those after are the unlisted hosts' own */
    m->hosts = hosts;
    m->nranks = n;
    pc->switch_of = malloc((size_t)n * sizeof *pc->switch_of);
    if (!pc->switch_of)
        return fp_fail("--topology: out of memory placing %d ranks", n);
    m->switch_of = pc->switch_of;
    pc->first_of_host = malloc((size_t)n + 1);
    if (!pc->first_of_host || first_of_hosts(hosts, n, pc->first_of_host))
        return fp_fail("--topology: out of memory indexing %d host names", n);
    m->first_of_host = pc->first_of_host;
    const unsigned char *first = pc->first_of_host;
    for (int r = 0; r < n; r++)
        if ((pc->switch_of[r] = host_switch(t, hosts[r], &m->not_listed)) < 0)
            return fp_fail("--topology: out of memory placing host %s", hosts[r]);
    size_t cap = 512 + (size_t)n * (MPI_MAX_PROCESSOR_NAME + 8) + t->nsw * (2 * FP_TOPO_NAME + 64), tu = 0;
    int *hosts_on = calloc(t->nsw + 1, sizeof *hosts_on);
    char *text = malloc(cap);
    if (!text || !hosts_on) {
        free(text);
        free(hosts_on);
        return fp_fail("--topology: out of memory for the header");
    }
    int nhosts = 0;
    size_t used = 0;
    for (int r = 0; r < n; r++)
        if (first[r])
            nhosts++, used += hosts_on[pc->switch_of[r]]++ == 0;
    tu += (size_t)snprintf(text, cap, "%s (%s: %zu switches, %zu nodes); this job's %d host(s) on %zu switch(es):",
                           run->params.topology, t->format, m->listed_switches, t->nnode - (size_t)m->not_listed,
                           nhosts, used);
    int first_switch = 1;
    for (size_t s = 0; s < t->nsw; s++) {
        if (!hosts_on[s])
            continue;
        int parent = t->sw[s].parent, shown = 0;
        if (s >= m->listed_switches) { /* an unlisted host's own */
            for (int r = 0; r < n; r++)
                if (first[r] && pc->switch_of[r] == (int)s && !shown++)
                    tu += (size_t)snprintf(text + tu, cap - tu, "%s %s (not in the topology: a switch of its own)",
                                           first_switch ? "" : ";", hosts[r]);
            first_switch = 0;
            continue;
        }
        tu += (size_t)snprintf(text + tu, cap - tu, "%s %s%s%s (", first_switch ? "" : ";", t->sw[s].name,
                               parent >= 0 ? " under " : "", parent >= 0 ? t->sw[parent].name : "");
        for (int r = 0; r < n; r++)
            if (first[r] && pc->switch_of[r] == (int)s && shown++ < HOSTS_SHOWN)
                tu += (size_t)snprintf(text + tu, cap - tu, "%s%s", shown > 1 ? ", " : "", hosts[r]);
        if (shown > HOSTS_SHOWN)
            tu += (size_t)snprintf(text + tu, cap - tu, " and %d more", shown - HOSTS_SHOWN);
        tu += (size_t)snprintf(text + tu, cap - tu, ")");
        first_switch = 0;
    }
    free(hosts_on);
    m->topology_text = text;
    return FP_OK;
}

void fp_pairs_topology_json(FILE *out, const fp_pairs_meta_t *m)
{
    const fp_topology_t *t = m->topology;
    fputs(",\"topology\":{\"file\":", out);
    fp_json_string(out, m->topology_file);
    fprintf(out, ",\"format\":\"%s\",\"switches\":%zu,\"nodes\":%zu,\"job\":[", t->format, m->listed_switches,
            t->nnode - (size_t)m->not_listed);
    int first_switch = 1;
    for (size_t s = 0; s < t->nsw; s++) {
        int shown = 0;
        for (int r = 0; r < m->nranks; r++) {
            if (m->switch_of[r] != (int)s || !m->first_of_host[r])
                continue;
            if (!shown++) {
                fputs(first_switch ? "{\"switch\":" : ",{\"switch\":", out);
                fp_json_string(out, t->sw[s].name);
                fputs(",\"parent\":", out);
                fp_json_string_or_null(out, t->sw[s].parent >= 0 ? t->sw[t->sw[s].parent].name : NULL);
                fprintf(out, ",\"listed\":%s,\"hosts\":[", s < m->listed_switches ? "true" : "false");
                first_switch = 0;
            } else {
                fputc(',', out);
            }
            fp_json_string(out, m->hosts[r]);
        }
        if (shown)
            fputs("]}", out);
    }
    fprintf(out, "],\"not_in_topology\":%d}", m->not_listed);
}

void fp_pairs_topology_close(fp_pairs_ctx_t *pc)
{
    fp_topology_free(&pc->topology);
    free(pc->switch_of);
    free(pc->first_of_host);
    free(pc->meta.topology_text);
}
