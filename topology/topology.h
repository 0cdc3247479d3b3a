/* A fabric's topology: which switch each node hangs from, each switch's parent, and where known
 * the rail of each NIC. Read from fabperf's own format, Slurm's topology.conf (the tree plugin's
 * SwitchName= lines) or ibnetdiscover's output; the format is recognized from the text. No MPI.
 *
 * fabperf's format, one statement per line, '#' starts a comment:
 *     switch spine1
 *     switch leaf1 parent=spine1
 *     node n[01-04] switch=leaf1
 *     nic n01:mlx5_0 rail=0
 * A switch is declared before it is named as a parent or a node's switch; hostlists as Slurm's. */
#ifndef FP_TOPOLOGY_H
#define FP_TOPOLOGY_H

#include <stddef.h>
#include <stdio.h>

#include "name_index.h"

#define FP_TOPO_NAME 96
#define FP_TOPO_MAX_NODES 200000 /* nodes one topology may name */

typedef struct fp_topo_switch {
    char name[FP_TOPO_NAME];
    int parent; /* index of the parent switch, -1 at the top */
} fp_topo_switch_t;

typedef struct fp_topo_node {
    char name[FP_TOPO_NAME];
    int sw; /* index of its switch */
} fp_topo_node_t;

typedef struct fp_topo_nic {
    char node[FP_TOPO_NAME], nic[FP_TOPO_NAME], rail[FP_TOPO_NAME];
} fp_topo_nic_t;

typedef struct fp_topology {
    const char *format; /* "fabperf", "slurm" or "ibnetdiscover" */
    fp_topo_switch_t *sw;
    size_t nsw, capsw;
    fp_topo_node_t *node;
    size_t nnode, capnode;
    fp_name_index_t node_index; /* nodes by name (topo_model.c) */
    fp_topo_nic_t *nic;
    size_t nnic, capnic;
} fp_topology_t;

/* Reads path into t (zeroed first). 0, or -1 with err as one line "PATH:LINE: problem" (or "PATH:
 * reason" when it cannot be read). Free t with fp_topology_free either way. */
int fp_topology_read(const char *path, fp_topology_t *t, char *err, size_t errlen);
/* The same from text; name stands for the file in errors. */
int fp_topology_parse(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen);
void fp_topology_free(fp_topology_t *t);

/* Index of node's switch, or -1 when the node is not in the topology. */
int fp_topology_switch_of(const fp_topology_t *t, const char *node);
/* Levels below the top: 0 for a switch without a parent. */
int fp_topology_depth(const fp_topology_t *t, int sw);

/* The model (topo_model.c), for the importers: add or look up by name; -1 out of
 * memory (err set). */
int fp_topo_add_switch(fp_topology_t *t, const char *name, char *err, size_t errlen);
int fp_topo_find_switch(const fp_topology_t *t, const char *name);
/* Node on switch sw; a node already on another switch is an error (err says which). 0 or -1. */
int fp_topo_add_node(fp_topology_t *t, const char *name, int sw, char *err, size_t errlen);
int fp_topo_add_nic(fp_topology_t *t, const char *node, const char *nic, const char *rail, char *err, size_t errlen);
/* A parent chain that comes back to itself: 0, or -1 with err naming a switch of the cycle. */
int fp_topo_check_cycles(const fp_topology_t *t, char *err, size_t errlen);

int fp_topo_parse_slurm(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen);
int fp_topo_parse_ibnet(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen);
int fp_topo_parse_fabperf(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen);

#endif
