/* Network interfaces and RDMA ports from sysfs: facts, and byte counters read between sizes. */
#include "sysfs_net.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

#define COUNTER32_MAX 0xffffffffULL

int fp_sysfs_read(const char *path, char *buf, size_t len)
{
    if (len == 0)
        return FP_ERR;
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return FP_ERR;
    size_t n = fread(buf, 1, len - 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return FP_ERR; /* e.g. EINVAL from speed of a virtual device */
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return FP_OK;
}

/* snprintf whose truncation is expected and harmless (paths, fixed-size facts): an over-long
 * path simply does not open. */
static void put_text(char *dst, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put_text(char *dst, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dst, len, fmt, ap);
    va_end(ap);
}

static void copy_text(char *dst, size_t len, const char *src)
{
    put_text(dst, len, "%s", src);
}

static void read_into(const char *dir, const char *file, char *out, size_t len)
{
    char path[PATH_MAX];
    put_text(path, sizeof path, "%s/%s", dir, file);
    if (fp_sysfs_read(path, out, len) != FP_OK)
        out[0] = '\0';
}

/* "4: ACTIVE" -> "ACTIVE" */
static void strip_number(char *text)
{
    char *colon = strchr(text, ':');
    if (!colon)
        return;
    colon++;
    while (*colon == ' ')
        colon++;
    memmove(text, colon, strlen(colon) + 1);
}

double fp_rdma_rate_parse(const char *text)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || value <= 0)
        return 0;
    while (*end == ' ')
        end++;
    if (strncmp(end, "Gb/s", 4) == 0)
        return value * 1e9;
    if (strncmp(end, "Mb/s", 4) == 0)
        return value * 1e6;
    return 0;
}

/* The driver's name and the PCI function behind a class entry's `device` link. */
static void device_facts(const char *entry_dir, fp_nic_t *nic)
{
    char link[PATH_MAX], target[PATH_MAX];
    put_text(link, sizeof link, "%s/device/driver", entry_dir);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n > 0) {
        target[n] = '\0';
        const char *slash = strrchr(target, '/');
        copy_text(nic->driver, sizeof nic->driver, slash ? slash + 1 : target);
    }
    put_text(link, sizeof link, "%s/device", entry_dir);
    char resolved[PATH_MAX];
    if (!realpath(link, resolved))
        return;
    /* A virtio NIC's device is virtioN below its PCI function: walk up to a PCI address. */
    for (;;) {
        char *slash = strrchr(resolved, '/');
        if (!slash)
            return;
        unsigned dom, bus, dev, fn;
        char tail;
        if (sscanf(slash + 1, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4) {
            copy_text(nic->bus_id, sizeof nic->bus_id, slash + 1);
            copy_text(nic->pci_path, sizeof nic->pci_path, resolved);
            return;
        }
        *slash = '\0';
    }
}

static int list_push(fp_nic_list_t *list, size_t *cap, const fp_nic_t *nic)
{
    if (list->count == *cap) {
        size_t grown = *cap ? *cap * 2 : 8;
        fp_nic_t *more = realloc(list->nics, grown * sizeof *more);
        if (!more)
            return fp_fail("fp_nic_list: out of memory for %zu NICs", grown);
        list->nics = more;
        *cap = grown;
    }
    list->nics[list->count++] = *nic;
    return FP_OK;
}

/* A veth reports 10000 Mb/s and a bond the sum of its links: nominal figures that say nothing of
 * what the wire carries. Such entries have no `device` link, and sysfs keeps them in devices/virtual. */
static int netdev_is_virtual(const char *dir)
{
    char path[PATH_MAX], resolved[PATH_MAX];
    put_text(path, sizeof path, "%s/device", dir);
    if (access(path, F_OK) != 0)
        return 1;
    return realpath(dir, resolved) && strstr(resolved, "/devices/virtual/") != NULL;
}

static void netdev_facts(const char *dir, const char *name, fp_nic_t *nic)
{
    char text[64];
    memset(nic, 0, sizeof *nic);
    nic->kind = FP_NIC_NETDEV;
    nic->extended = 1;
    copy_text(nic->name, sizeof nic->name, name);
    copy_text(nic->device, sizeof nic->device, name);
    read_into(dir, "mtu", text, sizeof text);
    nic->mtu = text[0] ? strtol(text, NULL, 10) : -1;
    read_into(dir, "operstate", nic->state, sizeof nic->state);
    device_facts(dir, nic);
    nic->is_virtual = netdev_is_virtual(dir);
    read_into(dir, "speed", text, sizeof text);
    long speed = text[0] && !nic->is_virtual ? strtol(text, NULL, 10) : -1;
    nic->line_rate_bps = speed > 0 ? (double)speed * 1e6 : 0; /* -1: link down or unknown */
    put_text(nic->tx_path, sizeof nic->tx_path, "%s/statistics/tx_bytes", dir);
    put_text(nic->rx_path, sizeof nic->rx_path, "%s/statistics/rx_bytes", dir);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory (no dot entries); count 0 when it does not exist. */
static char **dir_names(const char *path, size_t *count)
{
    *count = 0;
    DIR *d = opendir(path);
    if (!d)
        return NULL;
    char **names = NULL;
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (*count == cap) {
            cap = cap ? cap * 2 : 16;
            char **more = realloc(names, cap * sizeof *more);
            if (!more)
                break;
            names = more;
        }
        names[*count] = strdup(e->d_name);
        if (names[*count])
            (*count)++;
    }
    closedir(d);
    if (names)
        qsort(names, *count, sizeof *names, name_cmp);
    return names;
}

static void names_free(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* The port's netdev: the first GID's (RoCE), else the one netdev of the same PCI function. */
static void rdma_netdev(const char *dev_dir, const char *port_dir, fp_nic_t *nic)
{
    read_into(port_dir, "gid_attrs/ndevs/0", nic->netdev, sizeof nic->netdev);
    if (nic->netdev[0])
        return;
    char path[PATH_MAX];
    put_text(path, sizeof path, "%s/device/net", dev_dir);
    size_t count;
    char **names = dir_names(path, &count);
    if (count == 1)
        copy_text(nic->netdev, sizeof nic->netdev, names[0]);
    names_free(names, count);
}

/* 64-bit counters live in counters_ext on HCAs that have both; counters/ may be 32-bit. */
static void rdma_counters(const char *port_dir, fp_nic_t *nic)
{
    char path[PATH_MAX];
    nic->words = 1;
    put_text(path, sizeof path, "%s/counters_ext/port_xmit_data_64", port_dir);
    if (access(path, R_OK) == 0) {
        nic->extended = 1;
        copy_text(nic->tx_path, sizeof nic->tx_path, path);
        put_text(nic->rx_path, sizeof nic->rx_path, "%s/counters_ext/port_rcv_data_64", port_dir);
        return;
    }
    nic->extended = 0;
    put_text(nic->tx_path, sizeof nic->tx_path, "%s/counters/port_xmit_data", port_dir);
    put_text(nic->rx_path, sizeof nic->rx_path, "%s/counters/port_rcv_data", port_dir);
}

static void rdma_port_facts(const char *dev_dir, const char *dev, const char *port, fp_nic_t *nic)
{
    char port_dir[PATH_MAX];
    put_text(port_dir, sizeof port_dir, "%s/ports/%s", dev_dir, port);
    memset(nic, 0, sizeof *nic);
    nic->kind = FP_NIC_RDMA;
    nic->port = atoi(port);
    nic->mtu = -1;
    put_text(nic->name, sizeof nic->name, "%s:%s", dev, port);
    copy_text(nic->device, sizeof nic->device, dev);
    read_into(port_dir, "state", nic->state, sizeof nic->state);
    strip_number(nic->state);
    read_into(port_dir, "phys_state", nic->phys_state, sizeof nic->phys_state);
    strip_number(nic->phys_state);
    read_into(port_dir, "link_layer", nic->link_layer, sizeof nic->link_layer);
    read_into(port_dir, "rate", nic->rate_text, sizeof nic->rate_text);
    read_into(dev_dir, "fw_ver", nic->fw_ver, sizeof nic->fw_ver);
    device_facts(dev_dir, nic);
    nic->is_virtual = !nic->bus_id[0]; /* rxe, siw: a software port over some netdev */
    nic->line_rate_bps = nic->is_virtual ? 0 : fp_rdma_rate_parse(nic->rate_text);
    rdma_netdev(dev_dir, port_dir, nic);
    rdma_counters(port_dir, nic);
}

static int list_netdevs(const char *root, fp_nic_list_t *list, size_t *cap)
{
    char path[PATH_MAX];
    put_text(path, sizeof path, "%s/class/net", root);
    size_t count;
    char **names = dir_names(path, &count);
    int rc = FP_OK;
    for (size_t i = 0; i < count && rc == FP_OK; i++) {
        char dir[PATH_MAX];
        fp_nic_t nic;
        put_text(dir, sizeof dir, "%s/class/net/%s", root, names[i]);
        netdev_facts(dir, names[i], &nic);
        rc = list_push(list, cap, &nic);
    }
    names_free(names, count);
    return rc;
}

static int list_rdma_ports(const char *root, fp_nic_list_t *list, size_t *cap)
{
    char path[PATH_MAX];
    put_text(path, sizeof path, "%s/class/infiniband", root);
    size_t ndev;
    char **devs = dir_names(path, &ndev);
    int rc = FP_OK;
    for (size_t d = 0; d < ndev && rc == FP_OK; d++) {
        char dev_dir[PATH_MAX], ports_dir[PATH_MAX];
        put_text(dev_dir, sizeof dev_dir, "%s/class/infiniband/%s", root, devs[d]);
        put_text(ports_dir, sizeof ports_dir, "%s/ports", dev_dir);
        size_t nport;
        char **ports = dir_names(ports_dir, &nport);
        for (size_t p = 0; p < nport && rc == FP_OK; p++) {
            fp_nic_t nic;
            rdma_port_facts(dev_dir, devs[d], ports[p], &nic);
            rc = list_push(list, cap, &nic);
        }
        names_free(ports, nport);
    }
    names_free(devs, ndev);
    return rc;
}

int fp_nic_list(const char *sys_root, fp_nic_list_t *list)
{
    const char *root = sys_root && *sys_root ? sys_root : "/sys";
    size_t cap = 0;
    list->nics = NULL;
    list->count = 0;
    if (list_netdevs(root, list, &cap) != FP_OK || list_rdma_ports(root, list, &cap) != FP_OK) {
        fp_nic_list_free(list);
        return FP_ERR;
    }
    return FP_OK;
}

void fp_nic_list_free(fp_nic_list_t *list)
{
    free(list->nics);
    list->nics = NULL;
    list->count = 0;
}

int fp_nic_find(const fp_nic_list_t *list, const char *name)
{
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->nics[i].name, name) == 0)
            return (int)i;
    for (size_t i = 0; i < list->count; i++)
        if (list->nics[i].kind == FP_NIC_RDMA && strcmp(list->nics[i].device, name) == 0)
            return (int)i;
    return -1;
}

static fp_counter_t counter_read(int fd)
{
    fp_counter_t c = {0, 0};
    char text[32];
    ssize_t n = fd >= 0 ? pread(fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0)
        return c;
    text[n] = '\0';
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
        text[--n] = '\0';
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (n > 0 && errno == 0 && *end == '\0') {
        c.value = v;
        c.known = 1;
    }
    return c;
}

static void close_fds(fp_nic_snapshot_t *snap)
{
    for (size_t i = 0; snap->fds && i < 2 * snap->count; i++)
        if (snap->fds[i] >= 0)
            close(snap->fds[i]);
    free(snap->fds);
    snap->fds = NULL;
}

int fp_nic_snapshot(const fp_nic_list_t *list, fp_nic_snapshot_t *snap)
{
    if (snap->count != list->count || !snap->fds) {
        close_fds(snap);
        fp_nic_reading_t *r = realloc(snap->readings, (list->count ? list->count : 1) * sizeof *r);
        if (r)
            snap->readings = r;
        snap->fds = malloc((list->count ? 2 * list->count : 1) * sizeof *snap->fds);
        if (!r || !snap->fds)
            return fp_fail("fp_nic_snapshot: out of memory for %zu NICs", list->count);
        snap->count = list->count;
        for (size_t i = 0; i < list->count; i++) {
            const char *paths[2] = {list->nics[i].tx_path, list->nics[i].rx_path};
            for (int k = 0; k < 2; k++)
                snap->fds[2 * i + (size_t)k] = paths[k][0] ? open(paths[k], O_RDONLY | O_CLOEXEC) : -1;
        }
    }
    for (size_t i = 0; i < list->count; i++) {
        snap->readings[i].tx = counter_read(snap->fds[2 * i]);
        snap->readings[i].rx = counter_read(snap->fds[2 * i + 1]);
    }
    return FP_OK;
}

void fp_nic_snapshot_free(fp_nic_snapshot_t *snap)
{
    close_fds(snap);
    free(snap->readings);
    snap->readings = NULL;
    snap->count = 0;
}

int fp_counter_delta(fp_counter_t before, fp_counter_t after, int extended, int words, uint64_t *bytes)
{
    *bytes = 0;
    if (!before.known || !after.known || after.value < before.value)
        return 0;
    if (!extended && (before.value == COUNTER32_MAX || after.value == COUNTER32_MAX))
        return 0; /* a 32-bit counter stops there: the true count is anything above */
    uint64_t delta = after.value - before.value;
    *bytes = words ? delta * 4 : delta;
    return 1;
}

int fp_nic_delta(const fp_nic_list_t *list, const fp_nic_snapshot_t *before,
                 const fp_nic_snapshot_t *after, fp_nic_delta_t *deltas)
{
    if (before->count != list->count || after->count != list->count)
        return fp_fail("fp_nic_delta: snapshots of %zu and %zu NICs for a list of %zu",
                       before->count, after->count, list->count);
    for (size_t i = 0; i < list->count; i++) {
        const fp_nic_t *nic = &list->nics[i];
        deltas[i].tx_known = fp_counter_delta(before->readings[i].tx, after->readings[i].tx,
                                              nic->extended, nic->words, &deltas[i].tx_bytes);
        deltas[i].rx_known = fp_counter_delta(before->readings[i].rx, after->readings[i].rx,
                                              nic->extended, nic->words, &deltas[i].rx_bytes);
    }
    return FP_OK;
}
