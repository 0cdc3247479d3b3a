/* Link health: the error and congestion counters a node's physical NICs expose in sysfs, read
 * around each size (by the path evidence, outside the timed region) and as a snapshot (preflight).
 * A counter the kernel does not expose is absent, never read as zero. No MPI here.
 *
 * Use:  fp_link_watch_open(root, &nics, &w)        once: which counter files exist
 *       fp_link_watch_read(&w, 0) ... fp_link_watch_read(&w, 1)   before and after a size
 *       w.files[i].delta, w.files[i].moved                         what moved in between */
#ifndef FP_LINK_HEALTH_H
#define FP_LINK_HEALTH_H

#include <stddef.h>
#include <stdint.h>

#include "sysfs_net.h"

typedef enum {
    FP_LINK_ERROR,      /* the link lost or corrupted data: a finding when it moves during a size */
    FP_LINK_CONGESTION, /* congestion control or drops at the host: said, no finding */
} fp_link_class_t;

typedef struct {
    const char *file, *label;
    fp_link_class_t cls;
    unsigned long long warn_at; /* preflight's threshold since the counters were cleared; 0: not one
                                 * of preflight's (it moves under normal load) */
} fp_link_counter_t;

/* InfiniBand and RoCE port counters (ports/P/counters/), the port's hw_counters/ (mlx5 names;
 * others' differ and are absent), and an Ethernet netdev's (statistics/, carrier_changes). */
extern const fp_link_counter_t fp_link_port_counters[], fp_link_hw_counters[], fp_link_netdev_counters[];
extern const size_t fp_link_port_count, fp_link_hw_count, fp_link_netdev_count;

/* The counters of one NIC, relative to the sys root: its directory and table; 0 for a virtual NIC
 * (lo, veth, bridge: no link of its own). */
int fp_link_tables(const fp_nic_t *nic, char dirs[2][300], const fp_link_counter_t *tables[2], size_t counts[2]);

typedef struct {
    int nic;                          /* index in the NIC list */
    const fp_link_counter_t *counter;
    char path[FP_NIC_PATH_MAX + 64];
    int fd;                           /* held open: each read is a pread from offset 0 */
    uint64_t value[2];                /* before, after */
    int known[2];
    uint64_t delta;                   /* after - before when moved */
    int moved;                        /* both known and after > before */
} fp_link_file_t;

typedef struct {
    fp_link_file_t *files;
    size_t count;
} fp_link_watch_t;

/* The counter files that exist under root (NULL: "/sys") for the physical NICs of list, each held
 * open until fp_link_watch_free. FP_OK or FP_ERR (out of memory). */
int fp_link_watch_open(const char *root, const fp_nic_list_t *list, fp_link_watch_t *w);
void fp_link_watch_free(fp_link_watch_t *w);
/* Reads every watched file into value[which] (0 before, 1 after); after the second, the deltas. */
void fp_link_watch_read(fp_link_watch_t *w, int which);
/* One line: what is read per NIC and what is absent, e.g. "mlx5_0:1 8 port, 9 hw counters; ens1f0
 * 10 netdev counters; pause frames: not in sysfs (ethtool -S)"; "none: no physical NIC". */
void fp_link_watch_describe(const fp_link_watch_t *w, const fp_nic_list_t *list, char *out, size_t len);

#endif
