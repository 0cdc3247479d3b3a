/* NIC facts and byte counters against sysfs trees: the committed test data and a tree written here. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "error.h"
#include "sysfs_net.h"

static const fp_nic_t *nic_named(const fp_nic_list_t *list, const char *name)
{
    int i = fp_nic_find(list, name);
    CHECK(i >= 0);
    static fp_nic_t none;
    return i >= 0 ? &list->nics[i] : &none;
}

static char trees[] = "/tmp/fabperf-trees.XXXXXX";

/* The committed trees with their symbolic links made (tests/data/sysfs/prepare.sh). */
static void prepare_trees(void)
{
    char cmd[512];
    CHECK(mkdtemp(trees) != NULL);
    snprintf(cmd, sizeof cmd, "sh '%s/sysfs/prepare.sh' '%s'", FP_DATA_DIR, trees);
    CHECK(system(cmd) == 0);
}

static void test_facts(void)
{
    fp_nic_list_t list;
    char root[512];
    snprintf(root, sizeof root, "%s/nodeA/sys", trees);
    CHECK(fp_nic_list(root, &list) == FP_OK);
    CHECK(list.count == 5); /* ens1f0, eth0, lo, mlx5_0:1, mlx5_1:1 */
    const fp_nic_t *eth0 = nic_named(&list, "eth0");
    CHECK(eth0->kind == FP_NIC_NETDEV);
    CHECK(eth0->line_rate_bps == 0); /* virtio: speed -1 */
    CHECK(eth0->mtu == 1500);
    CHECK_STR(eth0->state, "up");
    CHECK_STR(eth0->driver, "virtio_net");
    CHECK_STR(eth0->bus_id, "0000:00:03.0"); /* walked up from virtio0 */
    const fp_nic_t *lo = nic_named(&list, "lo");
    CHECK(lo->line_rate_bps == 0 && lo->mtu == 65536 && lo->is_virtual);
    CHECK(!eth0->is_virtual); /* virtio: a PCI function, paravirtual */
    CHECK_STR(lo->driver, "");
    CHECK_STR(lo->bus_id, "");
    const fp_nic_t *ens = nic_named(&list, "ens1f0");
    CHECK_NEAR(ens->line_rate_bps, 100e9, 1);
    CHECK(ens->mtu == 9000);
    CHECK_STR(ens->driver, "mlx5_core");
    const fp_nic_t *ib = nic_named(&list, "mlx5_0"); /* device name finds its first port */
    CHECK_STR(ib->name, "mlx5_0:1");
    CHECK(ib->kind == FP_NIC_RDMA && ib->port == 1 && ib->words && !ib->extended);
    CHECK_NEAR(ib->line_rate_bps, 200e9, 1);
    CHECK_STR(ib->state, "ACTIVE");
    CHECK_STR(ib->phys_state, "LinkUp");
    CHECK_STR(ib->link_layer, "InfiniBand");
    CHECK_STR(ib->fw_ver, "28.39.1002");
    CHECK_STR(ib->driver, "mlx5_core");
    CHECK_STR(ib->bus_id, "0000:04:00.0");
    CHECK_STR(ib->netdev, "");
    const fp_nic_t *roce = nic_named(&list, "mlx5_1:1");
    CHECK_STR(roce->netdev, "ens1f0");
    CHECK_STR(roce->link_layer, "Ethernet");
    CHECK(roce->extended);
    CHECK(fp_nic_find(&list, "mlx5_9") == -1);

    fp_nic_snapshot_t snap = {0};
    CHECK(fp_nic_snapshot(&list, &snap) == FP_OK);
    int i = fp_nic_find(&list, "mlx5_0:1");
    CHECK(snap.readings[i].tx.known && snap.readings[i].tx.value == 100);
    CHECK(snap.readings[i].rx.value == 4294967295u);
    i = fp_nic_find(&list, "mlx5_1:1"); /* counters_ext wins over counters */
    CHECK(snap.readings[i].tx.value == 8589934592u);
    fp_nic_snapshot_free(&snap);
    fp_nic_list_free(&list);

    CHECK(fp_nic_list(FP_DATA_DIR "/no-such-tree", &list) == FP_OK);
    CHECK(list.count == 0);
    fp_nic_list_free(&list);
}

static void test_delta_rules(void)
{
    uint64_t bytes;
    fp_counter_t a = {1000, 1}, b = {1500, 1}, sat = {4294967295u, 1}, gone = {0, 0};
    CHECK(fp_counter_delta(a, b, 1, 0, &bytes) == 1 && bytes == 500);
    CHECK(fp_counter_delta(a, b, 0, 1, &bytes) == 1 && bytes == 2000); /* words x 4 */
    CHECK(fp_counter_delta(a, sat, 0, 1, &bytes) == 0 && bytes == 0);  /* stuck at 2^32-1 */
    CHECK(fp_counter_delta(sat, sat, 0, 1, &bytes) == 0);
    CHECK(fp_counter_delta(a, sat, 1, 1, &bytes) == 1);                 /* 64-bit passes it */
    CHECK(fp_counter_delta(b, a, 1, 0, &bytes) == 0);                   /* reset */
    CHECK(fp_counter_delta(gone, a, 1, 0, &bytes) == 0);
    CHECK_NEAR(fp_rdma_rate_parse("400 Gb/sec (4X NDR)"), 400e9, 1);
    CHECK_NEAR(fp_rdma_rate_parse("2.5 Gb/sec (1X SDR)"), 2.5e9, 1);
    CHECK(fp_rdma_rate_parse("fast") == 0);
    CHECK(fp_rdma_rate_parse("") == 0);
}

static void put(const char *root, const char *rel, const char *text)
{
    char path[1024], cmd[1200];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
    CHECK(system(cmd) == 0);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

/* Counters that move between two snapshots, as they do around one size of a benchmark. */
static void test_snapshot_delta(void)
{
    char root[] = "/tmp/fabperf-sysfs.XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    put(root, "class/net/veth0/statistics/tx_bytes", "10");
    put(root, "class/net/veth0/statistics/rx_bytes", "20");
    put(root, "class/infiniband/hca0/ports/1/counters/port_xmit_data", "4294967000");
    put(root, "class/infiniband/hca0/ports/1/counters/port_rcv_data", "5");
    fp_nic_list_t list;
    fp_nic_snapshot_t before = {0}, after = {0};
    CHECK(fp_nic_list(root, &list) == FP_OK && list.count == 2);
    CHECK(fp_nic_snapshot(&list, &before) == FP_OK);
    put(root, "class/net/veth0/statistics/tx_bytes", "1048586");
    put(root, "class/infiniband/hca0/ports/1/counters/port_xmit_data", "4294967295");
    put(root, "class/infiniband/hca0/ports/1/counters/port_rcv_data", "1005");
    CHECK(fp_nic_snapshot(&list, &after) == FP_OK);
    fp_nic_delta_t d[2];
    CHECK(fp_nic_delta(&list, &before, &after, d) == FP_OK);
    CHECK(d[0].tx_known && d[0].tx_bytes == 1048576);
    CHECK(d[0].rx_known && d[0].rx_bytes == 0);
    CHECK(!d[1].tx_known);                       /* saturated 32-bit */
    CHECK(d[1].rx_known && d[1].rx_bytes == 4000); /* 1000 words */
    fp_nic_snapshot_t short_snap = {0};
    CHECK(fp_nic_delta(&list, &before, &short_snap, d) == FP_ERR);
    fp_nic_snapshot_free(&before);
    fp_nic_snapshot_free(&after);
    fp_nic_list_free(&list);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

/* A veth reports a nominal 10000 Mb/s: no device behind it, so no line rate; a NIC with a PCI
 * function keeps its speed. */
static void test_virtual(void)
{
    char root[] = "/tmp/fabperf-sysfs.XXXXXX", cmd[1200];
    CHECK(mkdtemp(root) != NULL);
    put(root, "class/net/veth0/speed", "10000");
    put(root, "class/net/veth0/mtu", "1500");
    put(root, "class/net/eno1/speed", "25000");
    put(root, "devices/pci0000:00/0000:00:02.0/vendor", "0x15b3");
    snprintf(cmd, sizeof cmd, "ln -s '%s/devices/pci0000:00/0000:00:02.0' '%s/class/net/eno1/device'", root, root);
    CHECK(system(cmd) == 0);
    fp_nic_list_t list;
    CHECK(fp_nic_list(root, &list) == FP_OK && list.count == 2);
    const fp_nic_t *veth = nic_named(&list, "veth0"), *eno = nic_named(&list, "eno1");
    CHECK(veth->is_virtual && veth->line_rate_bps == 0);
    CHECK(!eno->is_virtual);
    CHECK_NEAR(eno->line_rate_bps, 25e9, 1);
    CHECK_STR(eno->bus_id, "0000:00:02.0");
    fp_nic_list_free(&list);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

int main(void)
{
    prepare_trees();
    test_facts();
    test_delta_rules();
    test_snapshot_delta();
    test_virtual();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", trees);
    CHECK(system(cmd) == 0);
    return CHECK_DONE();
}
