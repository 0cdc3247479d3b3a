/* Link health counters: which exist for a node's physical NICs, and what moved between two reads. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "escape.h"
#include "link_health.h"

/* A few symbol or receive errors a day are normal on long copper; a link that went down or
 * retrained, or a buffer overrun, is not (preflight's thresholds). */
const fp_link_counter_t fp_link_port_counters[] = {
    {"symbol_error", "symbol errors", FP_LINK_ERROR, 10},
    {"link_error_recovery", "link error recoveries", FP_LINK_ERROR, 1},
    {"link_downed", "link downed", FP_LINK_ERROR, 1},
    {"port_rcv_errors", "receive errors", FP_LINK_ERROR, 10},
    {"port_rcv_remote_physical_errors", "remote physical errors", FP_LINK_ERROR, 10},
    {"port_xmit_discards", "transmit discards", FP_LINK_ERROR, 100},
    {"excessive_buffer_overrun_errors", "buffer overruns", FP_LINK_ERROR, 1},
    {"local_link_integrity_errors", "link integrity errors", FP_LINK_ERROR, 1},
};
const size_t fp_link_port_count = sizeof fp_link_port_counters / sizeof fp_link_port_counters[0];

/* mlx5's hw_counters: packets lost or retransmitted, and the congestion control of RoCE (CNPs,
 * ECN marks), which moves under any heavy load. */
const fp_link_counter_t fp_link_hw_counters[] = {
    {"out_of_buffer", "out-of-buffer drops", FP_LINK_ERROR, 0},
    {"out_of_sequence", "out-of-sequence packets", FP_LINK_ERROR, 0},
    {"packet_seq_err", "packet sequence errors", FP_LINK_ERROR, 0},
    {"local_ack_timeout_err", "ack timeouts (retransmits)", FP_LINK_ERROR, 0},
    {"implied_nak_seq_err", "implied NAKs", FP_LINK_ERROR, 0},
    {"duplicate_request", "duplicate requests", FP_LINK_ERROR, 0},
    {"np_cnp_sent", "CNPs sent", FP_LINK_CONGESTION, 0},
    {"rp_cnp_handled", "CNPs handled", FP_LINK_CONGESTION, 0},
    {"np_ecn_marked_roce_packets", "ECN-marked packets", FP_LINK_CONGESTION, 0},
};
const size_t fp_link_hw_count = sizeof fp_link_hw_counters / sizeof fp_link_hw_counters[0];

/* Ethernet: a link that came up once at boot counts 1 or 2 carrier changes. Drops at the host
 * (a full ring) are congestion of the host, not of the link. */
const fp_link_counter_t fp_link_netdev_counters[] = {
    {"statistics/rx_crc_errors", "CRC errors", FP_LINK_ERROR, 1},
    {"statistics/rx_frame_errors", "frame errors", FP_LINK_ERROR, 1},
    {"statistics/rx_errors", "receive errors", FP_LINK_ERROR, 10},
    {"statistics/tx_errors", "transmit errors", FP_LINK_ERROR, 10},
    {"carrier_changes", "carrier changes", FP_LINK_ERROR, 5},
    {"statistics/tx_carrier_errors", "carrier errors", FP_LINK_ERROR, 0},
    {"statistics/rx_missed_errors", "missed packets", FP_LINK_CONGESTION, 0},
    {"statistics/rx_over_errors", "ring overruns", FP_LINK_CONGESTION, 0},
    {"statistics/rx_dropped", "receive drops", FP_LINK_CONGESTION, 0},
    {"statistics/tx_dropped", "transmit drops", FP_LINK_CONGESTION, 0},
};
const size_t fp_link_netdev_count = sizeof fp_link_netdev_counters / sizeof fp_link_netdev_counters[0];

/* A path into dst; an over-long one is truncated and simply does not open. */
#define put_path(dst, len, ...) ((dst)[0] = '\0', fp_append((dst), (len), __VA_ARGS__))

int fp_link_tables(const fp_nic_t *nic, char dirs[2][300], const fp_link_counter_t *tables[2], size_t counts[2])
{
    if (nic->kind == FP_NIC_RDMA) {
        put_path(dirs[0], 300, "class/infiniband/%s/ports/%d/counters", nic->device, nic->port);
        put_path(dirs[1], 300, "class/infiniband/%s/ports/%d/hw_counters", nic->device, nic->port);
        tables[0] = fp_link_port_counters;
        counts[0] = fp_link_port_count;
        tables[1] = fp_link_hw_counters;
        counts[1] = fp_link_hw_count;
        return 2;
    }
    if (nic->kind == FP_NIC_NETDEV && !nic->is_virtual && nic->bus_id[0]) {
        put_path(dirs[0], 300, "class/net/%s", nic->device);
        tables[0] = fp_link_netdev_counters;
        counts[0] = fp_link_netdev_count;
        return 1;
    }
    return 0;
}

int fp_link_watch_open(const char *root, const fp_nic_list_t *list, fp_link_watch_t *w)
{
    const char *base = root ? root : "/sys";
    size_t cap = 0;
    w->files = NULL;
    w->count = 0;
    for (size_t i = 0; i < list->count; i++) {
        char dirs[2][300];
        const fp_link_counter_t *tables[2];
        size_t counts[2];
        int n = fp_link_tables(&list->nics[i], dirs, tables, counts);
        for (int t = 0; t < n; t++)
            for (size_t c = 0; c < counts[t]; c++) {
                char path[sizeof w->files[0].path];
                put_path(path, sizeof path, "%s/%s/%s", base, dirs[t], tables[t][c].file);
                /* held open and read again from offset 0 (sysfs renders the value anew): a
                 * read costs a system call, not a path lookup */
                int fd = open(path, O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                    continue; /* absent: said by fp_link_watch_describe, never read as 0 */
                if (w->count == cap) {
                    cap = cap ? 2 * cap : 16;
                    fp_link_file_t *grown = realloc(w->files, cap * sizeof *grown);
                    if (!grown) {
                        close(fd);
                        return fp_fail("link health: out of memory for %zu counters", cap);
                    }
                    w->files = grown;
                }
                fp_link_file_t *f = &w->files[w->count++];
                memset(f, 0, sizeof *f);
                f->nic = (int)i;
                f->counter = &tables[t][c];
                f->fd = fd;
                memcpy(f->path, path, sizeof path);
            }
    }
    return FP_OK;
}

void fp_link_watch_free(fp_link_watch_t *w)
{
    for (size_t i = 0; i < w->count; i++)
        close(w->files[i].fd);
    free(w->files);
    w->files = NULL;
    w->count = 0;
}

void fp_link_watch_read(fp_link_watch_t *w, int which)
{
    for (size_t i = 0; i < w->count; i++) {
        fp_link_file_t *f = &w->files[i];
        char buf[64], *end;
        f->known[which] = 0;
        ssize_t n = pread(f->fd, buf, sizeof buf - 1, 0);
        if (n > 0) {
            buf[n] = '\0';
            unsigned long long v = strtoull(buf, &end, 10);
            f->known[which] = end != buf;
            f->value[which] = v;
        }
        if (which == 1) {
            f->moved = f->known[0] && f->known[1] && f->value[1] > f->value[0];
            f->delta = f->moved ? f->value[1] - f->value[0] : 0;
        }
    }
}

void fp_link_watch_describe(const fp_link_watch_t *w, const fp_nic_list_t *list, char *out, size_t len)
{
    out[0] = '\0';
    int physical = 0, netdevs = 0;
    for (size_t i = 0; i < list->count; i++) {
        char dirs[2][300];
        const fp_link_counter_t *tables[2];
        size_t counts[2];
        int n = fp_link_tables(&list->nics[i], dirs, tables, counts);
        if (n == 0)
            continue;
        physical++;
        netdevs += list->nics[i].kind == FP_NIC_NETDEV;
        int found[2] = {0, 0};
        for (size_t f = 0; f < w->count; f++)
            if (w->files[f].nic == (int)i)
                found[w->files[f].counter >= tables[0] && w->files[f].counter < tables[0] + counts[0] ? 0 : 1]++;
        fp_append(out, len, "%s%s ", out[0] ? "; " : "", list->nics[i].name);
        if (n == 2)
            fp_append(out, len, "%d of %zu port, %d of %zu hw counters", found[0], counts[0], found[1], counts[1]);
        else
            fp_append(out, len, "%d of %zu netdev counters", found[0], counts[0]);
    }
    if (!physical)
        fp_append(out, len, "none: no physical NIC (virtual ones have no link of their own)");
    else if (netdevs)
        fp_append(out, len, "; pause frames: not in sysfs (ethtool -S)");
}
