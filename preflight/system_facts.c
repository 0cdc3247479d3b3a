/* Kernel-level facts of a node: limits, huge pages, governor, NUMA balancing, modules. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preflight.h"

/* "Max locked memory  unlimited  unlimited  bytes": the soft limit, which is the one that binds. */
static void memlock_fact(pf_node_t *node, const pf_where_t *where)
{
    char text[4096], soft[64] = "unknown";
    if (pf_read(where->proc_root, "self/limits", text, sizeof text) == 0) {
        const char *line = strstr(text, "Max locked memory");
        if (line)
            sscanf(line + strlen("Max locked memory"), "%63s", soft);
    }
    if (strcmp(soft, "unlimited") == 0 || strcmp(soft, "unknown") == 0)
        pf_fact(node, "node", "memlock", PF_SAME_WARN, "%s", soft);
    else
        pf_fact(node, "node", "memlock", PF_SAME_WARN, "%s bytes", soft);
    pf_fact_fix(node, 0, "set 'ulimit -l unlimited' (limits.conf memlock, or the launcher's propagation)");
    pf_fact_good(node, "unlimited");
}

static long meminfo_value(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

static void hugepage_facts(pf_node_t *node, const pf_where_t *where)
{
    char text[8192], thp[128];
    if (pf_read(where->proc_root, "meminfo", text, sizeof text) == 0)
        pf_fact(node, "node", "huge pages", PF_SAME_ANY, "%ld (%ld kB each)", meminfo_value(text, "HugePages_Total:"),
                meminfo_value(text, "Hugepagesize:"));
    else
        pf_fact(node, "node", "huge pages", PF_SAME_ANY, "unknown");
    if (pf_read(where->sys_root, "kernel/mm/transparent_hugepage/enabled", thp, sizeof thp) == 0) {
        const char *open = strchr(thp, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close)
            pf_fact(node, "node", "transparent huge pages", PF_SAME_WARN, "%.*s", (int)(close - open - 1),
                    open + 1);
    }
}

/* The governors of all CPUs, each with its count: "performance" or "powersave x2, performance x2". */
static void governor_fact(pf_node_t *node, const pf_where_t *where)
{
    char dir[1024], names[4][32] = {{0}};
    int counts[4] = {0}, kinds = 0;
    snprintf(dir, sizeof dir, "%s/devices/system/cpu", where->sys_root);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char rel[300], gov[32];
        if (strncmp(e->d_name, "cpu", 3) != 0 || e->d_name[3] < '0' || e->d_name[3] > '9')
            continue;
        snprintf(rel, sizeof rel, "devices/system/cpu/%s/cpufreq/scaling_governor", e->d_name);
        if (pf_read(where->sys_root, rel, gov, sizeof gov) != 0)
            continue;
        int k = 0;
        while (k < kinds && strcmp(names[k], gov) != 0)
            k++;
        if (k == kinds && kinds < 4)
            snprintf(names[kinds++], sizeof names[0], "%s", gov);
        if (k < 4)
            counts[k]++;
    }
    if (d)
        closedir(d);
    char value[200] = "";
    for (int k = 0; k < kinds; k++)
        snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s x%d", k ? ", " : "", names[k], counts[k]);
    if (kinds == 1)
        snprintf(value, sizeof value, "%s", names[0]);
    pf_fact(node, "node", "cpu governor", PF_SAME_WARN, "%s", kinds ? value : "unknown (no cpufreq)");
    pf_fact_fix(node, 0, "cpupower frequency-set -g performance");
    pf_fact_good(node, "performance");
    if (kinds && (kinds > 1 || strcmp(names[0], "performance") != 0))
        pf_finding(node, PF_WARN, "cpu", "CPU frequency governor is %s, not performance: timings drift with "
                   "the clock; fix: cpupower frequency-set -g performance", value);
}

static void numa_facts(pf_node_t *node, const pf_where_t *where)
{
    char text[32];
    int nodes = 0;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/devices/system/node", where->sys_root);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' && e->d_name[4] <= '9')
            nodes++;
    if (d)
        closedir(d);
    pf_fact(node, "node", "numa nodes", PF_SAME_WARN, "%d", nodes);
    if (pf_read(where->proc_root, "sys/kernel/numa_balancing", text, sizeof text) != 0)
        snprintf(text, sizeof text, "unknown");
    pf_fact(node, "node", "numa balancing", PF_SAME_WARN, "%s", strcmp(text, "0") == 0 ? "off" : strcmp(text, "unknown") == 0 ? "unknown" : "on");
    pf_fact_fix(node, 0, "sysctl kernel.numa_balancing=0");
    pf_fact_good(node, "off");
    if (strcmp(text, "0") != 0 && strcmp(text, "unknown") != 0)
        pf_finding(node, PF_WARN, "kernel", "NUMA balancing is on: pages of registered buffers may migrate "
                   "during a run; fix: sysctl kernel.numa_balancing=0");
}

/* Loaded: a line of /proc/modules starts with the name, or /sys/module/NAME exists (built in). */
static int module_loaded(const pf_where_t *where, const char *modules, const char *name)
{
    size_t len = strlen(name);
    for (const char *line = modules; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, name, len) == 0 && line[len] == ' ')
            return 1;
    char rel[128];
    snprintf(rel, sizeof rel, "module/%s", name);
    return pf_exists(where->sys_root, rel);
}

static void module_facts(pf_node_t *node, const pf_where_t *where)
{
    static const char *const names[] = {"nvidia_peermem", "nv_peer_mem", "gdrdrv", "nvidia", "ib_core"};
    char *modules = malloc(1 << 16);
    if (!modules)
        return;
    if (pf_read(where->proc_root, "modules", modules, 1 << 16) != 0)
        modules[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char key[48];
        snprintf(key, sizeof key, "module %s", names[i]);
        pf_fact(node, "node", key, PF_SAME_FAIL, "%s", module_loaded(where, modules, names[i]) ? "loaded" : "absent");
        char fix[64];
        snprintf(fix, sizeof fix, "load it on every node (modprobe %s)", names[i]);
        pf_fact_fix(node, 0, fix);
        pf_fact_good(node, "loaded");
    }
    free(modules);
}

void pf_gather_system(pf_node_t *node, const pf_where_t *where)
{
    char text[256];
    if (pf_read(where->proc_root, "sys/kernel/osrelease", text, sizeof text) != 0)
        snprintf(text, sizeof text, "unknown");
    pf_fact(node, "node", "kernel", PF_SAME_WARN, "%s", text);
    memlock_fact(node, where);
    hugepage_facts(node, where);
    governor_fact(node, where);
    numa_facts(node, where);
    module_facts(node, where);
}
