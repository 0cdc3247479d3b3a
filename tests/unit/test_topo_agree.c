/* hwloc and sysfs paths must class every pair of this machine's PCI functions alike. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "preflight.h"
#include "sysfs_net.h"

#define MAX_FUNCS 256

typedef struct {
    char bus[64];
    char path[PATH_MAX];
    int numa;
} func_t;

static int numa_nodes(void)
{
    int n = 0;
    DIR *d = opendir("/sys/devices/system/node");
    for (struct dirent *e; d && (e = readdir(d));)
        n += strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9';
    if (d)
        closedir(d);
    return n;
}

static int list_functions(func_t *funcs)
{
    int n = 0;
    DIR *d = opendir("/sys/bus/pci/devices");
    for (struct dirent *e; d && (e = readdir(d)) && n < MAX_FUNCS;) {
        char link[PATH_MAX + 64], text[16];
        if (e->d_name[0] == '.')
            continue;
        snprintf(funcs[n].bus, sizeof funcs[n].bus, "%.63s", e->d_name);
        snprintf(link, sizeof link, "/sys/bus/pci/devices/%s", e->d_name);
        if (!realpath(link, funcs[n].path))
            continue;
        snprintf(link, sizeof link, "/sys/bus/pci/devices/%s/numa_node", e->d_name);
        funcs[n].numa = fp_sysfs_read(link, text, sizeof text) == 0 ? atoi(text) : -1;
        n++;
    }
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    static func_t funcs[MAX_FUNCS];
    int n = list_functions(funcs), nodes = numa_nodes(), compared = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            const char *from_hwloc = pf_pci_class_hwloc(funcs[a].bus, funcs[b].bus);
            if (!from_hwloc)
                continue; /* a bridge: hwloc has no PCI device object for it */
            const char *from_sysfs = pf_pci_class_sysfs(funcs[a].path, funcs[b].path, funcs[a].numa,
                                                        funcs[b].numa, nodes);
            if (strcmp(from_hwloc, from_sysfs) != 0)
                fprintf(stderr, "%s - %s: hwloc %s, sysfs %s\n", funcs[a].bus, funcs[b].bus, from_hwloc, from_sysfs);
            CHECK_STR(from_hwloc, from_sysfs);
            compared++;
        }
    printf("%d pairs of %d PCI functions compared\n", compared, n);
    if (n < 2) {
        printf("SKIP: fewer than two PCI functions\n");
        return 77;
    }
    CHECK(compared > 0);
    return CHECK_DONE();
}
