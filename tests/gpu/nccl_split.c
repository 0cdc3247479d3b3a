/* fp_nccl_split on a GPU, the call --isolate makes for each round with --backend nccl: the job's
 * communicator (every rank, one GPU each) split into groups of two ranks (one group where the job
 * has one rank), an allreduce on each group's communicator checked element by element, and a
 * split where the last rank is in no group (color -1: no communicator). Prints one line per check;
 * exit 0 when all hold. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "nccl_comm.h"

#define COUNT (1 << 20)

static int failures;

static void say(int rank, int ok, const char *what)
{
    printf("%s - rank %d: %s\n", ok ? "ok" : "not ok", rank, what);
    failures += !ok;
}

int main(int argc, char **argv)
{
    int rank, nranks, devices = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP: no GPU\n");
        MPI_Finalize();
        return 77;
    }
    cudaSetDevice(rank % devices);
    fp_nccl_t world = {0}, group = {0};
    ncclUniqueId id;
    if (rank == 0)
        ncclGetUniqueId(&id);
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    cudaStreamCreate(&world.stream);
    say(rank, ncclCommInitRank(&world.comm, nranks, id, rank) == ncclSuccess, "ncclCommInitRank");
    /* Groups of two: ranks 0-1, 2-3, ...; within a group the higher rank first (key), as a lead. */
    int color = rank / 2, key = -rank, size = 0, group_rank = -1;
    int split = fp_nccl_split(&world, color, key, &group);
    if (split != FP_OK)
        printf("  %s\n", fp_error_message());
    say(rank, split == FP_OK && group.comm != NULL && group.stream == world.stream, "split into groups of two");
    if (group.comm) {
        ncclCommCount(group.comm, &size);
        ncclCommUserRank(group.comm, &group_rank);
    }
    int want_size = nranks - 2 * color >= 2 ? 2 : 1, want_rank = want_size == 2 ? 1 - rank % 2 : 0;
    say(rank, size == want_size && group_rank == want_rank, "the group's size, and its ranks ordered by key");
    float *buf = NULL, *host = malloc(COUNT * sizeof *host);
    for (int i = 0; i < COUNT; i++)
        host[i] = (float)(rank + 1);
    cudaMalloc((void **)&buf, COUNT * sizeof *buf);
    cudaMemcpy(buf, host, COUNT * sizeof *buf, cudaMemcpyHostToDevice);
    int ok = group.comm && ncclAllReduce(buf, buf, COUNT, ncclFloat, ncclSum, group.comm, group.stream) == ncclSuccess &&
             fp_nccl_wait(&group) == FP_OK &&
             cudaMemcpy(host, buf, COUNT * sizeof *buf, cudaMemcpyDeviceToHost) == cudaSuccess;
    float sum = 0;
    for (int r = 2 * color; r < 2 * color + want_size; r++)
        sum += (float)(r + 1);
    for (int i = 0; ok && i < COUNT; i++)
        ok = host[i] == sum;
    say(rank, ok, "an allreduce on the group's communicator: every element the group's sum");
    fp_nccl_close(&group);
    /* The last rank in no group: no communicator for it, the others' groups as before. */
    int outside = rank == nranks - 1;
    split = fp_nccl_split(&world, outside ? -1 : 0, rank, &group);
    say(rank, split == FP_OK && (group.comm == NULL) == outside, outside ? "color -1: no communicator" : "color 0: a communicator");
    fp_nccl_close(&group);
    fp_nccl_close(&world);
    cudaFree(buf);
    free(host);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return all ? 1 : 0;
}
