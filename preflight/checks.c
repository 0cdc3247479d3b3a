/* Findings: checks within one node, and facts that must agree between nodes and do not. */
#include <stdlib.h>
#include <string.h>

#include "preflight.h"

static int is(const pf_node_t *node, const char *key, const char *value)
{
    const char *v = pf_fact_value(node, "node", key);
    return v && strcmp(v, value) == 0;
}

void pf_check_node(pf_node_t *node)
{
    int rdma = !is(node, "rdma ports", "none") && pf_fact_value(node, "node", "rdma ports");
    const char *gpus = pf_fact_value(node, "node", "gpus");
    int peermem = is(node, "module nvidia_peermem", "loaded") || is(node, "module nv_peer_mem", "loaded");
    /* Without RDMA ports there is nothing for GPUDirect RDMA to use: no finding then. */
    if (rdma && gpus && atoi(gpus) > 0 && !peermem)
        pf_finding(node, PF_FAIL, "gpu", "GPUs and RDMA ports but neither nvidia_peermem nor nv_peer_mem is "
                   "loaded: GPUDirect RDMA is off and GPU traffic is staged through host memory; fix: "
                   "modprobe nvidia_peermem (or DMA-BUF: NCCL >= 2.19 with the open GPU kernel modules)");
    const char *memlock = pf_fact_value(node, "node", "memlock");
    if (rdma && memlock && strcmp(memlock, "unlimited") != 0 && strcmp(memlock, "unknown") != 0)
        pf_finding(node, PF_FAIL, "memlock", "locked-memory limit is %s, not unlimited: RDMA registration of "
                   "large buffers fails or falls back; fix: ulimit -l unlimited (memlock in "
                   "/etc/security/limits.conf, and the launcher or slurmd must pass it on)", memlock);
}

static void add_finding(pf_node_t *summary, int level, const char *node, const char *device, const char *text)
{
    pf_finding(summary, level, device, "%s", text);
    if (summary->nfindings)
        snprintf(summary->findings[summary->nfindings - 1].node, sizeof summary->findings[0].node, "%s", node);
}

/* The value most nodes hold; on a tie (*tie set) the highest number for numeric facts, where the
 * lower ones are the odd ones out, or the value known to be good; else none (NULL): every node is
 * then named with its value. */
static const char *reference_value(const char **values, int count, int numeric, const char *good, int *tie_out)
{
    const char *best = NULL;
    int best_count = 0, tie = 0;
    for (int i = 0; i < count; i++) {
        if (!values[i])
            continue;
        int n = 0;
        for (int j = 0; j < count; j++)
            n += values[j] && strcmp(values[i], values[j]) == 0;
        if (n > best_count) {
            best = values[i];
            best_count = n;
            tie = 0;
        } else if (n == best_count && strcmp(values[i], best) != 0) {
            tie = 1;
        }
    }
    *tie_out = tie && numeric;
    if (!tie)
        return best;
    for (int i = 0; !numeric && good[0] && i < count; i++)
        if (values[i] && strcmp(values[i], good) == 0)
            return values[i];
    if (!numeric)
        return NULL;
    for (int i = 0; i < count; i++)
        if (values[i] && strtod(values[i], NULL) > strtod(best, NULL))
            best = values[i];
    return best;
}

/* Names of up to three nodes that hold value, comma-separated. */
static void holders(const pf_node_t *nodes, const char **values, int count, const char *value, char *out, size_t len)
{
    int shown = 0;
    out[0] = '\0';
    for (int i = 0; i < count && shown < 3; i++)
        if (values[i] && strcmp(values[i], value) == 0) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", shown++ ? ", " : "", nodes[i].node);
        }
}

/* A compared value as its first holder lists it (a set's own order, not the sorted one). */
static const char *as_listed(const pf_node_t *nodes, const char **values, int count, const pf_fact_t *fact,
                             const char *value)
{
    for (int i = 0; i < count; i++)
        if (values[i] && strcmp(values[i], value) == 0)
            return pf_fact_value(&nodes[i], fact->device, fact->key);
    return value;
}

static void compare_fact(const pf_node_t *nodes, int count, const pf_fact_t *fact, pf_node_t *summary)
{
    const char **values = calloc((size_t)count, sizeof *values);
    char(*sets)[sizeof fact->value] = calloc((size_t)count, sizeof *sets);
    if (!values || !sets) {
        free(values);
        free(sets);
        return;
    }
    for (int i = 0; i < count; i++)
        values[i] = pf_fact_compared(&nodes[i], fact->device, fact->key, sets[i], sizeof sets[i]);
    int tie = 0;
    const char *ref = reference_value(values, count, fact->numeric, fact->good, &tie);
    int level = fact->same == PF_SAME_FAIL ? PF_FAIL : PF_WARN;
    for (int i = 0; i < count; i++) {
        if (!values[i] || (ref && (strcmp(values[i], ref) == 0 ||
                                   (tie && strtod(values[i], NULL) >= strtod(ref, NULL)))))
            continue;
        char others[200], text[480];
        int j = 0;
        while (j < count && (!values[j] || strcmp(values[j], values[i]) == 0))
            j++;
        if (j == count)
            continue; /* every node holds it: numeric ties of one text */
        const char *there = ref ? ref : values[j];
        holders(nodes, values, count, there, others, sizeof others);
        snprintf(text, sizeof text, "%s is '%s' here but '%s' on %s; fix: %s", fact->key,
                 pf_fact_value(&nodes[i], fact->device, fact->key), as_listed(nodes, values, count, fact, there),
                 others, fact->fix[0] ? fact->fix : "make the nodes alike");
        add_finding(summary, level, nodes[i].node, fact->device, text);
    }
    free(values);
    free(sets);
}

static int seen_before(const pf_node_t *nodes, int upto, const pf_fact_t *fact)
{
    for (int i = 0; i < upto; i++)
        if (pf_fact_value(&nodes[i], fact->device, fact->key))
            return 1;
    return 0;
}

void pf_compare_nodes(pf_node_t *nodes, int count, pf_node_t *summary)
{
    for (int i = 0; i < count; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(nodes[i].node, nodes[j].node) == 0) {
                char text[300];
                snprintf(text, sizeof text, "two ranks on one node: facts are compared per rank; fix: start "
                         "one rank per node (mpirun --map-by node, srun --ntasks-per-node=1)");
                add_finding(summary, PF_WARN, nodes[i].node, "node", text);
            }
    for (int n = 0; n < count; n++)
        for (size_t f = 0; f < nodes[n].nfacts; f++) {
            const pf_fact_t *fact = &nodes[n].facts[f];
            if (fact->same != PF_SAME_ANY && !seen_before(nodes, n, fact))
                compare_fact(nodes, count, fact, summary);
        }
}
