/* GPUs from sysfs PCI (vendor 0x10de, display class): model, link, NUMA node, path to each NIC. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preflight.h"
#include "sysfs_net.h"

#define MAX_GPUS 64

typedef struct {
    char bus[32];
    char path[PATH_MAX];
    int numa;
} gpu_t;

static int bus_cmp(const void *a, const void *b)
{
    return strcmp(((const gpu_t *)a)->bus, ((const gpu_t *)b)->bus);
}

/* NVIDIA functions of class 0x03xxxx (VGA or 3D controller), in PCI bus order. */
static int find_gpus(const char *sys_root, gpu_t *gpus)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/bus/pci/devices", sys_root);
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < MAX_GPUS;) {
        char rel[300], vendor[16], class[16], numa[16];
        snprintf(rel, sizeof rel, "bus/pci/devices/%s/vendor", e->d_name);
        if (e->d_name[0] == '.' || pf_read(sys_root, rel, vendor, sizeof vendor) != 0 || strcmp(vendor, "0x10de") != 0)
            continue;
        snprintf(rel, sizeof rel, "bus/pci/devices/%s/class", e->d_name);
        if (pf_read(sys_root, rel, class, sizeof class) != 0 || strncmp(class, "0x03", 4) != 0)
            continue;
        snprintf(gpus[n].bus, sizeof gpus[n].bus, "%.31s", e->d_name);
        char link[PATH_MAX + 300];
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        if (!realpath(link, gpus[n].path))
            gpus[n].path[0] = '\0';
        snprintf(rel, sizeof rel, "bus/pci/devices/%s/numa_node", e->d_name);
        gpus[n].numa = pf_read(sys_root, rel, numa, sizeof numa) == 0 ? atoi(numa) : -1;
        n++;
    }
    if (d)
        closedir(d);
    qsort(gpus, (size_t)n, sizeof *gpus, bus_cmp);
    return n;
}

/* The driver's name for the GPU when it is loaded, else the PCI ids. */
static void gpu_model(const pf_where_t *where, const gpu_t *gpu, char *out, size_t len)
{
    char rel[128], text[2048], id[16] = "?";
    snprintf(rel, sizeof rel, "driver/nvidia/gpus/%s/information", gpu->bus);
    const char *model = pf_read(where->proc_root, rel, text, sizeof text) == 0 ? strstr(text, "Model:") : NULL;
    if (model) {
        model += strlen("Model:");
        model += strspn(model, " \t");
        snprintf(out, len, "%.*s", (int)strcspn(model, "\n"), model);
        return;
    }
    snprintf(rel, sizeof rel, "bus/pci/devices/%s/device", gpu->bus);
    pf_read(where->sys_root, rel, id, sizeof id);
    snprintf(out, len, "NVIDIA device %s (name unknown: driver not loaded)", id);
}

static void link_facts(pf_node_t *node, const pf_where_t *where, const gpu_t *gpu, const char *name)
{
    static const char *const files[] = {"current_link_speed", "max_link_speed", "current_link_width",
                                        "max_link_width"};
    char v[4][64];
    for (int i = 0; i < 4; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, "bus/pci/devices/%s/%s", gpu->bus, files[i]);
        if (pf_read(where->sys_root, rel, v[i], sizeof v[i]) != 0)
            snprintf(v[i], sizeof v[i], "unknown");
    }
    pf_fact(node, name, "pcie link", PF_SAME_ANY, "%s x%s", v[0], v[2]);
    pf_fact(node, name, "pcie max", PF_SAME_WARN, "%s x%s", v[1], v[3]);
    if (strcmp(v[2], "unknown") != 0 && atoi(v[2]) < atoi(v[3]))
        pf_finding(node, PF_FAIL, name, "PCIe link width x%s below its maximum x%s (%s); fix: reseat the GPU "
                   "or move it to a full-width slot", v[2], v[3], gpu->bus);
    if (strcmp(v[0], "unknown") != 0 && strtod(v[0], NULL) < strtod(v[1], NULL))
        pf_finding(node, PF_WARN, name, "PCIe link speed %s below its maximum %s (%s): normal for an idle GPU "
                   "(power saving); fix: if it stays low under load, check slot and BIOS PCIe settings",
                   v[0], v[1], gpu->bus);
}

static const char *const classes[] = {"PIX", "PXB", "PHB", "NODE", "SYS"};

static int class_rank(const char *cls)
{
    for (int i = 0; i < 5; i++)
        if (strcmp(cls, classes[i]) == 0)
            return i;
    return 5;
}

/* Relationship to every NIC with a PCI function; returns the index of the nearest, -1 if none. */
static int nic_paths(pf_node_t *node, const pf_where_t *where, const gpu_t *gpu, const char *name,
                     const fp_nic_list_t *nics, int numa_nodes)
{
    int best = -1, best_rank = 6;
    for (size_t i = 0; i < nics->count; i++) {
        const fp_nic_t *nic = &nics->nics[i];
        if (!nic->bus_id[0])
            continue;
        char rel[600], numa[16];
        snprintf(rel, sizeof rel, "%s/numa_node", nic->pci_path);
        int nic_numa = fp_sysfs_read(rel, numa, sizeof numa) == 0 ? atoi(numa) : -1;
        const char *cls = where->default_roots ? pf_pci_class_hwloc(gpu->bus, nic->bus_id) : NULL;
        if (!cls)
            cls = pf_pci_class_sysfs(gpu->path, nic->pci_path, gpu->numa, nic_numa, numa_nodes);
        char key[100];
        snprintf(key, sizeof key, "path to %s", nic->name);
        pf_fact(node, name, key, PF_SAME_WARN, "%s", cls);
        pf_fact_fix(node, 0, "place GPUs and NICs alike on every node");
        if (class_rank(cls) < best_rank) {
            best_rank = class_rank(cls);
            best = (int)i;
        }
    }
    return best;
}

/* A virtio NIC sits on a PCI function like a real one, but its traffic goes through the host. */
static int is_virtio(const fp_nic_t *nic)
{
    return strncmp(nic->driver, "virtio", 6) == 0;
}

int pf_gather_gpus(pf_node_t *node, const pf_where_t *where)
{
    gpu_t *gpus = calloc(MAX_GPUS, sizeof *gpus);
    fp_nic_list_t nics;
    if (!gpus || fp_nic_list(where->sys_root, &nics) != 0) {
        free(gpus);
        return -1;
    }
    int n = find_gpus(where->sys_root, gpus);
    const char *numa_text = pf_fact_value(node, "node", "numa nodes");
    int numa_nodes = numa_text ? atoi(numa_text) : 0;
    pf_fact(node, "node", "gpus", PF_SAME_FAIL, "%d", n);
    pf_fact_fix(node, 1, "check that every GPU is seen (lspci, nvidia-smi)");
    int mine = n ? where->local_rank % n : -1, mine_nic = -1;
    for (int g = 0; g < n; g++) {
        char name[16], model[160];
        snprintf(name, sizeof name, "gpu%d", g);
        gpu_model(where, &gpus[g], model, sizeof model);
        pf_fact(node, name, "model", PF_SAME_WARN, "%s", model);
        pf_fact_fix(node, 0, "use one GPU model on every node");
        pf_fact(node, name, "pci", PF_SAME_ANY, "%s", gpus[g].bus);
        if (gpus[g].numa >= 0)
            pf_fact(node, name, "numa node", PF_SAME_ANY, "%d", gpus[g].numa);
        else
            pf_fact(node, name, "numa node", PF_SAME_ANY, "unknown (-1)");
        link_facts(node, where, &gpus[g], name);
        int nearest = nic_paths(node, where, &gpus[g], name, &nics, numa_nodes);
        if (g == mine)
            mine_nic = nearest;
    }
    if (n)
        pf_fact(node, "node", "gpu of local rank", PF_SAME_ANY, "rank %d -> gpu%d (%s), nearest NIC %s%s",
                where->local_rank, mine, gpus[mine].bus, mine_nic >= 0 ? nics.nics[mine_nic].name : "none",
                mine_nic >= 0 && is_virtio(&nics.nics[mine_nic]) ? " (virtio: a paravirtual NIC of the hypervisor, "
                                                                   "not a fabric NIC)" : "");
    fp_nic_list_free(&nics);
    free(gpus);
    return 0;
}
