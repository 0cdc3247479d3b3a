/* One GPU per rank (gpu_share.h). */
#include "gpu_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

int fp_gpu_share_check(const char *const *hosts, const char *const *bus_ids, int n, const char *option, char *err,
                       size_t errlen)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; bus_ids[i][0] && j < n; j++)
            if (strcmp(bus_ids[i], bus_ids[j]) == 0 && strcmp(hosts[i], hosts[j]) == 0) {
                snprintf(err, errlen, "%s: ranks %d and %d share the GPU %.40s on %.100s, and NCCL needs one GPU "
                         "per rank (accepted: at most as many ranks per node as GPUs, each on its own)",
                         option, i, j, bus_ids[i], hosts[i]);
                return FP_ERR;
            }
    return FP_OK;
}

typedef struct gpu_record {
    char host[MPI_MAX_PROCESSOR_NAME + 1];
    char bus_id[64];
} gpu_record_t;

int fp_gpu_per_rank_check(fp_run_t *run, char *err, size_t errlen)
{
    int n = run->ctx.nranks, len = 0, rc = FP_OK;
    gpu_record_t mine;
    memset(&mine, 0, sizeof mine);
    MPI_Get_processor_name(mine.host, &len);
    const char *nccl_host = getenv("NCCL_HOSTID"); /* NCCL tells hosts apart by it where set */
    if (nccl_host && nccl_host[0])
        snprintf(mine.host, sizeof mine.host, "NCCL_HOSTID=%s", nccl_host);
    fp_gpu_bus_id(mine.bus_id, sizeof mine.bus_id);
    gpu_record_t *all = malloc((size_t)n * sizeof *all);
    const char **hosts = malloc((size_t)n * sizeof *hosts), **bus_ids = malloc((size_t)n * sizeof *bus_ids);
    int ok = all && hosts && bus_ids, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, run->ctx.comm);
    if (!all_ok) {
        snprintf(err, errlen, "malloc for the GPUs of %d ranks failed", n);
        rc = FP_ERR;
    } else {
        MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, run->ctx.comm);
        for (int i = 0; i < n; i++) {
            hosts[i] = all[i].host;
            bus_ids[i] = all[i].bus_id;
        }
        rc = fp_gpu_share_check(hosts, bus_ids, n, run->gpu_per_rank, err, errlen);
    }
    free(all);
    free(hosts);
    free(bus_ids);
    return rc;
}
