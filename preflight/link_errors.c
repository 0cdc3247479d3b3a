/* Link health as the node's own counters tell it: each physical NIC's error counters since they
 * were last cleared (boot, a driver reload, perfquery -R), a fact per NIC and a warning where one
 * reached its threshold. A counter the kernel does not expose is said to be absent, never read as
 * zero; virtual interfaces (lo, veth, bridges) have no link to err. sysfs keeps no port uptime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preflight.h"
#include "sysfs_net.h"

typedef struct {
    const char *file, *label;
    unsigned long long warn_at;
} counter_t;

/* InfiniBand and RoCE port counters (ports/P/counters/): a few symbol or receive errors a day are
 * normal on long copper; a link that went down or retrained, or a buffer overrun, is not. */
static const counter_t rdma_counters[] = {
    {"symbol_error", "symbol errors", 10},
    {"link_error_recovery", "link error recoveries", 1},
    {"link_downed", "link downed", 1},
    {"port_rcv_errors", "receive errors", 10},
    {"port_rcv_remote_physical_errors", "remote physical errors", 10},
    {"port_xmit_discards", "transmit discards", 100},
    {"excessive_buffer_overrun_errors", "buffer overruns", 1},
    {"local_link_integrity_errors", "link integrity errors", 1},
};

/* Ethernet netdev statistics (statistics/), and carrier_changes beside them: a link that came up
 * once at boot counts 1 or 2. */
static const counter_t netdev_counters[] = {
    {"statistics/rx_crc_errors", "CRC errors", 1},
    {"statistics/rx_frame_errors", "frame errors", 1},
    {"statistics/rx_errors", "receive errors", 10},
    {"statistics/tx_errors", "transmit errors", 10},
    {"carrier_changes", "carrier changes", 5},
};

/* Reads the counters under dir (relative to the sys root); the fact's text and the warning's
 * text (empty when none reached its threshold). Returns how many counters exist. */
static int read_counters(const char *root, const char *dir, const counter_t *c, size_t n, char *fact, size_t flen,
                         char *warn, size_t wlen)
{
    int present = 0, nonzero = 0;
    fact[0] = warn[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char rel[600], buf[64], *end;
        snprintf(rel, sizeof rel, "%s/%s", dir, c[i].file);
        if (pf_read(root, rel, buf, sizeof buf) != 0)
            continue;
        unsigned long long v = strtoull(buf, &end, 10);
        if (end == buf)
            continue;
        present++;
        if (v == 0)
            continue;
        size_t used = strlen(fact);
        snprintf(fact + used, flen - used, "%s%s %llu", nonzero++ ? ", " : "", c[i].label, v);
        if (v >= c[i].warn_at) {
            used = strlen(warn);
            snprintf(warn + used, wlen - used, "%s%s %llu (warn at %llu)", warn[0] ? ", " : "", c[i].label, v,
                     c[i].warn_at);
        }
    }
    if (!present)
        snprintf(fact, flen, "no error counters");
    else if (!nonzero)
        snprintf(fact, flen, "none (%d counters at 0)", present);
    return present;
}

void pf_link_errors(pf_node_t *node, const pf_where_t *where, const fp_nic_t *nic)
{
    char dir[300], fact[400], warn[400];
    const char *root = where->sys_root[0] ? where->sys_root : "/sys";
    if (nic->kind == FP_NIC_RDMA) {
        snprintf(dir, sizeof dir, "class/infiniband/%s/ports/%d/counters", nic->device, nic->port);
        read_counters(root, dir, rdma_counters, sizeof rdma_counters / sizeof *rdma_counters, fact, sizeof fact, warn,
                      sizeof warn);
    } else if (nic->bus_id[0]) {
        snprintf(dir, sizeof dir, "class/net/%s", nic->device);
        read_counters(root, dir, netdev_counters, sizeof netdev_counters / sizeof *netdev_counters, fact, sizeof fact,
                      warn, sizeof warn);
    } else {
        return; /* virtual: no link of its own */
    }
    pf_fact(node, nic->name, "link errors", PF_SAME_ANY, "%s", fact);
    if (warn[0])
        pf_finding(node, PF_WARN, nic->name, "link errors since the counters were cleared: %s; fix: check the cable, "
                   "transceiver and switch port (%s), then clear the counters and watch whether they grow", warn,
                   nic->kind == FP_NIC_RDMA ? "mlxlink -d DEVICE -m; perfquery -x" : "ethtool -S IF; ip -s link");
}
