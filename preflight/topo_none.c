/* Build without hwloc: the relationship comes from sysfs paths alone. */
#include "preflight.h"

const char *pf_pci_class_hwloc(const char *bus_a, const char *bus_b)
{
    (void)bus_a;
    (void)bus_b;
    return NULL;
}

const char *pf_topology_source(void)
{
    return "sysfs paths (built without hwloc)";
}
