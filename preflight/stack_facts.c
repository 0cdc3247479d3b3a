/* The software stack a node runs with: MPI, libfabric, UCX, NCCL and its network plugin. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preflight.h"
#include "provenance.h"

/* NCCL loads NCCL_NET_PLUGIN as libnccl-net-NAME.so (or the name as given), else libnccl-net.so. */
static void net_plugin_fact(pf_node_t *node)
{
    const char *want = getenv("NCCL_NET_PLUGIN");
    char names[2][256];
    int count = 0;
    if (want && *want) {
        snprintf(names[count++], sizeof names[0], "libnccl-net-%s.so", want);
        snprintf(names[count++], sizeof names[0], "%s", want);
    } else {
        snprintf(names[count++], sizeof names[0], "libnccl-net.so");
    }
    for (int i = 0; i < count; i++) {
        void *handle = dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);
        if (handle) {
            dlclose(handle);
            pf_fact(node, "node", "nccl net plugin", PF_SAME_FAIL, "%s found", names[i]);
            pf_fact_fix(node, 0, "install the same NCCL network plugin on every node");
            return;
        }
    }
    pf_fact(node, "node", "nccl net plugin", PF_SAME_FAIL, "%s not found (NCCL uses its own IB or socket)",
            names[0]);
    pf_fact_fix(node, 0, "install the same NCCL network plugin on every node");
}

void pf_gather_stack(pf_node_t *node, const pf_where_t *where)
{
    (void)where;
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    if (MPI_Get_library_version(text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "unknown");
    text[strcspn(text, "\n,")] = '\0';
    pf_fact(node, "node", "mpi library", PF_SAME_FAIL, "%s", text);
    pf_fact_fix(node, 0, "use one MPI build on every node");
    pf_fact(node, "node", "mpi cuda-aware", PF_SAME_FAIL, "%s", fp_mpi_cuda_aware());
    pf_fact_fix(node, 0, "use one MPI build on every node");
    char summary[200];
    pf_libfabric_providers(summary, sizeof summary);
    pf_fact(node, "node", "libfabric providers", PF_SAME_WARN, "%s", summary);
    pf_fact_fix(node, 0, "install one libfabric on every node");
    pf_ucx_resources(summary, sizeof summary);
    pf_fact(node, "node", "ucx transports", PF_SAME_WARN, "%s", summary);
    pf_fact_fix(node, 0, "install one UCX on every node");
    pf_fact_set(node); /* UCX lists its devices in the order it finds them, which varies */
    pf_nccl_version(summary, sizeof summary);
    pf_fact(node, "node", "nccl", PF_SAME_FAIL, "%s", summary);
    pf_fact_fix(node, 0, "use one NCCL version on every node");
    net_plugin_fact(node);
}
