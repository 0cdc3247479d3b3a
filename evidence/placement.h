/* Where each rank ran: host, CPU affinity, the CPU and NUMA node at the start and end of the
 * sweep, GPU and NIC. Gathered to rank 0 for the header and the end record. */
#ifndef FP_PLACEMENT_H
#define FP_PLACEMENT_H

#include <stddef.h>

#include "fp.h"

#define FP_CPU_LIST_MAX 512 /* a longer affinity list ends in "..." */
#define FP_NIC_UNKNOWN "unknown"

/* One rank's placement; a fixed size so that a gather is bounded. -1: not known. */
typedef struct fp_place {
    char host[MPI_MAX_PROCESSOR_NAME + 1];
    char cpus[FP_CPU_LIST_MAX]; /* affinity, "0-3,8"; "unknown" when it cannot be read */
    int cpu_start, numa_start;
    int cpu_end, numa_end;
    char gpu[64]; /* PCI bus id; empty when this rank uses no GPU */
    char nic[64]; /* FP_NIC_UNKNOWN unless something says which */
} fp_place_t;

/* The per-rank array on rank 0 (NULL elsewhere), and whether the end was recorded. */
typedef struct fp_placement {
    fp_place_t *ranks;
    int nranks;
    int ended;
} fp_placement_t;

/* Collective over comm: every rank's placement at the start of the sweep, to rank 0. */
int fp_placement_start(fp_placement_t *p, MPI_Comm comm);
/* Collective over comm: every rank's CPU and NUMA node at the end of the sweep, to rank 0. */
int fp_placement_end(fp_placement_t *p, MPI_Comm comm);
void fp_placement_release(fp_placement_t *p);

/* "0-3,8" from a CPU set of setsize bytes; "..." ends a list that does not fit len. */
void fp_cpu_list(const void *set, size_t setsize, char *out, size_t len);
/* NUMA node of a CPU from /sys (cpuN/nodeM), or -1. */
int fp_cpu_numa_node(int cpu);

#endif
