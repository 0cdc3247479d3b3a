/* Reference loops for checking that fabperf does not perturb what it measures: the bare
 * ping-pong and window loops, timed as a whole, no per-iteration work.
 * Usage: fabperf_reference latency|bw|bibw SIZE[,SIZE...] ITERATIONS WARMUP [WINDOW]
 * Sizes run in order in one process, as fabperf sweeps them.
 * Prints "SIZE VALUE" per size: mean one-way latency in us, or MB/s (1e6 B/s). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pingpong(int rank, char *s, char *r, int size, long n)
{
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(s, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(r, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(r, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(s, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
}

static void windows(int rank, char *s, char *r, int size, long n, int w, MPI_Request *req)
{
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            for (int j = 0; j < w; j++)
                MPI_Isend(s, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &req[j]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Recv(r, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int j = 0; j < w; j++)
                MPI_Irecv(r, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req[j]);
            MPI_Waitall(w, req, MPI_STATUSES_IGNORE);
            MPI_Send(s, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
    }
}

static void bidirectional(int rank, char *s, char *r, int size, long n, int w, MPI_Request *req)
{
    int peer = 1 - rank;
    for (long i = 0; i < n; i++) {
        for (int j = 0; j < w; j++)
            MPI_Irecv(r, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[j]);
        for (int j = 0; j < w; j++)
            MPI_Isend(s, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w + j]);
        MPI_Waitall(2 * w, req, MPI_STATUSES_IGNORE);
    }
}

static void run(const char *mode, int rank, char *s, char *r, int size, long n, int w, MPI_Request *req)
{
    if (strcmp(mode, "latency") == 0)
        pingpong(rank, s, r, size, n);
    else if (strcmp(mode, "bw") == 0)
        windows(rank, s, r, size, n, w, req);
    else
        bidirectional(rank, s, r, size, n, w, req);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: %s latency|bw|bibw SIZE ITERATIONS WARMUP [WINDOW]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const char *mode = argv[1];
    int window = argc > 5 ? atoi(argv[5]) : 64, sizes[64], nsizes = 0, largest = 1;
    long iterations = atol(argv[3]), warmup = atol(argv[4]);
    for (char *p = argv[2]; *p && nsizes < 64; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p)) {
        sizes[nsizes] = atoi(p);
        largest = sizes[nsizes] > largest ? sizes[nsizes] : largest;
        nsizes++;
    }
    size_t alloc = ((size_t)largest + 4095) / 4096 * 4096;
    char *s = aligned_alloc(4096, alloc), *r = aligned_alloc(4096, alloc);
    MPI_Request *req = malloc(2 * (size_t)window * sizeof *req);
    memset(s, 1, alloc);
    memset(r, 0, alloc);
    for (int k = 0; k < nsizes; k++) {
        int size = sizes[k];
        run(mode, rank, s, r, size, warmup, window, req);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        run(mode, rank, s, r, size, iterations, window, req);
        double elapsed = MPI_Wtime() - start;
        if (rank == 0) {
            if (strcmp(mode, "latency") == 0)
                printf("%d %.4f\n", size, elapsed * 1e6 / (2.0 * (double)iterations));
            else
                printf("%d %.2f\n", size, (strcmp(mode, "bibw") == 0 ? 2.0 : 1.0) * size * window * iterations / elapsed / 1e6);
        }
    }
    free(s);
    free(r);
    free(req);
    MPI_Finalize();
    return 0;
}
