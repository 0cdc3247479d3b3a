/* Link health as the node's own counters tell it: each physical NIC's error counters since they
 * were last cleared (boot, a driver reload, perfquery -R), a fact per NIC and a warning where one
 * reached its threshold. A counter the kernel does not expose is said to be absent, never read as
 * zero; virtual interfaces (lo, veth, bridges) have no link to err. sysfs keeps no port uptime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preflight.h"
#include "link_health.h"
#include "sysfs_net.h"

/* Reads the counters under dir (relative to the sys root) that have a threshold (the others move
 * under normal load: the benchmarks report them per size); the fact's text and the warning's text
 * (empty when none reached its threshold). Returns how many counters exist. */
static int read_counters(const char *root, const char *dir, const fp_link_counter_t *c, size_t n, char *fact,
                         size_t flen, char *warn, size_t wlen)
{
    int present = 0, nonzero = 0;
    fact[0] = warn[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (c[i].warn_at == 0)
            continue;
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
    char dirs[2][300], fact[400], warn[400];
    const fp_link_counter_t *tables[2];
    size_t counts[2];
    const char *root = where->sys_root[0] ? where->sys_root : "/sys";
    if (fp_link_tables(nic, dirs, tables, counts) == 0)
        return; /* virtual: no link of its own */
    read_counters(root, dirs[0], tables[0], counts[0], fact, sizeof fact, warn, sizeof warn);
    pf_fact(node, nic->name, "link errors", PF_SAME_ANY, "%s", fact);
    if (warn[0])
        pf_finding(node, PF_WARN, nic->name, "link errors since the counters were cleared: %s; fix: check the cable, "
                   "transceiver and switch port (%s), then clear the counters and watch whether they grow", warn,
                   nic->kind == FP_NIC_RDMA ? "mlxlink -d DEVICE -m; perfquery -x" : "ethtool -S IF; ip -s link");
}
