/* GPU-NIC relationship from hwloc's tree (the library Open MPI itself uses for affinity). */
#include <hwloc.h>
#include <stdio.h>

#include "preflight.h"

static hwloc_topology_t topology;
static int state; /* 0 not loaded yet, 1 loaded, -1 failed */

static int load(void)
{
    if (state == 0) {
        state = -1;
        if (hwloc_topology_init(&topology) == 0) {
            hwloc_topology_set_io_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_ALL);
            if (hwloc_topology_load(topology) == 0)
                state = 1;
            else
                hwloc_topology_destroy(topology);
        }
    }
    return state == 1;
}

/* PCI bridges between obj and its ancestor top, top excluded. */
static int bridges_below(hwloc_obj_t obj, hwloc_obj_t top)
{
    int n = 0;
    for (hwloc_obj_t o = obj->parent; o && o != top; o = o->parent)
        n += o->type == HWLOC_OBJ_BRIDGE;
    return n;
}

const char *pf_pci_class_hwloc(const char *bus_a, const char *bus_b)
{
    if (!load())
        return NULL;
    hwloc_obj_t a = hwloc_get_pcidev_by_busidstring(topology, bus_a);
    hwloc_obj_t b = hwloc_get_pcidev_by_busidstring(topology, bus_b);
    if (!a || !b)
        return NULL;
    hwloc_obj_t common = hwloc_get_common_ancestor_obj(topology, a, b);
    if (!common)
        return NULL;
    if (common->type == HWLOC_OBJ_BRIDGE) {
        if (common->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST)
            return "PHB";
        /* One switch: its downstream port on each side; more bridges: several switches. */
        return bridges_below(a, common) <= 1 && bridges_below(b, common) <= 1 ? "PIX" : "PXB";
    }
    if (common->type == HWLOC_OBJ_PCI_DEVICE)
        return "PIX"; /* functions of one device */
    /* Different host bridges: within one NUMA node, or across the SMP interconnect. */
    return !common->nodeset || hwloc_bitmap_weight(common->nodeset) <= 1 ? "NODE" : "SYS";
}

const char *pf_topology_source(void)
{
    return "hwloc " HWLOC_VERSION " (sysfs paths when --sysfs-root is given)";
}
