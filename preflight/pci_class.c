/* GPU-NIC relationship from the sysfs paths of two PCI functions, the way NCCL classes it. */
#include <stdio.h>
#include <string.h>

#include "preflight.h"

#define MAX_HOPS 32

/* Splits ".../pci0000:00/0000:00:01.0/0000:01:00.0" into the root ("pci0000:00") and the
 * bridges and function below it. Returns the number below, -1 when no PCI root is in the path. */
static int split_pci_path(const char *path, char root[32], char hops[MAX_HOPS][16])
{
    const char *at = strstr(path, "/pci");
    unsigned dom, bus;
    while (at && sscanf(at, "/pci%x:%x", &dom, &bus) != 2)
        at = strstr(at + 1, "/pci");
    if (!at)
        return -1;
    const char *p = at + 1;
    size_t len = strcspn(p, "/");
    snprintf(root, 32, "%.*s", (int)len, p);
    int n = 0;
    for (p += len; *p == '/' && n < MAX_HOPS; n++) {
        p++;
        len = strcspn(p, "/");
        snprintf(hops[n], 16, "%.*s", (int)len, p);
        p += len;
    }
    return n;
}

const char *pf_pci_class_sysfs(const char *path_a, const char *path_b, int numa_a, int numa_b,
                               int numa_nodes)
{
    char root_a[32], root_b[32], hops_a[MAX_HOPS][16], hops_b[MAX_HOPS][16];
    int na = split_pci_path(path_a, root_a, hops_a), nb = split_pci_path(path_b, root_b, hops_b);
    if (na <= 0 || nb <= 0)
        return "unknown";
    if (strcmp(root_a, root_b) != 0) {
        if (numa_a >= 0 && numa_a == numa_b)
            return "NODE";
        /* numa_node -1 (no NUMA information): one node means there is no other socket to cross */
        if ((numa_a < 0 || numa_b < 0) && numa_nodes <= 1)
            return "NODE";
        return "SYS";
    }
    int common = 0;
    while (common < na - 1 && common < nb - 1 && strcmp(hops_a[common], hops_b[common]) == 0)
        common++;
    if (common == 0)
        return "PHB"; /* only the host bridge in common */
    /* Below one switch each side has its downstream port and itself: at most two hops. */
    return na - common <= 2 && nb - common <= 2 ? "PIX" : "PXB";
}
