/* Preflight's comparison of facts between nodes and the wording of its rows. */
#include <stdlib.h>

#include "check.h"
#include "preflight.h"

/* Two nodes with one UCX transports row each, then compared: the summary's findings. */
static size_t ucx_findings(const char *a, const char *b, pf_node_t *summary)
{
    pf_node_t nodes[2] = {{.node = "n1"}, {.node = "n2"}};
    const char *values[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        pf_fact(&nodes[i], "node", "ucx transports", PF_SAME_WARN, "%s", values[i]);
        pf_fact_fix(&nodes[i], 0, "install one UCX on every node");
        pf_fact_set(&nodes[i]);
    }
    memset(summary, 0, sizeof *summary);
    pf_compare_nodes(nodes, 2, summary);
    for (int i = 0; i < 2; i++)
        pf_node_free(&nodes[i]);
    return summary->nfindings;
}

static void test_sets(void)
{
    pf_node_t summary;
    /* One UCX listing its devices in another order: no finding. */
    CHECK(ucx_findings("self/memory0 tcp/eth0 tcp/lo sysv/memory", "tcp/lo sysv/memory self/memory0 tcp/eth0",
                       &summary) == 0);
    pf_node_free(&summary);
    /* A transport missing on one node: a warning naming it, values as the nodes list them. */
    CHECK(ucx_findings("self/memory0 tcp/eth0 rc_mlx5/mlx5_0:1", "tcp/eth0 self/memory0", &summary) == 2);
    CHECK(summary.nfindings == 2 && summary.findings[0].level == PF_WARN);
    if (summary.nfindings)
        CHECK(strstr(summary.findings[0].text, "ucx transports is 'self/memory0 tcp/eth0 rc_mlx5/mlx5_0:1' here but "
                                               "'tcp/eth0 self/memory0' on n2; fix: install one UCX") != NULL);
    pf_node_free(&summary);
    char canon[64];
    pf_set_canonical("b a  c", canon, sizeof canon);
    CHECK_STR(canon, "a b c");
}

static void test_not_built(void)
{
    static const pf_library_t ucx = {"UCX", "uct/api/uct.h", "uct", "libucx-dev", "ucx"};
    char text[320];
    pf_not_built(&ucx, "header", text, sizeof text);
    CHECK_STR(text, "not built: UCX headers not found (uct/api/uct.h; apt-get install libucx-dev, then configure "
                    "--with-ucx)");
    pf_not_built(&ucx, "library", text, sizeof text);
    CHECK_STR(text, "not built: UCX library not found (libuct; apt-get install libucx-dev, then configure --with-ucx)");
    pf_not_built(&ucx, "disabled", text, sizeof text);
    CHECK_STR(text, "not built: configured --without-ucx (configure --with-ucx)");
}

int main(void)
{
    test_sets();
    test_not_built();
    return CHECK_DONE();
}
