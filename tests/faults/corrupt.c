/* Fault injection through the MPI profiling interface, for the tests (LD_PRELOAD'ed into ranks).
 *
 * Environment (sizes in bytes, of one received message or collective result buffer):
 *   FP_CORRUPT_SIZE=N  flip one byte (the middle one) of EVERY message of exactly N bytes received,
 *                      so that the validation round at size N is sure to see it; host buffers only.
 *                      Non-blocking receives into one buffer (a window) flip it once, not once
 *                      per message, which would undo the flip for an even window
 *   FP_CORRUPT_NTH=K   with FP_CORRUPT_SIZE: flip only the K-th (from 1) message of that size that a
 *                      blocking receive (MPI_Recv, MPI_Sendrecv) brings to this rank: one message
 *                      among many, e.g. one of a window validated message by message
 *   FP_STALL_SIZE=N    stop for good (sleep) on the first receive of N bytes: a hung peer
 *   FP_DIE_SIZE=N      kill -9 itself on the first receive of N bytes: a dead peer
 *   FP_FREEZE_SIZE=N   SIGSTOP itself on the first receive of N bytes: a rank frozen whole, its
 *                      watchdog too (a node that stopped answering)
 *   FP_HANG_AFTER_SIZE=N  stop for good (sleep) right after the first blocking receive or
 *                      collective of N bytes returns: a rank stuck outside MPI (its own work, a GPU)
 *                      while the others go on to the next operation and wait there for it
 *   FP_INIT_DELAY=S    sleep S seconds inside MPI_Init, every rank: a slow MPI start-up (name
 *                      resolution timing out, a large job's wire-up)
 *   FP_FINALIZE_HANG=1 never return from MPI_Finalize (sleep), FP_FAULT_RANK's rank (default every
 *                      rank): an MPI library stuck at the end, the results already written
 *   FP_FAULT_RANK=R    only this rank of MPI_COMM_WORLD misbehaves (default: every rank for
 *                      FP_CORRUPT_SIZE, rank 1 for the stall, death, freeze and hang faults)
 * Wrapped: MPI_Init, MPI_Finalize, MPI_Recv, MPI_Sendrecv, MPI_Irecv with MPI_Wait/Waitall/Waitany/Waitsome/Test/Testall,
 * MPI_Bcast (non-root), MPI_Reduce (root), MPI_Allreduce, MPI_Allgather, MPI_Alltoall,
 * MPI_Reduce_scatter_block. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_PENDING 4096

static struct {
    MPI_Request request;
    unsigned char *buffer;
} pending[MAX_PENDING];

/* Buffers flipped since the last non-blocking receive was posted into them. */
#define MAX_FLIPPED 64
static unsigned char *flipped[MAX_FLIPPED];

static long env_long(const char *name)
{
    const char *text = getenv(name);
    return text && *text ? atol(text) : -1;
}

static int my_rank(void)
{
    int rank = -1, ready = 0;
    MPI_Initialized(&ready);
    if (ready)
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static int this_rank_misbehaves(long default_rank)
{
    long wanted = env_long("FP_FAULT_RANK");
    if (wanted < 0)
        wanted = default_rank;
    return wanted < 0 || wanted == my_rank();
}

static long bytes_of(int count, MPI_Datatype type)
{
    int size = 0;
    PMPI_Type_size(type, &size);
    return (long)count * size;
}

/* Before a receive of `bytes` is posted: the stall and death faults. */
static void before_receive(long bytes)
{
    static int stalled, died;
    if (!died && bytes == env_long("FP_DIE_SIZE") && this_rank_misbehaves(1)) {
        died = 1;
        fprintf(stderr, "libfpcorrupt: rank %d: kill -9 of myself at a receive of %ld bytes\n", my_rank(), bytes);
        fflush(stderr);
        kill(getpid(), SIGKILL);
    }
    if (bytes == env_long("FP_FREEZE_SIZE") && this_rank_misbehaves(1)) {
        fprintf(stderr, "libfpcorrupt: rank %d: freezing (SIGSTOP) at a receive of %ld bytes\n", my_rank(), bytes);
        fflush(stderr);
        kill(getpid(), SIGSTOP);
    }
    if (!stalled && bytes == env_long("FP_STALL_SIZE") && this_rank_misbehaves(1)) {
        stalled = 1;
        fprintf(stderr, "libfpcorrupt: rank %d: stalling at a receive of %ld bytes\n", my_rank(), bytes);
        fflush(stderr);
        for (;;)
            sleep(1);
    }
}

/* After a blocking receive or collective of `bytes` returned: the hang outside MPI. */
static void after_receive(long bytes)
{
    static int hung;
    if (!hung && bytes == env_long("FP_HANG_AFTER_SIZE") && this_rank_misbehaves(1)) {
        hung = 1;
        fprintf(stderr, "libfpcorrupt: rank %d: hanging after a receive of %ld bytes\n", my_rank(), bytes);
        fflush(stderr);
        for (;;)
            sleep(1);
    }
}

static int corrupts(long bytes)
{
    return bytes > 0 && bytes == env_long("FP_CORRUPT_SIZE") && this_rank_misbehaves(-1);
}

/* Blocking receives: every message of the size, or with FP_CORRUPT_NTH only the K-th. */
static int blocking_corrupts(long bytes)
{
    static long seen;
    if (!corrupts(bytes))
        return 0;
    long nth = env_long("FP_CORRUPT_NTH");
    return nth <= 0 || ++seen == nth;
}

static void flip(void *buffer, long bytes)
{
    ((unsigned char *)buffer)[bytes / 2] ^= 0xff;
}

static void track(MPI_Request request, void *buffer)
{
    for (int i = 0; i < MAX_FLIPPED; i++)
        if (flipped[i] == buffer)
            flipped[i] = NULL;
    for (int i = 0; i < MAX_PENDING; i++)
        if (!pending[i].buffer) {
            pending[i].request = request;
            pending[i].buffer = buffer;
            return;
        }
}

/* A tracked request completed: corrupt its buffer. */
static void completed(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL)
        return;
    for (int i = 0; i < MAX_PENDING; i++)
        if (pending[i].buffer && pending[i].request == request) {
            unsigned char *buffer = pending[i].buffer;
            pending[i].buffer = NULL;
            int free_slot = -1;
            for (int f = 0; f < MAX_FLIPPED; f++) {
                if (flipped[f] == buffer)
                    return;
                if (!flipped[f] && free_slot < 0)
                    free_slot = f;
            }
            flip(buffer, env_long("FP_CORRUPT_SIZE"));
            if (free_slot >= 0)
                flipped[free_slot] = buffer;
            return;
        }
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    long delay = env_long("FP_INIT_DELAY");
    if (delay > 0)
        sleep((unsigned)delay);
    return rc;
}

int MPI_Finalize(void)
{
    if (env_long("FP_FINALIZE_HANG") > 0 && this_rank_misbehaves(-1))
        for (;;)
            sleep(60);
    return PMPI_Finalize();
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    long bytes = bytes_of(count, type);
    before_receive(bytes);
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && blocking_corrupts(bytes))
        flip(buf, bytes);
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    long bytes = bytes_of(rcount, rtype);
    before_receive(bytes);
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && blocking_corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    long bytes = bytes_of(count, type);
    before_receive(bytes);
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (rc == MPI_SUCCESS && corrupts(bytes))
        track(*request, buf);
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    if (rc == MPI_SUCCESS)
        completed(before);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Test(request, flag, status);
    if (rc == MPI_SUCCESS && *flag)
        completed(before);
    return rc;
}

#define COPY_REQUESTS(n, requests)                                                                  \
    MPI_Request local_[64], *before = (n) <= 64 ? local_ : malloc((size_t)(n) * sizeof *before);   \
    if (before)                                                                                     \
        for (int i_ = 0; i_ < (n); i_++)                                                            \
            before[i_] = (requests)[i_];

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    COPY_REQUESTS(count, requests);
    int rc = PMPI_Waitall(count, requests, statuses);
    if (rc == MPI_SUCCESS && before)
        for (int i = 0; i < count; i++)
            completed(before[i]);
    if (before != local_)
        free(before);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    COPY_REQUESTS(count, requests);
    int rc = PMPI_Testall(count, requests, flag, statuses);
    if (rc == MPI_SUCCESS && *flag && before)
        for (int i = 0; i < count; i++)
            completed(before[i]);
    if (before != local_)
        free(before);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    COPY_REQUESTS(count, requests);
    int rc = PMPI_Waitany(count, requests, index, status);
    if (rc == MPI_SUCCESS && before && *index != MPI_UNDEFINED)
        completed(before[*index]);
    if (before != local_)
        free(before);
    return rc;
}

int MPI_Waitsome(int count, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
    COPY_REQUESTS(count, requests);
    int rc = PMPI_Waitsome(count, requests, outcount, indices, statuses);
    if (rc == MPI_SUCCESS && before && *outcount != MPI_UNDEFINED)
        for (int i = 0; i < *outcount; i++)
            completed(before[indices[i]]);
    if (before != local_)
        free(before);
    return rc;
}

/* Collectives: the result buffer of this rank, as one message. */
int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    long bytes = bytes_of(count, type);
    int rank;
    PMPI_Comm_rank(comm, &rank);
    if (rank != root)
        before_receive(bytes);
    int rc = PMPI_Bcast(buf, count, type, root, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && rank != root && corrupts(bytes))
        flip(buf, bytes);
    return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    long bytes = bytes_of(count, type);
    int rank;
    PMPI_Comm_rank(comm, &rank);
    if (rank == root)
        before_receive(bytes);
    int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && rank == root && corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    long bytes = bytes_of(count, type);
    before_receive(bytes);
    int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    int nranks;
    PMPI_Comm_size(comm, &nranks);
    long bytes = bytes_of(rcount, rtype) * nranks;
    before_receive(bytes);
    int rc = PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    int nranks;
    PMPI_Comm_size(comm, &nranks);
    long bytes = bytes_of(rcount, rtype) * nranks;
    before_receive(bytes);
    int rc = PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    long bytes = bytes_of(count, type);
    before_receive(bytes);
    int rc = PMPI_Reduce_scatter_block(sbuf, rbuf, count, type, op, comm);
    after_receive(bytes);
    if (rc == MPI_SUCCESS && corrupts(bytes))
        flip(rbuf, bytes);
    return rc;
}
