/* Network interfaces and RDMA ports of a node, and the checks that need only one node. */
#include <string.h>

#include "preflight.h"
#include "sysfs_net.h"

static void netdev_facts(pf_node_t *node, const fp_nic_t *nic)
{
    /* Speed and driver must agree only with a device behind them (not lo, veth, bridges); the MTU
     * must agree on every interface two nodes share: a bond or VLAN of another MTU drops frames too. */
    int same = nic->bus_id[0] ? PF_SAME_FAIL : PF_SAME_ANY;
    if (nic->line_rate_bps > 0)
        pf_fact(node, nic->name, "speed", same, "%.0f Mb/s", nic->line_rate_bps / 1e6);
    else
        pf_fact(node, nic->name, "speed", PF_SAME_ANY, "%s", nic->is_virtual ? "none (virtual)" : "unknown");
    pf_fact_fix(node, 1, "check cable, link partner and autonegotiation (ethtool IF)");
    pf_fact(node, nic->name, "mtu", PF_SAME_FAIL, "%ld", nic->mtu);
    pf_fact_fix(node, 1, "set one MTU on every node (ip link set IF mtu N)");
    pf_fact(node, nic->name, "state", PF_SAME_ANY, "%s", nic->state[0] ? nic->state : "unknown");
    pf_fact(node, nic->name, "driver", same, "%s", nic->driver[0] ? nic->driver : "none (virtual)");
    pf_fact_fix(node, 0, "install the same driver on every node");
    if (nic->bus_id[0])
        pf_fact(node, nic->name, "pci", PF_SAME_ANY, "%s", nic->bus_id);
}

static void rdma_facts(pf_node_t *node, const fp_nic_t *nic)
{
    pf_fact(node, nic->name, "state", PF_SAME_FAIL, "%s", nic->state[0] ? nic->state : "unknown");
    pf_fact_fix(node, 0, "bring the port up (cable, subnet manager; ibstat)");
    pf_fact_good(node, "ACTIVE");
    pf_fact(node, nic->name, "phys state", PF_SAME_FAIL, "%s", nic->phys_state[0] ? nic->phys_state : "unknown");
    pf_fact_fix(node, 0, "check cable and switch port (ibstat, mlxlink)");
    pf_fact_good(node, "LinkUp");
    pf_fact(node, nic->name, "rate", PF_SAME_FAIL, "%s", nic->rate_text[0] ? nic->rate_text : "unknown");
    pf_fact_fix(node, 1, "check cable, switch port speed and width (ibstat, mlxlink)");
    pf_fact(node, nic->name, "link layer", PF_SAME_FAIL, "%s", nic->link_layer[0] ? nic->link_layer : "unknown");
    pf_fact_fix(node, 0, "configure one link layer on every node (mlxconfig LINK_TYPE)");
    pf_fact(node, nic->name, "firmware", PF_SAME_FAIL, "%s", nic->fw_ver[0] ? nic->fw_ver : "unknown");
    pf_fact_fix(node, 0, "update the firmware to one version on every node (mlxfwmanager)");
    pf_fact(node, nic->name, "driver", PF_SAME_FAIL, "%s", nic->driver[0] ? nic->driver : "unknown");
    pf_fact_fix(node, 0, "install the same driver on every node");
    pf_fact(node, nic->name, "netdev", PF_SAME_ANY, "%s", nic->netdev[0] ? nic->netdev : "none");
    pf_fact(node, nic->name, "counters", PF_SAME_ANY, "%s", nic->extended ? "64-bit" : "may be 32-bit");
    if (nic->bus_id[0])
        pf_fact(node, nic->name, "pci", PF_SAME_ANY, "%s", nic->bus_id);
    if (strcmp(nic->state, "ACTIVE") != 0)
        pf_finding(node, PF_FAIL, nic->name, "port state is %s, not ACTIVE; fix: check the cable and that a "
                   "subnet manager runs (ibstat %s %d)", nic->state[0] ? nic->state : "unknown", nic->device, nic->port);
    if (strcmp(nic->phys_state, "LinkUp") != 0)
        pf_finding(node, PF_FAIL, nic->name, "physical state is %s, not LinkUp; fix: check the cable and the "
                   "switch port (mlxlink -d %s)", nic->phys_state[0] ? nic->phys_state : "unknown", nic->device);
}

int pf_gather_nics(pf_node_t *node, const pf_where_t *where)
{
    fp_nic_list_t list;
    if (fp_nic_list(where->sys_root, &list) != 0)
        return -1;
    char ports[200] = "";
    for (size_t i = 0; i < list.count; i++) {
        const fp_nic_t *nic = &list.nics[i];
        pf_link_errors(node, where, nic);
        if (nic->kind == FP_NIC_NETDEV) {
            netdev_facts(node, nic);
            continue;
        }
        rdma_facts(node, nic);
        size_t used = strlen(ports);
        snprintf(ports + used, sizeof ports - used, "%s%s", used ? " " : "", nic->name);
    }
    pf_fact(node, "node", "rdma ports", PF_SAME_FAIL, "%s", ports[0] ? ports : "none");
    pf_fact_fix(node, 0, "load the RDMA drivers (ib_core, mlx5_ib) and check the HCAs (ibv_devinfo)");
    fp_nic_list_free(&list);
    return 0;
}
