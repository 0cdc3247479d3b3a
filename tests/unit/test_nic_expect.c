/* --expect-nic judged per node: names per node, globs, a plain name on every node; and each NIC's
 * rate and efficiency against its own line rate. */
#include <math.h>

#include "check.h"
#include "collective.h"
#include "fp.h"
#include "metric.h"
#include "nic_expect.h"

static void test_check(void)
{
    char err[512];
    CHECK(fp_nic_expect_check("eth0", err, sizeof err) == 0);
    CHECK(fp_nic_expect_check("mlx5_0:1", err, sizeof err) == 0);
    CHECK(fp_nic_expect_check("fpa-h1:auda,fpa-h2:audz", err, sizeof err) == 0);
    CHECK(fp_nic_expect_check("h1:mlx5_0:1,aud*", err, sizeof err) == 0);
    CHECK(fp_nic_expect_check("h1:", err, sizeof err) == -1);
    CHECK(strstr(err, "--expect-nic: 'h1:' has an empty NIC or node name (accepted: NAME, NODE:NAME") == err);
    CHECK(fp_nic_expect_check(":eth0", err, sizeof err) == -1);
    CHECK(fp_nic_expect_check("eth0,", err, sizeof err) == -1);
    CHECK(fp_nic_expect_check("", err, sizeof err) == -1);
}

static void test_pattern(void)
{
    char out[64];
    CHECK(fp_nic_expect_pattern("fpa-h1:auda,fpa-h2:audz", "fpa-h2", out, sizeof out) == 1);
    CHECK_STR(out, "audz");
    CHECK(fp_nic_expect_pattern("fpa-h1:auda,fpa-h2:audz", "fpa-h3", out, sizeof out) == 0);
    CHECK(fp_nic_expect_pattern("mlx5_0:1", "h9", out, sizeof out) == 1);
    CHECK_STR(out, "mlx5_0:1");
    CHECK(fp_nic_expect_pattern("eth0,h1:mlx5_0:1", "h1", out, sizeof out) == 1); /* a node's own entry wins */
    CHECK_STR(out, "mlx5_0:1");
    CHECK(fp_nic_expect_pattern("gpu-[0-9]*:ib*", "gpu-12", out, sizeof out) == 1);
    CHECK_STR(out, "ib*");
    CHECK(fp_nic_expect_matches("aud*", "audz"));
    CHECK(!fp_nic_expect_matches("auda", "audz"));
    CHECK(fp_nic_expect_matches("mlx5_0", "mlx5_0:1")); /* a device names its port */
}

/* The audit's link: auda on fpa-h1, audz on fpa-h2, each carrying 100.2% of its node's payload. */
static void judge(const char *spec, fp_evidence_t *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->payload = 2e6;
    snprintf(ev->summary, sizeof ev->summary, "inter-node payload 2.0 MB: auda@fpa-h1 100.2%%, audz@fpa-h2 100.2%%");
    char pattern[2][64];
    fp_nic_node_t nodes[2] = {{"fpa-h1", 1e6, 0, 0, 0}, {"fpa-h2", 1e6, 0, 0, 0}};
    const char *nic[2] = {"auda", "audz"};
    for (int i = 0; i < 2; i++) {
        nodes[i].named = fp_nic_expect_pattern(spec, nodes[i].node, pattern[i], sizeof pattern[i]);
        nodes[i].through = nodes[i].named && fp_nic_expect_matches(pattern[i], nic[i]) ? 1.002e6 : 0;
    }
    fp_nic_judge(ev, spec, nodes, 2, 1048576);
}

static void test_judge(void)
{
    fp_evidence_t ev;
    judge("fpa-h1:auda,fpa-h2:audz", &ev);
    CHECK(ev.nic_verdict == FP_VERDICT_PASS && ev.nic_why[0] == '\0');
    judge("aud*", &ev);
    CHECK(ev.nic_verdict == FP_VERDICT_PASS);
    judge("auda", &ev); /* one name on every node: fpa-h2 has none of it */
    CHECK(ev.nic_verdict == FP_VERDICT_FAIL);
    CHECK(strstr(ev.nic_why, "size 1048576: fpa-h2 0.0% through auda (--expect-nic auda needs >= 90% of each "
                             "node's inter-node payload); inter-node payload 2.0 MB") == ev.nic_why);
    judge("fpa-h1:auda", &ev);
    CHECK(ev.nic_verdict == FP_VERDICT_FAIL && strstr(ev.nic_why, "fpa-h2: no NIC named for it") != NULL);
    memset(&ev, 0, sizeof ev);
    fp_nic_judge(&ev, "auda", NULL, 0, 64); /* all ranks on one node: nothing had to cross */
    CHECK(ev.nic_verdict == FP_VERDICT_FAIL && strstr(ev.nic_why, "size 64: nothing had to cross auda") == ev.nic_why);
    fp_nic_judge(&ev, NULL, NULL, 0, 64);
    CHECK(ev.nic_verdict == FP_VERDICT_NONE);
}

/* A NIC that counted more than the run can account for was shared with other traffic: said in
 * the path line, never a pass of --expect-nic through it. */
static void test_other_traffic(void)
{
    /* the allowance: 1.5 x the bytes, 1 KiB per message (and one more), 256 KiB */
    CHECK_NEAR(fp_wire_allowance(0, 1024), 1024 + 262144, 0);
    CHECK_NEAR(fp_wire_allowance(4e6, 1000), 1.5 * 4e6 + 1024 * 4001 + 262144, 1e-6);
    CHECK_NEAR(fp_wire_allowance(1e9, 1 << 20), 1.5e9 + 1024 * (1e9 / (1 << 20) + 1) + 262144, 1e-3);
    fp_evidence_t ev;
    memset(&ev, 0, sizeof ev);
    snprintf(ev.node, sizeof ev.node, "vm");
    ev.nnics = 1;
    fp_path_nic_t *lo = &ev.nics[0];
    snprintf(lo->node, sizeof lo->node, "vm");
    snprintf(lo->name, sizeof lo->name, "lo");
    lo->share = NAN;
    lo->bytes = 568.1e6;
    lo->accountable = 4e6;
    lo->other_traffic = 1;
    fp_path_describe(&ev);
    CHECK_STR(ev.summary, "no inter-node payload (all ranks on vm); NICs that moved anyway: lo@vm 568.1 MB (other "
                          "traffic: 142 x all this run moved on vm); a NIC shared with other traffic: no path claim "
                          "from it");
    lo->other_traffic = 0;
    fp_path_describe(&ev);
    CHECK_STR(ev.summary, "no inter-node payload (all ranks on vm); NICs that moved anyway: lo@vm 568.1 MB");
    /* --expect-nic through a shared NIC: inconclusive, the node named */
    judge("aud*", &ev);
    fp_nic_node_t nodes[2] = {{"fpa-h1", 1e6, 1.002e6, 1, 0}, {"fpa-h2", 1e6, 1.002e6, 1, 1}};
    fp_nic_judge(&ev, "aud*", nodes, 2, 4096);
    CHECK(ev.nic_verdict == FP_VERDICT_INCONCLUSIVE);
    CHECK(strstr(ev.nic_why, "size 4096: the NIC --expect-nic aud* names on fpa-h2 carried other traffic too: this "
                             "run's share of it cannot be told; ") == ev.nic_why);
    nodes[1].through = 0; /* short of the payload: a fail whatever else the NIC carried */
    fp_nic_judge(&ev, "aud*", nodes, 2, 4096);
    CHECK(ev.nic_verdict == FP_VERDICT_FAIL);
}

static void put_nic(fp_evidence_t *ev, const char *node, const char *name, double share, double bps, int virt)
{
    fp_path_nic_t *n = &ev->nics[ev->nnics++];
    snprintf(n->node, sizeof n->node, "%s", node);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->share = share;
    n->bytes = share * 1e6;
    n->line_rate_bps = bps;
    n->is_virtual = virt;
}

/* Traffic split over a 100G and a 25G NIC: each NIC against its own line rate, the node's line
 * rate their sum; a veth's nominal speed is no line rate. */
/* Rank 0's node h1, 2 MB of payload, no NIC yet. */
static void fresh_h1(fp_evidence_t *ev)
{
    memset(ev, 0, sizeof *ev);
    snprintf(ev->node, sizeof ev->node, "h1");
    ev->payload = 2e6;
}

static void test_rates(void)
{
    fp_metric_t mbps = {.line_rate_divisor = 8e6}; /* MB/s */
    fp_bench_t bw = {.metric = &mbps, .directions = 1};
    fp_evidence_t ev;
    fresh_h1(&ev);
    put_nic(&ev, "h1", "ens1", 0.6, 100e9, 0);
    put_nic(&ev, "h1", "ens2", 0.4, 25e9, 0);
    put_nic(&ev, "h2", "ens1", 1.0, 100e9, 0);
    fp_path_rates(&ev, &bw, 5000); /* 5000 MB/s in all */
    CHECK_NEAR(ev.nics[0].rate, 3000, 1e-9);
    CHECK_NEAR(ev.nics[0].efficiency, 3000 / 12500.0, 1e-12); /* 100G = 12500 MB/s */
    CHECK_NEAR(ev.nics[1].rate, 2000, 1e-9);
    CHECK_NEAR(ev.nics[1].efficiency, 2000 / 3125.0, 1e-12); /* 25G = 3125 MB/s, not 100G's */
    CHECK_NEAR(ev.path_line_rate_bps, 125e9, 1);
    CHECK_STR(ev.path_line_rate_from, "ens1+ens2");

    /* RoCE: the port and its netdev count the same bytes; the wire's rate is counted once. */
    fresh_h1(&ev);
    put_nic(&ev, "h1", "ens1f0", 1.0, 200e9, 0);
    put_nic(&ev, "h1", "mlx5_1:1", 1.0, 200e9, 0);
    snprintf(ev.nics[1].netdev, sizeof ev.nics[1].netdev, "ens1f0");
    fp_path_rates(&ev, &bw, 5000);
    CHECK_NEAR(ev.path_line_rate_bps, 200e9, 1);
    CHECK_STR(ev.path_line_rate_from, "mlx5_1:1");

    fresh_h1(&ev);
    put_nic(&ev, "h1", "fpveth0", 1.0, 0, 1);
    fp_path_rates(&ev, &bw, 900);
    CHECK(isnan(ev.nics[0].efficiency) && ev.nics[0].rate == 900);
    CHECK(ev.path_line_rate_bps == 0);
    CHECK_STR(ev.path_line_rate_from, "none: fpveth0 virtual (no device: a nominal speed only)");
}

/* What the wire carried: bytes per operation over the median operation time, the busiest node in
 * its busier direction; a collective whose busbw exceeds it by more than 5% is flagged. */
static void test_wire(void)
{
    fp_metric_t gbps = {.line_rate_divisor = 8e9};    /* GB/s, as busbw */
    fp_coll_t allreduce = {0}; /* a collective: its busbw is judged against the wire */
    fp_bench_t coll = {.metric = &gbps, .directions = 1, .coll = &allreduce};
    fp_evidence_t ev;
    fresh_h1(&ev);
    put_nic(&ev, "h1", "ens1", 1.0, 100e9, 0);
    ev.nics[0].tx = 2e9; /* 1000 operations of 1 ms: 2 MB sent and 1 MB received per operation */
    ev.nics[0].rx = 1e9;
    fp_wire_node_t nodes[2] = {{"h1", 2e9, 1e9, 0}, {"h2", 1e9, 2.5e9, 0}};
    fp_wire_rates(&ev, nodes, 2, &coll, 1000, 1e-3, 2.0);
    CHECK_NEAR(ev.nics[0].wire, 2e9, 1e-3);             /* 2 GB/s out */
    CHECK_NEAR(ev.nics[0].wire_efficiency, 16e9 / 100e9, 1e-12);
    CHECK_NEAR(ev.net, 2.5e9, 1e-3);                    /* h2 received 2.5 MB per operation */
    CHECK_NEAR(ev.net_in_unit, 2.5, 1e-12);
    CHECK_STR(ev.net_node, "h2");
    CHECK(!ev.above_wire);
    CHECK_STR(ev.wire_line, "net 2.5 GB/s (h2, its busier direction); busbw 2 GB/s");

    /* busbw 3 GB/s where the busiest node carried 2.5: the algorithm moved less than busbw assumes */
    fp_wire_rates(&ev, nodes, 2, &coll, 1000, 1e-3, 3.0);
    CHECK(ev.above_wire);
    CHECK_STR(ev.wire_line, "net 2.5 GB/s (h2, its busier direction); busbw 3 GB/s is above what the NICs carried "
                            "(1.20x): the algorithm moved less over the network than busbw assumes (a tree, a "
                            "reduction in the switch, or traffic kept inside nodes)");
    /* within 5%: headers and timing, not flagged */
    fp_wire_rates(&ev, nodes, 2, &coll, 1000, 1e-3, 2.6);
    CHECK(!ev.above_wire);
    CHECK_NEAR(ev.net_over_busbw, 2.5 / 2.6, 1e-12);
    /* twice what busbw counts (reduce + scatterv on 2 ranks) */
    fp_wire_rates(&ev, nodes, 2, &coll, 1000, 1e-3, 1.25);
    CHECK(!ev.above_wire);
    CHECK_STR(ev.wire_line, "net 2.5 GB/s (h2, its busier direction); busbw 1.25 GB/s; the NICs carried 2.00x busbw: "
                            "the algorithm or the rank placement moved more over the network than busbw counts");
    /* a node shared with other traffic: an upper bound, never flagged */
    nodes[1].shared = 1;
    fp_wire_rates(&ev, nodes, 2, &coll, 1000, 1e-3, 3.0);
    CHECK(!ev.above_wire);
    CHECK_STR(ev.wire_line, "net 2.5 GB/s (h2, its busier direction); an upper bound: other traffic shared its NICs; "
                            "busbw 3 GB/s");

    /* bibw: both directions count against the headline; MB/s; no busbw */
    fp_metric_t mbps = {.line_rate_divisor = 8e6};
    fp_bench_t bibw = {.metric = &mbps, .directions = 2};
    nodes[1].shared = 0;
    fp_wire_rates(&ev, nodes, 2, &bibw, 1000, 1e-3, 3000);
    CHECK_NEAR(ev.net_in_unit, 3500, 1e-9);
    CHECK_STR(ev.wire_line, "net 3500 MB/s (h2, sent + received)");
    CHECK(isnan(ev.net_over_busbw));
    CHECK_STR(fp_net_key(&mbps), "net_mbps");
    CHECK_STR(fp_net_key(&gbps), "net_gbps");

    /* one host (no node passed), an unknown counter, or no operation: nothing */
    fp_wire_rates(&ev, nodes, 0, &coll, 1000, 1e-3, 3.0);
    CHECK(isnan(ev.net) && ev.wire_line[0] == '\0' && !ev.above_wire);
    fp_wire_node_t unknown[1] = {{"h1", -1, 5e6, 0}};
    fp_wire_rates(&ev, unknown, 1, &coll, 1000, 1e-3, 3.0);
    CHECK(isnan(ev.net));
    fp_wire_rates(&ev, nodes, 2, &coll, 0, 1e-3, 3.0);
    CHECK(isnan(ev.net));
}

int main(void)
{
    test_wire();
    test_rates();
    test_check();
    test_pattern();
    test_judge();
    test_other_traffic();
    return CHECK_DONE();
}
