/* NCCL's log lines as seen on the H200 machine (NCCL 2.28.3, one rank, no RDMA) and with IB. */
#include "check.h"
#include "nccl_log.h"

static fp_nccl_transport_t parse(const char *const *lines)
{
    fp_nccl_transport_t t;
    fp_nccl_transport_init(&t);
    for (; *lines; lines++)
        fp_nccl_log_line(&t, *lines);
    return t;
}

static void test_socket(void)
{
    static const char *const lines[] = {
        "h200:1234:1234 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.",
        "h200:1234:1234 [0] NCCL INFO NET/IB : No device found.",
        "h200:1234:1234 [0] NCCL INFO Failed to initialize NET plugin IB",
        "h200:1234:1234 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.5<0>",
        "h200:1234:1234 [0] NCCL INFO Assigned NET plugin Socket to comm",
        "h200:1234:1234 [0] NCCL INFO Using network Socket",
        "h200:1234:1234 [0] NCCL INFO NET/Socket : GPU Direct RDMA Disabled for HCA 0 'eth0'",
        "h200:1234:1234 [0] NCCL INFO GPU/0-60 :GPU/0-60 (0/5000.0/LOC) CPU/0-ffff (1/48.0/PHB)",
        NULL};
    fp_nccl_transport_t t = parse(lines);
    CHECK_STR(t.plugin, "none");
    CHECK_STR(t.net, "Socket");
    CHECK_STR(t.gdr, "off");
    CHECK(t.p2p == 0 && t.shm == 0 && t.net_links == 0);
    char text[256];
    fp_nccl_transport_text(&t, text, sizeof text);
    CHECK_STR(text, "network Socket (plugin: none), GPUDirect RDMA off, connections: 0 P2P, 0 SHM, 0 NET");
}

static void test_ib(void)
{
    static const char *const lines[] = {
        "n1:77:77 [0] NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin (v8)",
        "n1:77:77 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.1<0>",
        "n1:77:77 [0] NCCL INFO GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
        "n1:77:77 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC",
        "n1:77:77 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] via P2P/CUMEM/read",
        "n1:77:77 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0/GDRDMA",
        "n1:77:77 [0] NCCL INFO Channel 00/0 : 2[2] -> 3[3] via SHM/direct/direct",
        NULL};
    fp_nccl_transport_t t = parse(lines);
    CHECK_STR(t.plugin, "NCCL");
    CHECK_STR(t.net, "IB");
    CHECK_STR(t.gdr, "on");
    CHECK(t.p2p == 2 && t.shm == 1 && t.net_links == 1);
}

static void test_unknown(void)
{
    static const char *const lines[] = {"garbage", "NCCL INFO Channel 00 : nothing", "Using network ", NULL};
    fp_nccl_transport_t t = parse(lines);
    CHECK_STR(t.plugin, "unknown");
    CHECK_STR(t.net, "unknown");
    CHECK_STR(t.gdr, "unknown");
    fp_nccl_transport_t none;
    fp_nccl_transport_init(&none);
    char text[128];
    fp_nccl_transport_text(&none, text, sizeof text);
    CHECK_STR(text, "unknown (no NCCL log read)");
    CHECK(fp_nccl_log_file(&none, "/nonexistent/nccl.log", NULL) != 0);
}

int main(void)
{
    test_socket();
    test_ib();
    test_unknown();
    return CHECK_DONE();
}
