/* Topology input: host lists, fabperf's own format, Slurm's topology.conf and ibnetdiscover's
 * output (written from their documentation), and every refusal as one line with file and line. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hostlist.h"
#include "topology.h"

static int append(const char *name, void *arg)
{
    char *out = arg;
    if (strlen(out) + strlen(name) + 2 > 512)
        return 1;
    strcat(out, out[0] ? " " : "");
    strcat(out, name);
    return 0;
}

static int count_names(const char *name, void *arg)
{
    (void)name;
    ++*(size_t *)arg;
    return 0;
}

static const char *expand(const char *expr)
{
    static char out[512], err[256];
    out[0] = '\0';
    if (fp_hostlist_each(expr, append, out, err, sizeof err) != 0)
        snprintf(out, sizeof out, "error: %s", err);
    return out;
}

static void test_hostlist(void)
{
    CHECK_STR(expand("n[01-04]"), "n01 n02 n03 n04");
    CHECK_STR(expand("dev[8-11]"), "dev8 dev9 dev10 dev11");
    CHECK_STR(expand("rack[1-2]n[1,3]"), "rack1n1 rack1n3 rack2n1 rack2n3");
    CHECK_STR(expand("a,b[1-2],c"), "a b1 b2 c");
    CHECK_STR(expand("gpu[007-009]x"), "gpu007x gpu008x gpu009x");
    CHECK_STR(expand("n[3-1]"), "error: 'n[3-1]': range 3-1 runs backwards");
    CHECK_STR(expand("n[1-2"), "error: 'n[1-2': '[' without ']'");
    CHECK_STR(expand("n]1"), "error: 'n]1': ']' without '['");
    CHECK_STR(expand("n[]"), "error: 'n[]': an empty bracket");
    CHECK_STR(expand("n[a]"), "error: 'n[a]': a bracket holds numbers and ranges (n[1-4,7])");
    CHECK_STR(expand("a,,b"), "error: '': an empty name in the list");
    char err[256];
    size_t names = 0;
    CHECK(fp_hostlist_each("n[1-2000000]", count_names, &names, err, sizeof err) == -1);
    CHECK_STR(err, "'n[1-2000000]': expands to more than 1000000 names");
    CHECK(names == 1000000);
}

static const char *parse(const char *text, fp_topology_t *t)
{
    static char err[512];
    err[0] = '\0';
    if (fp_topology_parse(text, "topo.txt", t, err, sizeof err) != 0)
        return err;
    return "";
}

static const char *switch_of(const fp_topology_t *t, const char *node)
{
    int s = fp_topology_switch_of(t, node);
    return s < 0 ? "-" : t->sw[s].name;
}

static const char *parent_of(const fp_topology_t *t, const char *sw)
{
    int s = fp_topo_find_switch(t, sw);
    return s < 0 ? "?" : t->sw[s].parent < 0 ? "-" : t->sw[t->sw[s].parent].name;
}

/* A fixture of tests/data/topology, read as a file. */
static const char *read_fixture(const char *file, fp_topology_t *t)
{
    static char path[1024], err[512];
    snprintf(path, sizeof path, "%s/topology/%s", FP_DATA_DIR, file);
    err[0] = '\0';
    if (fp_topology_read(path, t, err, sizeof err) != 0) {
        const char *base = strstr(err, "data/topology/"); /* the error without the tree's own path */
        return base ? base : err;
    }
    return "";
}

static void test_fabperf_format(void)
{
    fp_topology_t t;
    CHECK_STR(parse("# two leaves under one spine\n"
                    "switch spine1\n"
                    "switch leaf1 parent=spine1\n"
                    "switch leaf2 parent=spine1   # the second rack\n"
                    "node n[01-03] switch=leaf1\n"
                    "node n[04-06] switch=leaf2\n"
                    "nic n01:mlx5_0 rail=0\n"
                    "nic n01:mlx5_1 rail=1\n",
                    &t),
              "");
    CHECK_STR(t.format ? t.format : "none", "fabperf");
    CHECK(t.nsw == 3 && t.nnode == 6 && t.nnic == 2);
    CHECK_STR(switch_of(&t, "n02"), "leaf1");
    CHECK_STR(switch_of(&t, "n06"), "leaf2");
    CHECK_STR(switch_of(&t, "n07"), "-");
    CHECK_STR(parent_of(&t, "leaf2"), "spine1");
    CHECK(fp_topology_depth(&t, fp_topo_find_switch(&t, "leaf2")) == 1);
    CHECK(t.nic[1].rail[0] == '1' && strcmp(t.nic[1].nic, "mlx5_1") == 0);
    fp_topology_free(&t);
    static const char *const bad[][2] = {
        {"switch leaf1 parent=spine\n", "topo.txt:1: parent 'spine' of switch 'leaf1' is not declared above it"},
        {"switch s\nnode n1\n", "topo.txt:2: node 'n1' without switch="},
        {"switch s\nnode n1 switch=t\n", "topo.txt:2: switch 't' of node 'n1' is not declared above it"},
        {"switch s\nswitch s\n", "topo.txt:2: switch 's' declared twice"},
        {"switch s\nswitch t\nnode n1 switch=s\nnode n[1-2] switch=t\n",
         "topo.txt:4: node 'n1' hangs from two switches, 's' and 't'"},
        {"rack r1\n", "topo.txt:1: 'rack' is not a statement (accepted: switch NAME [parent=SWITCH], node HOSTLIST "
                      "switch=SWITCH, nic NODE:NIC rail=ID)"},
        {"switch s\nnode n1 switch=s rail=2\n", "topo.txt:2: 'rail=2' in a node statement (accepted: switch=VALUE, once)"},
        {"switch s\nnode n1 switch=s\nnic n1 rail=0\n", "topo.txt:3: NIC 'n1' is not NODE:NIC (n01:mlx5_0)"},
        {"switch s\nnode n[2-1] switch=s\n", "topo.txt:2: 'n[2-1]': range 2-1 runs backwards"},
        {"# nothing\n\n", "topo.txt: no switch or node in it (empty, or only comments)"},
        {"switch s\n", "topo.txt: no node in it (fabperf format: 1 switch(es), none with nodes)"},
        {"switch s\nnode n[1-200001] switch=s\n", "topo.txt:2: more than 200000 nodes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_STR(parse(bad[i][0], &t), bad[i][1]);
        fp_topology_free(&t);
    }
}

static void test_slurm(void)
{
    fp_topology_t t;
    /* the tree plugin's example: three leaves of six nodes under one switch */
    CHECK_STR(read_fixture("slurm-tree.conf", &t), "");
    CHECK_STR(t.format ? t.format : "none", "slurm");
    CHECK(t.nsw == 4 && t.nnode == 18);
    CHECK_STR(switch_of(&t, "dev7"), "s1");
    CHECK_STR(switch_of(&t, "dev17"), "s2");
    CHECK_STR(parent_of(&t, "s0"), "s3");
    CHECK_STR(parent_of(&t, "s3"), "-");
    fp_topology_free(&t);
    /* children named before their own line */
    CHECK_STR(parse("SwitchName=top Switches=l1,l2\nSwitchName=l1 Nodes=a[1-2]\nSwitchName=l2 Nodes=b1\n", &t), "");
    CHECK_STR(parent_of(&t, "l2"), "top");
    fp_topology_free(&t);
    static const char *const bad[][2] = {
        {"SwitchName=s0 Nodes=a1 Weight=3\n",
         "topo.txt:1: 'Weight=' is not a key of a tree topology (accepted: SwitchName, Switches, Nodes, LinkSpeed)"},
        {"SwitchName=s0 Nodes=a1\nNodes=a2\n", "topo.txt:2: a line without SwitchName="},
        {"SwitchName=s0 Nodes=a1\nSwitchName=s1 Switches=s[0-2]\n",
         "topo.txt:2: switch 's2' in Switches= of 's1' has no SwitchName= line"},
        {"SwitchName=s0 Nodes=a1\nSwitchName=s1 Switches=s0\nSwitchName=s2 Switches=s0\n",
         "topo.txt:3: switch 's0' is under two switches, 's1' and 's2' (a tree has one parent)"},
        {"SwitchName=s0 Nodes=a1 Switches=s1\nSwitchName=s1 Switches=s0\n",
         "topo.txt: switch 's0' is its own ancestor (its parents run in a circle)"},
        {"SwitchName=s0 Nodes=a1\nSwitchName=s0 Nodes=a2\n", "topo.txt:2: switch 's0' has two SwitchName= lines"},
        {"SwitchName=s0 Nodes\n", "topo.txt:1: 'Nodes' is not KEY=VALUE"},
        {"SwitchName=b0 BlockName=x\n", "topo.txt:1: BlockName= belongs to the block plugin's topology, not a tree of switches"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CHECK_STR(parse(bad[i][0], &t), bad[i][1]);
        fp_topology_free(&t);
    }
}

static void test_ibnetdiscover(void)
{
    fp_topology_t t;
    /* two leaf switches of two hosts each, each joined to one spine by two links; host a01 has a
     * second adapter on the other leaf (a second rail) */
    CHECK_STR(read_fixture("fabric.ibnet", &t), "");
    CHECK_STR(t.format ? t.format : "none", "ibnetdiscover");
    CHECK(t.nsw == 3 && t.nnode == 4 && t.nnic == 5);
    CHECK_STR(switch_of(&t, "a02"), "leaf-a");
    CHECK_STR(switch_of(&t, "b01"), "leaf-b");
    CHECK_STR(switch_of(&t, "a01"), "leaf-a"); /* its first adapter's leaf */
    CHECK_STR(parent_of(&t, "leaf-a"), "spine");
    CHECK_STR(parent_of(&t, "spine"), "-");
    int rails = 0;
    for (size_t i = 0; i < t.nnic; i++)
        if (strcmp(t.nic[i].node, "a01") == 0)
            rails += strcmp(t.nic[i].nic, "mlx5_0") == 0 ? strcmp(t.nic[i].rail, "leaf-a") == 0
                                                          : 2 * (strcmp(t.nic[i].rail, "leaf-b") == 0);
    CHECK(rails == 3);
    fp_topology_free(&t);
    CHECK_STR(parse("vendid=0x2c9\nSwitch\t36 S-0002c9\n", &t), "topo.txt:2: a node line without its \"S-guid\" or \"H-guid\"");
    fp_topology_free(&t);
}

static void test_read(void)
{
    fp_topology_t t;
    CHECK_STR(read_fixture("bad-undeclared.txt", &t),
              "data/topology/bad-undeclared.txt:2: switch 't' of node 'n1' is not declared above it");
    fp_topology_free(&t);
    char err[512];
    CHECK(fp_topology_read("/nonexistent/topo.conf", &t, err, sizeof err) == -1);
    CHECK_STR(err, "/nonexistent/topo.conf: No such file or directory");
    fp_topology_free(&t);
}

int main(void)
{
    test_hostlist();
    test_fabperf_format();
    test_slurm();
    test_ibnetdiscover();
    test_read();
    return CHECK_DONE();
}
