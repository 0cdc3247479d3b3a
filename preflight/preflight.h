/* fabperf_preflight: what each node holds, and what is known to break or slow a fabric. */
#ifndef PF_PREFLIGHT_H
#define PF_PREFLIGHT_H

#include <stddef.h>
#include <stdio.h>

#include "sysfs_net.h"

/* How a fact must agree between nodes. */
typedef enum {
    PF_SAME_ANY = 0, /* may differ (bus ids, counts of free pages) */
    PF_SAME_FAIL,    /* a difference is a failure (port rate, firmware, MTU, modules) */
    PF_SAME_WARN     /* a difference is a warning (governor, GPU model) */
} pf_same_t;

typedef enum { PF_WARN = 1, PF_FAIL = 2 } pf_level_t;

typedef struct {
    char device[48]; /* "node", "eth0", "mlx5_0:1", "gpu0" */
    char key[40];
    char value[320];
    int same;    /* pf_same_t */
    int numeric; /* on a tie between nodes, the lower value is the odd one */
    char fix[120];
    char good[24]; /* on a tie between nodes, the value known to be right ("loaded") */
    int set;       /* the value is a space-separated set: nodes agree whatever its order */
} pf_fact_t;

typedef struct {
    int level; /* pf_level_t */
    char node[64];
    char device[48];
    char text[480]; /* what is wrong; the fix */
} pf_finding_t;

/* One node's facts and findings (one rank per node). */
typedef struct {
    char node[64];
    pf_fact_t *facts;
    size_t nfacts, facts_cap;
    pf_finding_t *findings;
    size_t nfindings, findings_cap;
} pf_node_t;

/* Where a rank reads its node from. */
typedef struct {
    char sys_root[512];  /* plays /sys */
    char proc_root[512]; /* plays /proc */
    int local_rank;      /* within the node (MPI_COMM_TYPE_SHARED) */
    int default_roots;   /* both roots are the real ones: libraries may look for themselves */
} pf_where_t;

void pf_fact(pf_node_t *node, const char *device, const char *key, int same, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Marks the last fact numeric and gives the fix named in a difference finding. */
void pf_fact_fix(pf_node_t *node, int numeric, const char *fix);
/* Names the last fact's right value, which wins a tie between nodes. */
void pf_fact_good(pf_node_t *node, const char *good);
/* Marks the last fact a set of space-separated words (UCX's transports): order does not differ. */
void pf_fact_set(pf_node_t *node);
/* A set's words sorted, one space apart, into out: two listings of one set give one text. */
void pf_set_canonical(const char *value, char *out, size_t len);
void pf_finding(pf_node_t *node, int level, const char *device, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *pf_fact_value(const pf_node_t *node, const char *device, const char *key);
const pf_fact_t *pf_fact_find(const pf_node_t *node, const char *device, const char *key);
/* The value as nodes compare it: a set's canonical form (in buf), else the value; NULL when absent. */
const char *pf_fact_compared(const pf_node_t *node, const char *device, const char *key, char *buf, size_t len);
void pf_node_free(pf_node_t *node);

/* Reads ROOT/rel into buf (trailing newline removed). 0 on success, -1 otherwise. */
int pf_read(const char *root, const char *rel, char *buf, size_t len);
int pf_exists(const char *root, const char *rel);

/* Gatherers: each adds facts and local findings to node. */
void pf_gather_system(pf_node_t *node, const pf_where_t *where);
int pf_gather_nics(pf_node_t *node, const pf_where_t *where);
/* link_errors.c: a physical NIC's error counters as a fact, a warning at a threshold. */
void pf_link_errors(pf_node_t *node, const pf_where_t *where, const fp_nic_t *nic);

int pf_gather_gpus(pf_node_t *node, const pf_where_t *where);
void pf_gather_stack(pf_node_t *node, const pf_where_t *where);

/* PCIe relationship of two PCI functions as NCCL names it: PIX, PXB, PHB, NODE, SYS. From the
 * sysfs paths of the two functions; numa nodes -1 when unknown; nodes: NUMA nodes of the system. */
const char *pf_pci_class_sysfs(const char *path_a, const char *path_b, int numa_a, int numa_b,
                               int numa_nodes);
/* The same from hwloc's tree of the running machine; NULL when built without hwloc or the
 * devices are not in its tree. */
const char *pf_pci_class_hwloc(const char *bus_a, const char *bus_b);
const char *pf_topology_source(void);

/* An optional library as configure looks for it. */
typedef struct {
    const char *name, *header, *library, *package, *option; /* "UCX", "uct/api/uct.h", "uct", "libucx-dev", "ucx" */
} pf_library_t;
/* The row of a library not built, from configure's reason (FP_<NAME>_MISSING: header, library,
 * disabled): "not built: UCX headers not found (uct/api/uct.h; apt-get install libucx-dev, then
 * configure --with-ucx)". */
void pf_not_built(const pf_library_t *lib, const char *missing, char *out, size_t len);

/* Optional libraries, each behind its own file: a text summary or why there is none. */
void pf_libfabric_providers(char *out, size_t len);
void pf_ucx_resources(char *out, size_t len);
void pf_nccl_version(char *out, size_t len);

/* Checks across the facts of one node (RDMA with GPUs, locked memory). */
void pf_check_node(pf_node_t *node);

/* Rank 0: facts that must agree and do not, as findings naming the odd node. */
void pf_compare_nodes(pf_node_t *nodes, int count, pf_node_t *summary);

typedef enum { PF_FORMAT_TEXT, PF_FORMAT_JSON } pf_format_t;
void pf_render(FILE *out, pf_format_t format, const pf_node_t *nodes, int count,
               const pf_node_t *summary);

#endif
