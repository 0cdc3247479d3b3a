/* Network interfaces and RDMA ports as sysfs describes them, and their byte counters.
 * No MPI here: the preflight program and the path evidence of the benchmarks both use it.
 *
 * Use:  fp_nic_list(sys_root, &list)            once (NULL root: "/sys")
 *       fp_nic_snapshot(&list, &before) ... fp_nic_snapshot(&list, &after)
 *       fp_nic_delta(&list, &before, &after, deltas)   per NIC: bytes sent and received
 *       list.nics[i].line_rate_bps                    line rate, 0 when unknown
 * Units: netdev statistics/{tx,rx}_bytes count bytes (64-bit); RDMA port_{xmit,rcv}_data count
 * 4-byte words and may be 32-bit counters that stop at 2^32-1: a reading at that value is unknown,
 * never zero. An RDMA port with an Ethernet netdev (RoCE) names it in `netdev`: the two entries
 * may see the same wire, so callers must not add them up. */
#ifndef FP_SYSFS_NET_H
#define FP_SYSFS_NET_H

#include <stddef.h>
#include <stdint.h>

typedef enum { FP_NIC_NETDEV, FP_NIC_RDMA } fp_nic_kind_t;

#define FP_NIC_PATH_MAX 512

typedef struct {
    fp_nic_kind_t kind;
    char name[80];        /* "eth0", or "mlx5_0:1" for an RDMA port */
    char device[64];      /* "eth0" or "mlx5_0" */
    int port;             /* RDMA port number; 0 for a netdev */
    double line_rate_bps; /* bits/s; 0: unknown (speed -1 or absent, no rate file) or virtual */
    int is_virtual;       /* no device behind it (/sys/devices/virtual/net: lo, veth, bond, VLAN,
                           * bridge; an RDMA port without a PCI function): its nominal speed is no
                           * line rate */
    long mtu;             /* netdev MTU in bytes; -1: unknown or RDMA */
    char state[32];       /* netdev operstate ("up"), RDMA state without its number ("ACTIVE") */
    char phys_state[32];  /* RDMA ("LinkUp"); empty for a netdev */
    char link_layer[32];  /* RDMA ("InfiniBand", "Ethernet"); empty for a netdev */
    char rate_text[64];   /* RDMA rate as sysfs writes it ("400 Gb/sec (4X NDR)") */
    char fw_ver[64];      /* RDMA firmware; empty for a netdev */
    char driver[64];      /* name of the device/driver link; empty when virtual */
    char netdev[64];      /* RDMA: the port's netdev (RoCE, IPoIB) when sysfs names one */
    char bus_id[32];      /* PCI address of the device ("0000:03:00.0"); empty when none */
    char pci_path[FP_NIC_PATH_MAX]; /* resolved sysfs directory of that PCI function */
    int extended;         /* 1: 64-bit counters; 0: RDMA counters that may be 32-bit */
    int words;            /* counters count 4-byte words (RDMA) */
    char tx_path[FP_NIC_PATH_MAX], rx_path[FP_NIC_PATH_MAX]; /* empty: no counter */
} fp_nic_t;

typedef struct {
    fp_nic_t *nics;
    size_t count;
} fp_nic_list_t;

/* Lists the entries of class/net, then every port of class/infiniband, under sys_root (NULL: "/sys").
 * Missing directories give an empty list, not an error. FP_OK, or FP_ERR (out of memory). */
int fp_nic_list(const char *sys_root, fp_nic_list_t *list);
void fp_nic_list_free(fp_nic_list_t *list);
/* Index of the NIC called name ("eth0", "mlx5_0:1", or "mlx5_0" for its first port), or -1. */
int fp_nic_find(const fp_nic_list_t *list, const char *name);

/* A raw counter reading: known 0 when the file is missing or unreadable. */
typedef struct {
    uint64_t value;
    int known;
} fp_counter_t;

typedef struct {
    fp_counter_t tx, rx; /* raw, in the counter's own unit */
} fp_nic_reading_t;

typedef struct {
    fp_nic_reading_t *readings; /* one per NIC of the list, same order */
    size_t count;
    int *fds;                   /* tx, rx per NIC, held open (-1: no counter); NULL before the first read */
} fp_nic_snapshot_t;

/* Reads every counter of the list into snap, which starts as {0}. The first call opens the
 * counter files and holds them (until fp_nic_snapshot_free); each later read is a pread from
 * offset 0, which sysfs renders anew: a system call per counter, no path lookup, no allocation.
 * FP_OK or FP_ERR (out of memory). */
int fp_nic_snapshot(const fp_nic_list_t *list, fp_nic_snapshot_t *snap);
void fp_nic_snapshot_free(fp_nic_snapshot_t *snap);

/* Bytes between two readings of one counter. Unknown (returns 0, *bytes = 0) when either reading
 * is unknown, the counter went backwards (reset), or a possibly 32-bit counter reads 2^32-1
 * (saturated). words: multiply by 4. Returns 1 when known. */
int fp_counter_delta(fp_counter_t before, fp_counter_t after, int extended, int words, uint64_t *bytes);

typedef struct {
    uint64_t tx_bytes, rx_bytes;
    int tx_known, rx_known;
} fp_nic_delta_t;

/* deltas[i] for list->nics[i]. FP_OK, or FP_ERR when the snapshots do not match the list. */
int fp_nic_delta(const fp_nic_list_t *list, const fp_nic_snapshot_t *before,
                 const fp_nic_snapshot_t *after, fp_nic_delta_t *deltas);

/* "400 Gb/sec (4X NDR)" -> 4e11 bits/s; 0 when it does not parse. */
double fp_rdma_rate_parse(const char *text);
/* Reads a whole small file into buf (trailing newline removed). FP_OK or FP_ERR. */
int fp_sysfs_read(const char *path, char *buf, size_t len);

#endif
