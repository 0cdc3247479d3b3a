#define _GNU_SOURCE
#include "placement.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

void fp_cpu_list(const void *set, size_t setsize, char *out, size_t len)
{
    const cpu_set_t *cpus = set;
    int ncpus = (int)(setsize * 8);
    size_t used = 0;
    out[0] = '\0';
    for (int cpu = 0; cpu < ncpus; cpu++) {
        if (!CPU_ISSET_S((size_t)cpu, setsize, cpus))
            continue;
        int last = cpu;
        while (last + 1 < ncpus && CPU_ISSET_S((size_t)last + 1, setsize, cpus))
            last++;
        char range[32];
        int n = last > cpu ? snprintf(range, sizeof range, "%s%d-%d", used ? "," : "", cpu, last)
                           : snprintf(range, sizeof range, "%s%d", used ? "," : "", cpu);
        if (used + (size_t)n + 4 > len) { /* room for "..." and the NUL */
            snprintf(out + used, len - used, "...");
            return;
        }
        memcpy(out + used, range, (size_t)n + 1);
        used += (size_t)n;
        cpu = last;
    }
}

int fp_cpu_numa_node(int cpu)
{
    char path[64];
    if (cpu < 0)
        return -1;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d", cpu);
    DIR *dir = opendir(path);
    if (!dir)
        return -1;
    int node = -1;
    for (struct dirent *e; (e = readdir(dir));) {
        char *end;
        if (strncmp(e->d_name, "node", 4) != 0)
            continue;
        long n = strtol(e->d_name + 4, &end, 10);
        if (end != e->d_name + 4 && *end == '\0' && n >= 0 && n < 1 << 20) {
            node = (int)n;
            break;
        }
    }
    closedir(dir);
    return node;
}

/* The affinity mask, in a set that grows until the kernel's mask fits (more than 1024 CPUs). */
static void affinity_list(char *out, size_t len)
{
    for (int ncpus = 1024; ncpus <= 1 << 20; ncpus *= 2) {
        cpu_set_t *set = CPU_ALLOC((size_t)ncpus);
        size_t size = CPU_ALLOC_SIZE((size_t)ncpus);
        if (!set)
            break;
        CPU_ZERO_S(size, set);
        int rc = sched_getaffinity(0, size, set);
        if (rc == 0)
            fp_cpu_list(set, size, out, len);
        CPU_FREE(set);
        if (rc == 0)
            return;
    }
    snprintf(out, len, "unknown");
}

int fp_placement_start(fp_placement_t *p, MPI_Comm comm)
{
    int rank, nranks, len = 0;
    fp_place_t mine;
    memset(&mine, 0, sizeof mine);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    FP_MPI_CHECK(MPI_Get_processor_name(mine.host, &len));
    affinity_list(mine.cpus, sizeof mine.cpus);
    mine.cpu_start = sched_getcpu();
    mine.numa_start = fp_cpu_numa_node(mine.cpu_start);
    mine.cpu_end = mine.numa_end = -1;
    fp_gpu_bus_id(mine.gpu, sizeof mine.gpu);
    snprintf(mine.nic, sizeof mine.nic, FP_NIC_UNKNOWN);
    p->nranks = nranks;
    p->ended = 0;
    p->ranks = NULL;
    if (rank == 0 && !(p->ranks = calloc((size_t)nranks, sizeof *p->ranks)))
        return fp_fail("calloc(%d rank placements) failed", nranks);
    /* One build on every rank: the struct's layout is the same everywhere. */
    FP_MPI_CHECK(MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, p->ranks, (int)sizeof mine, MPI_BYTE, 0, comm));
    return FP_OK;
}

int fp_placement_end(fp_placement_t *p, MPI_Comm comm)
{
    int rank, nranks;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nranks);
    int cpu = sched_getcpu();
    int mine[2] = {cpu, fp_cpu_numa_node(cpu)};
    int *all = rank == 0 ? malloc(sizeof mine * (size_t)nranks) : NULL;
    if (rank == 0 && !all)
        return fp_fail("malloc(%d end placements) failed", nranks);
    int rc = MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, 0, comm);
    if (rc != MPI_SUCCESS) {
        free(all);
        return fp_fail_mpi(rc, "MPI_Gather(end placement)", __FILE__, __LINE__);
    }
    if (rank == 0 && p->ranks) {
        for (int r = 0; r < nranks && r < p->nranks; r++) {
            p->ranks[r].cpu_end = all[2 * r];
            p->ranks[r].numa_end = all[2 * r + 1];
        }
        p->ended = 1;
    }
    free(all);
    return FP_OK;
}

void fp_placement_release(fp_placement_t *p)
{
    free(p->ranks);
    p->ranks = NULL;
    p->nranks = 0;
    p->ended = 0;
}
