/* The transport NCCL chose, read from its own log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH).
 * The log's format is NCCL's, not a contract: what is not recognised stays "unknown". Pure: no NCCL. */
#ifndef FP_NCCL_LOG_H
#define FP_NCCL_LOG_H

#include <stddef.h>

typedef struct {
    char plugin[64];  /* external network plugin: its name, "none" (not found), or "unknown" */
    char net[64];     /* network NCCL assigned: "IB", "Socket", another plugin's name, or "unknown" */
    char gdr[64];     /* GPUDirect RDMA: "on", "off" or "unknown" */
    int p2p, shm, net_links, other; /* channel connections seen, by transport */
    int lines;        /* lines read */
} fp_nccl_transport_t;

void fp_nccl_transport_init(fp_nccl_transport_t *t);
/* Before NCCL's first call: unless the user set NCCL_DEBUG, asks NCCL for its INFO log of INIT, NET
 * and GRAPH in a file of ours (path, removed after reading); with the user's NCCL_DEBUG_FILE, reads
 * that one (%h and %p expanded). Returns 1 with path set when there is a log to read, else 0 with
 * the reason in path. */
int fp_nccl_log_prepare(char *path, size_t len, int *ours);
/* One line of NCCL's log. */
void fp_nccl_log_line(fp_nccl_transport_t *t, const char *line);
/* Every line of a file; FP_OK, or FP_ERR when it cannot be read. NCCL WARN lines are copied to warn
 * (NULL: dropped), since the log file takes them off standard error. */
int fp_nccl_log_file(fp_nccl_transport_t *t, const char *path, void *warn);
/* "network Socket (plugin: none), GPUDirect RDMA off, connections: 2 P2P, 0 SHM, 0 NET". */
void fp_nccl_transport_text(const fp_nccl_transport_t *t, char *out, size_t len);

#endif
