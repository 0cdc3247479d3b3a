/* MPI_Init with and without the capture of UCX's log (evidence/ucx_capture.c) around it, for
 * bench/ucx-capture-cost.sh: rank 0 prints "MODE INIT_MS READ_MS ITEMS", the slowest rank's
 * MPI_Init (capture set-up included) and the read of the log that precedes a run's header. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ucx_capture.h"

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int capture = argc > 1 && atoi(argv[1]) == 1, rank;
    double start = seconds();
    fp_ucx_capture_start(capture);
    MPI_Init(&argc, &argv);
    fp_ucx_capture_started();
    double started = seconds();
    const fp_ucx_selection_t *s = fp_ucx_capture_read();
    double mine[2] = {started - start, seconds() - started}, slowest[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%d %.3f %.3f %d\n", capture, slowest[0] * 1e3, slowest[1] * 1e3,
               s ? s->nendpoints + s->nprotocols : -1);
    MPI_Finalize();
    return 0;
}
