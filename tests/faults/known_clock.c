/* A clock that knows the answer, through the MPI profiling interface, for the tests
 * (LD_PRELOAD'ed into ranks): MPI_Wtime is a virtual clock that stands still except for steps
 * the library itself takes, so every figure a program reports has one exact expected value.
 *
 * A step happens on the rank that
 *   - completes a receive of bytes: MPI_Recv or MPI_Sendrecv of MPI_BYTE, or a Wait/Waitall/
 *     Waitany/Test/Testall call that completes at least one MPI_Irecv of MPI_BYTE (one step per
 *     call however many receives it completes: a window waited for at once is one step); with
 *     FP_KNOWN_TAG set, only receives of that tag: a sweep's sender completes its ack or pong on
 *     one tag, while the windows or pings it serves meanwhile complete on another at times that
 *     race with it, so one tag gives one step per operation;
 *   - calls one of the six benchmarked collectives (MPI_Allreduce, MPI_Allgather,
 *     MPI_Reduce_scatter_block, MPI_Bcast, MPI_Reduce, MPI_Alltoall) on MPI_FLOAT data
 *     (fabperf's own control messages are other types; MPI_Barrier never steps).
 * Step k (counted from 0 on each rank) moves the clock by
 *     T + (k mod N) * S  [+ E when k mod N = N - 1]  [+ D on rank R]  [+ C * P]  [+ A when k >= K]
 * with T = FP_KNOWN_US, S = FP_KNOWN_RAMP_US (default 0), N = FP_KNOWN_RAMP_N (default 1),
 * E = FP_KNOWN_LAST_US (default 0), R = FP_KNOWN_SLOW_RANK, D = FP_KNOWN_SLOW_US (default: no
 * rank slower), P = FP_KNOWN_PER_BYTE_PS picoseconds (default 0) per byte of the receive's count
 * C (a collective's C is 0; a call completing several receives takes the largest count), so that
 * a step can grow with the message size as a transfer does (and the batch chosen with it);
 * A = FP_KNOWN_AFTER_US from step K = FP_KNOWN_AFTER_STEPS on (default: never), a lasting change
 * part-way through a run (a soak's step), on every rank or only on rank FP_KNOWN_AFTER_RANK.
 * With one step per sample and a count of samples that N divides, the samples of a size are
 * T + C*P + j*S, j = 0..N-1 (the last one + E), each equally often, whatever steps came before:
 * mean, median, percentiles and interval ranks are known exactly. A ramp alone is symmetric (its mean
 * is its median); E skews it, so that a figure taken from the wrong one of the two shows.
 *
 * Reading the clock never moves it, except that 64 readings in a row with no step between
 * them move it by one tick (1 ns): a program that spins on the clock to find its step (the
 * timer's resolution probe) finds 1 ns and goes on. MPI_Wtick answers the tick too.
 * The clock counts whole picoseconds, so differences are exact to the printed precision. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#define TICK_PS 1000LL
#define IDLE_READS 64
#define TRACKED 4096

static int64_t clock_ps = 1000000000000LL; /* 1 s: a clock that is not 0 */
static long steps, idle_reads;
static MPI_Request byte_receives[TRACKED];
static int byte_counts[TRACKED]; /* each tracked receive's count, for FP_KNOWN_PER_BYTE_PS */
static int tracked;

static double setting(const char *name, double fallback)
{
    const char *text = getenv(name);
    return text && *text ? atof(text) : fallback;
}

static int64_t us_to_ps(double us)
{
    return (int64_t)(us * 1e6 + (us >= 0 ? 0.5 : -0.5));
}

static void step(int count)
{
    long n = (long)setting("FP_KNOWN_RAMP_N", 1.0);
    n = n > 0 ? n : 1;
    double us = setting("FP_KNOWN_US", 1.0) + (double)(steps % n) * setting("FP_KNOWN_RAMP_US", 0.0);
    if (steps % n == n - 1)
        us += setting("FP_KNOWN_LAST_US", 0.0);
    const char *slow = getenv("FP_KNOWN_SLOW_RANK");
    if (slow && *slow) {
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == atoi(slow))
            us += setting("FP_KNOWN_SLOW_US", 0.0);
    }
    const char *after = getenv("FP_KNOWN_AFTER_STEPS"), *after_rank = getenv("FP_KNOWN_AFTER_RANK");
    int rank = -1;
    if (after_rank && *after_rank)
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (after && *after && steps >= atol(after) && (!after_rank || !*after_rank || rank == atoi(after_rank)))
        us += setting("FP_KNOWN_AFTER_US", 0.0);
    clock_ps += us_to_ps(us) + (int64_t)count * (int64_t)setting("FP_KNOWN_PER_BYTE_PS", 0.0);
    steps++;
    idle_reads = 0;
}

double MPI_Wtime(void)
{
    if (++idle_reads >= IDLE_READS) {
        clock_ps += TICK_PS;
        idle_reads = 0;
    }
    return (double)clock_ps * 1e-12;
}

double MPI_Wtick(void)
{
    return (double)TICK_PS * 1e-12;
}

/* ---- receives of bytes ---- */

/* A receive that steps the clock: of bytes, and of FP_KNOWN_TAG where that is set. */
static int counted(MPI_Datatype type, int tag)
{
    const char *only = getenv("FP_KNOWN_TAG");
    return type == MPI_BYTE && (!only || !*only || tag == atoi(only));
}

static void track(MPI_Request request, int count)
{
    if (tracked < TRACKED) {
        byte_counts[tracked] = count;
        byte_receives[tracked++] = request;
    }
}

/* Forgets the tracked receives among the completed requests before[]; the largest count among
 * them, -1 when none was one. */
static int settle(const MPI_Request *before, int count)
{
    int largest = -1;
    for (int i = 0; i < count; i++) {
        if (before[i] == MPI_REQUEST_NULL)
            continue;
        for (int t = 0; t < tracked; t++) {
            if (byte_receives[t] == before[i]) {
                largest = byte_counts[t] > largest ? byte_counts[t] : largest;
                tracked--;
                byte_receives[t] = byte_receives[tracked];
                byte_counts[t] = byte_counts[tracked];
                break;
            }
        }
    }
    return largest;
}

/* A step when a call completed tracked receives (settle's answer). */
static void step_settled(int largest)
{
    if (largest >= 0)
        step(largest);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (rc == MPI_SUCCESS && counted(type, tag))
        track(*request, count);
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (counted(type, tag))
        step(count);
    return rc;
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status);
    if (counted(rtype, rtag))
        step(rcount);
    return rc;
}

#define COPY_LIMIT 1024

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    step_settled(settle(&before, 1));
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    MPI_Request before[COPY_LIMIT];
    int n = count < COPY_LIMIT ? count : COPY_LIMIT;
    for (int i = 0; i < n; i++)
        before[i] = requests[i];
    int rc = PMPI_Waitall(count, requests, statuses);
    step_settled(settle(before, n));
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    MPI_Request before[COPY_LIMIT];
    int n = count < COPY_LIMIT ? count : COPY_LIMIT;
    for (int i = 0; i < n; i++)
        before[i] = requests[i];
    int rc = PMPI_Waitany(count, requests, index, status);
    if (*index != MPI_UNDEFINED && *index < n)
        step_settled(settle(&before[*index], 1));
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Test(request, flag, status);
    if (*flag)
        step_settled(settle(&before, 1));
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    MPI_Request before[COPY_LIMIT];
    int n = count < COPY_LIMIT ? count : COPY_LIMIT;
    for (int i = 0; i < n; i++)
        before[i] = requests[i];
    int rc = PMPI_Testall(count, requests, flag, statuses);
    if (*flag)
        step_settled(settle(before, n));
    return rc;
}

/* ---- the benchmarked collectives, on MPI_FLOAT data ---- */

static int stepped(int rc, MPI_Datatype type)
{
    if (type == MPI_FLOAT)
        step(0);
    return rc;
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    return stepped(PMPI_Allreduce(s, r, count, type, op, comm), type);
}

int MPI_Allgather(const void *s, int scount, MPI_Datatype stype, void *r, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    return stepped(PMPI_Allgather(s, scount, stype, r, rcount, rtype, comm), rtype);
}

int MPI_Reduce_scatter_block(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    return stepped(PMPI_Reduce_scatter_block(s, r, count, type, op, comm), type);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    return stepped(PMPI_Bcast(buffer, count, type, root, comm), type);
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    return stepped(PMPI_Reduce(s, r, count, type, op, root, comm), type);
}

int MPI_Alltoall(const void *s, int scount, MPI_Datatype stype, void *r, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
    return stepped(PMPI_Alltoall(s, scount, stype, r, rcount, rtype, comm), rtype);
}
