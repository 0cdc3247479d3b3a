/* The topology's model (topology.h): switches, nodes and NICs added and looked up by name, the
 * parent chain walked. The importers and the reader build on it. */
#include "topology.h"

#include <stdlib.h>
#include <string.h>

void fp_topology_free(fp_topology_t *t)
{
    free(t->sw);
    free(t->node);
    free(t->nic);
    fp_name_index_free(&t->node_index);
    memset(t, 0, sizeof *t);
}

static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return 0;
    size_t want = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, want * size);
    if (!p)
        return -1;
    *items = p;
    *cap = want;
    return 0;
}

int fp_topo_find_switch(const fp_topology_t *t, const char *name)
{
    for (size_t i = 0; i < t->nsw; i++)
        if (strcmp(t->sw[i].name, name) == 0)
            return (int)i;
    return -1;
}

int fp_topo_add_switch(fp_topology_t *t, const char *name, char *err, size_t errlen)
{
    int at = fp_topo_find_switch(t, name);
    if (at >= 0)
        return at;
    if (strlen(name) >= FP_TOPO_NAME) {
        snprintf(err, errlen, "switch name '%.40s...' longer than %d characters", name, FP_TOPO_NAME - 1);
        return -1;
    }
    if (grow((void **)&t->sw, &t->capsw, t->nsw, sizeof *t->sw)) {
        snprintf(err, errlen, "out of memory for %zu switches", t->nsw + 1);
        return -1;
    }
    fp_topo_switch_t *s = &t->sw[t->nsw];
    memset(s, 0, sizeof *s);
    strcpy(s->name, name);
    s->parent = -1;
    return (int)t->nsw++;
}

static const char *node_name(const void *items, size_t i)
{
    return ((const fp_topo_node_t *)items)[i].name;
}

static int node_index(const fp_topology_t *t, const char *node)
{
    return fp_name_index_find(&t->node_index, t->node, node_name, node);
}

int fp_topology_switch_of(const fp_topology_t *t, const char *node)
{
    int i = node_index(t, node);
    return i < 0 ? -1 : t->node[i].sw;
}

int fp_topo_add_node(fp_topology_t *t, const char *name, int sw, char *err, size_t errlen)
{
    int was = fp_topology_switch_of(t, name);
    if (was >= 0 && was != sw) {
        snprintf(err, errlen, "node '%s' hangs from two switches, '%s' and '%s'", name, t->sw[was].name,
                 t->sw[sw].name);
        return -1;
    }
    if (was >= 0)
        return 0;
    if (strlen(name) >= FP_TOPO_NAME) {
        snprintf(err, errlen, "node name '%.40s...' longer than %d characters", name, FP_TOPO_NAME - 1);
        return -1;
    }
    if (t->nnode >= FP_TOPO_MAX_NODES) {
        snprintf(err, errlen, "more than %d nodes", FP_TOPO_MAX_NODES);
        return -1;
    }
    if (grow((void **)&t->node, &t->capnode, t->nnode, sizeof *t->node)) {
        snprintf(err, errlen, "out of memory for %zu nodes", t->nnode + 1);
        return -1;
    }
    strcpy(t->node[t->nnode].name, name);
    t->node[t->nnode++].sw = sw;
    if (fp_name_index_add(&t->node_index, t->node, t->nnode, node_name)) {
        snprintf(err, errlen, "out of memory for the index of %zu nodes", t->nnode);
        return -1;
    }
    return 0;
}

int fp_topo_add_nic(fp_topology_t *t, const char *node, const char *nic, const char *rail, char *err, size_t errlen)
{
    if (strlen(node) >= FP_TOPO_NAME || strlen(nic) >= FP_TOPO_NAME || strlen(rail) >= FP_TOPO_NAME) {
        snprintf(err, errlen, "NIC '%.40s:%.40s' or its rail longer than %d characters", node, nic, FP_TOPO_NAME - 1);
        return -1;
    }
    if (grow((void **)&t->nic, &t->capnic, t->nnic, sizeof *t->nic)) {
        snprintf(err, errlen, "out of memory for %zu NICs", t->nnic + 1);
        return -1;
    }
    fp_topo_nic_t *n = &t->nic[t->nnic++];
    strcpy(n->node, node);
    strcpy(n->nic, nic);
    strcpy(n->rail, rail);
    return 0;
}

int fp_topology_depth(const fp_topology_t *t, int sw)
{
    int depth = 0;
    for (int s = sw; s >= 0 && t->sw[s].parent >= 0 && depth <= (int)t->nsw; s = t->sw[s].parent)
        depth++;
    return depth;
}

int fp_topo_check_cycles(const fp_topology_t *t, char *err, size_t errlen)
{
    for (size_t i = 0; i < t->nsw; i++) {
        size_t steps = 0;
        for (int s = t->sw[i].parent; s >= 0; s = t->sw[s].parent)
            if (++steps > t->nsw || s == (int)i) {
                snprintf(err, errlen, "switch '%s' is its own ancestor (its parents run in a circle)", t->sw[i].name);
                return -1;
            }
    }
    return 0;
}

