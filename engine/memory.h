/* Buffer layer: one ops table entry per memory kind. */
#ifndef FP_MEMORY_H
#define FP_MEMORY_H

#include <stddef.h>

#include "fp.h"

typedef struct fp_mem_ops {
    const char *name; /* "host" */
    char letter;      /* placement letter: 'H' */
    int on_device;    /* MPI must be CUDA-aware to touch it directly */
    int in_host_memory; /* takes the host's memory: host limits (MemAvailable, cgroup, ulimit) bind */
    int needs_cuda;   /* exists only in a build with CUDA, on a GPU the core chose */
    /* Returns FP_OK or FP_ERR with the call, size and library error recorded. */
    int (*alloc)(void **buffer, size_t bytes);
    void (*release)(void *buffer);
    /* Bytes this rank can still allocate of this kind (0: unknown). */
    size_t (*available)(void);
    /* Copies between this kind and host memory (validation, staging); outside timed regions. */
    int (*to_host)(void *host, const void *buffer, size_t bytes);
    int (*from_host)(void *buffer, const void *host, size_t bytes);
} fp_mem_ops_t;

/* Indexed by fp_mem_kind_t. Kinds that need CUDA come from cuda_device.c or, in a host-only
 * build, from cuda_none.c, whose alloc explains how to get them. */
extern const fp_mem_ops_t *const fp_mem_ops[FP_MEM_COUNT];
extern const fp_mem_ops_t fp_mem_host, fp_mem_pinned, fp_mem_cuda, fp_mem_managed;

/* Placement letter -> kind; FP_MEM_COUNT when unknown. */
fp_mem_kind_t fp_mem_kind_of(char letter);

/* Bytes of memory this host can still give (MemAvailable), 0 when unknown. */
size_t fp_mem_host_available(void);
/* Host memory one of local_ranks ranks may still allocate: the smallest of MemAvailable and the
 * cgroup's memory.max - memory.current (shared by the local ranks), and this process's own
 * ulimit -v / ulimit -d headroom. *which names the limit that binds. 0 when none is known. */
size_t fp_mem_host_limit(int local_ranks, const char **which);

#endif
