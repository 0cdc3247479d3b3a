/* GPU-NIC relationship from sysfs paths: each of NCCL's classes from a made-up PCI tree. */
#include "check.h"
#include "preflight.h"

#define ROOT0 "/sys/devices/pci0000:00/0000:00:01.0"
#define ROOT8 "/sys/devices/pci0000:80/0000:80:01.0"

int main(void)
{
    const char *gpu = ROOT0 "/0000:01:00.0/0000:02:00.0/0000:03:00.0";
    /* A NIC below the same switch's other downstream port. */
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT0 "/0000:01:00.0/0000:02:01.0/0000:04:00.0", 0, 0, 2), "PIX");
    /* Below a second switch under the first one. */
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT0 "/0000:01:00.0/0000:02:01.0/0000:05:00.0/0000:06:00.0/0000:07:00.0",
                                 0, 0, 2), "PXB");
    /* Another root port of the same host bridge. */
    CHECK_STR(pf_pci_class_sysfs(gpu, "/sys/devices/pci0000:00/0000:00:03.0/virtio0", 0, 0, 2), "PHB");
    /* Another host bridge: same NUMA node, another one, or unknown on a one-node machine. */
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT8 "/0000:81:00.0", 0, 0, 2), "NODE");
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT8 "/0000:81:00.0", 0, 1, 2), "SYS");
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT8 "/0000:81:00.0", -1, -1, 1), "NODE");
    CHECK_STR(pf_pci_class_sysfs(gpu, ROOT8 "/0000:81:00.0", -1, -1, 2), "SYS");
    /* Two functions of one device. */
    CHECK_STR(pf_pci_class_sysfs(ROOT0 "/0000:01:00.0", ROOT0 "/0000:01:00.1", 0, 0, 2), "PIX");
    CHECK_STR(pf_pci_class_sysfs(gpu, "/sys/devices/virtual/net/lo", 0, 0, 2), "unknown");
    return CHECK_DONE();
}
