/* UCX's log as UCX 1.13.1 wrote it here (tests/data/ucx: rank 0 of fabperf_latency under MPICH
 * ch4:ucx, UCX_LOG_LEVEL=info, UCX_LOG_FILE; UCX_TLS=tcp,self with UCX_NET_DEVICES=lo, sm,self,
 * and tcp with UCX_PROTO_ENABLE=y UCX_PROTO_INFO=y), handler messages, and the 1.15+ form. */
#include <stdlib.h>

#include "check.h"
#include "ucx_log.h"

static fp_ucx_selection_t from_file(const char *name)
{
    fp_ucx_selection_t s;
    char path[512];
    fp_ucx_selection_init(&s);
    snprintf(path, sizeof path, "%s/ucx/%s", FP_DATA_DIR, name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f) {
        fp_ucx_log_stream(&s, f, NULL);
        fclose(f);
    }
    return s;
}

static void test_tcp(void)
{
    fp_ucx_selection_t s = from_file("ucx-1.13.1-tcp.txt");
    char text[1024];
    CHECK_STR(s.version, "1.13.1");
    CHECK(s.nendpoints == 2 && s.nprotocols == 0);
    CHECK(s.endpoints[0].config == 0 && s.endpoints[1].config == 1);
    CHECK_STR(s.endpoints[0].to, "self");
    CHECK_STR(s.endpoints[0].lanes, "tag(self/memory0 tcp/lo) rma(self/memory0) am(self/memory0 tcp/lo)");
    CHECK_STR(s.endpoints[1].to, "peer");
    CHECK_STR(s.endpoints[1].lanes, "tag(tcp/lo) rma_am(tcp/lo) am(tcp/lo)");
    fp_ucx_transports(&s, text, sizeof text);
    CHECK_STR(text, "tcp/lo");
    fp_ucx_selection_text(&s, text, sizeof text);
    CHECK_STR(text, "1.13.1: self tag(self/memory0 tcp/lo) rma(self/memory0) am(self/memory0 tcp/lo); "
                    "peer tag(tcp/lo) rma_am(tcp/lo) am(tcp/lo)");
}

static void test_shared_memory(void)
{
    fp_ucx_selection_t s = from_file("ucx-1.13.1-sm.txt");
    char text[1024];
    CHECK(s.nendpoints == 2);
    CHECK_STR(s.endpoints[1].to, "peer");
    fp_ucx_transports(&s, text, sizeof text);
    CHECK_STR(text, "sysv/memory cma/memory posix/memory");
}

static void test_protocol_tables(void)
{
    fp_ucx_selection_t s = from_file("ucx-1.13.1-proto-enable-tcp.txt");
    char text[2048];
    CHECK(s.nendpoints == 0); /* the new protocols print tables instead */
    CHECK(s.nprotocols == 6);
    const fp_ucx_protocol_t *tag = &s.protocols[4];
    CHECK(tag->config == 1);
    CHECK_STR(tag->operation, "tagged message by ucp_tag_send*() from host memory");
    CHECK(tag->nranges == 3);
    CHECK_STR(tag->ranges[0].range, "0..788");
    CHECK_STR(tag->ranges[0].protocol, "eager short");
    CHECK_STR(tag->ranges[0].via, "tcp/lo");
    CHECK_STR(tag->ranges[2].range, "16442..inf");
    CHECK_STR(tag->ranges[2].protocol, "eager copy-in copy-out");
    CHECK_STR(s.protocols[1].ranges[2].protocol, "(?) rendezvous fragmented copy-in copy-out");
    fp_ucx_transports(&s, text, sizeof text); /* configuration 0 goes through self */
    CHECK_STR(text, "tcp/lo");
    fp_ucx_selection_text(&s, text, sizeof text);
    CHECK_STR(text, "1.13.1; tag protocols (cfg 0): 0..8184 eager short (self/memory0), 8185..84573593 eager "
                    "copy-in copy-out (self/memory0), 84573594..inf (?) rendezvous fragmented copy-in copy-out "
                    "(self/memory0); tag protocols (cfg 1): 0..788 eager short (tcp/lo), 789..16441 eager "
                    "zero-copy copy-out (tcp/lo), 16442..inf eager copy-in copy-out (tcp/lo)");
}

/* What a log handler sees: the message alone; the same configuration twice counts once. */
static void test_messages(void)
{
    fp_ucx_selection_t s;
    fp_ucx_selection_init(&s);
    fp_ucx_log_line(&s, "Version 1.13.1 (loaded from /lib/x86_64-linux-gnu/libucp.so.0)");
    fp_ucx_log_line(&s, "ep_cfg[1]: tag(sysv/memory cma/memory) rma(sysv/memory posix/memory) am(sysv/memory cma/memory)");
    fp_ucx_log_line(&s, "ep_cfg[1]: tag(sysv/memory cma/memory) rma(sysv/memory posix/memory) am(sysv/memory cma/memory)");
    fp_ucx_log_line(&s, "rdma_create_event_channel failed: No such device");
    fp_ucx_log_line(&s, "UCX_* env variables: UCX_TLS=sm,self");
    CHECK_STR(s.version, "1.13.1");
    CHECK(s.nendpoints == 1 && s.endpoints[0].config == 1);
    CHECK_STR(s.endpoints[0].to, "peer");
}

/* UCX 1.15+ names the configuration (ucp_ep_config_name: [context ]self|intra-node|inter-node cfg#N). */
static void test_named_configurations(void)
{
    fp_ucx_selection_t s;
    char text[512];
    fp_ucx_selection_init(&s);
    fp_ucx_log_line(&s, "[1.2] [n1:7:0] ucp_worker.c:2000 UCX  INFO    self cfg#0 tag(self/memory cma/memory)");
    fp_ucx_log_line(&s, "[1.2] [n1:7:0] ucp_worker.c:2000 UCX  INFO    inter-node cfg#1 tag(rc_mlx5/mlx5_0:1) "
                        "rma(rc_mlx5/mlx5_0:1) am(rc_mlx5/mlx5_0:1) ka(ud_mlx5/mlx5_0:1)");
    fp_ucx_log_line(&s, "[1.2] [n1:7:0] ucp_worker.c:2000 UCX  INFO    mpi intra-node cfg#2 tag(sysv/memory)");
    CHECK(s.nendpoints == 3);
    CHECK_STR(s.endpoints[0].to, "self");
    CHECK_STR(s.endpoints[1].to, "inter-node");
    CHECK(s.endpoints[1].config == 1);
    CHECK_STR(s.endpoints[1].lanes, "tag(rc_mlx5/mlx5_0:1) rma(rc_mlx5/mlx5_0:1) am(rc_mlx5/mlx5_0:1) ka(ud_mlx5/mlx5_0:1)");
    CHECK_STR(s.endpoints[2].to, "intra-node");
    fp_ucx_transports(&s, text, sizeof text);
    CHECK_STR(text, "rc_mlx5/mlx5_0:1 ud_mlx5/mlx5_0:1 sysv/memory");
}

static void test_not_ucx(void)
{
    fp_ucx_selection_t s;
    char text[256];
    fp_ucx_selection_init(&s);
    fp_ucx_log_line(&s, "garbage");
    fp_ucx_log_line(&s, "| a | b |");
    fp_ucx_log_line(&s, "|  0..8 | orphan row | tcp/lo |");
    fp_ucx_log_line(&s, "ep_cfg[3]: nothing");
    CHECK(s.nendpoints == 0 && s.nprotocols == 0 && !s.version[0]);
    snprintf(s.note, sizeof s.note, "%s", "no UCX log");
    fp_ucx_selection_text(&s, text, sizeof text);
    CHECK_STR(text, "version unknown: no UCX log");
}

int main(void)
{
    test_tcp();
    test_shared_memory();
    test_protocol_tables();
    test_messages();
    test_named_configurations();
    test_not_ucx();
    return CHECK_DONE();
}
