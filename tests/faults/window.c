/* Fault injection through the MPI profiling interface, for the tests (LD_PRELOAD'ed into ranks):
 * one corrupted message per window.
 *
 * Environment:
 *   FP_WINDOW_CORRUPT_SIZE=N   receives of exactly N bytes are affected; host buffers only
 *   FP_WINDOW_CORRUPT_INDEX=K  which message of each window arrives corrupted (default 0, the
 *                              first); a blocking receive is a window of one message
 *
 * A window is the run of non-blocking receives of N bytes posted while none of them is pending.
 * Each such receive lands in a private copy; when it completes, the copies are delivered into
 * the user's buffers in the order the receives were posted, message K with its middle byte
 * flipped. So a validation that receives every message of a window into one buffer sees only the
 * last one, as a real network would leave it: the flip is found at a window of one and missed at
 * any larger window. Wrapped: MPI_Recv, MPI_Irecv, MPI_Wait, MPI_Waitall, MPI_Test, MPI_Testall. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PENDING 65536

typedef struct pending {
    MPI_Request request;
    void *user, *copy;
    long index; /* position in its window */
    unsigned long order;
} pending_t;

static pending_t pending[MAX_PENDING];
static long npending, window_position;
static unsigned long posted;

static long env_long(const char *name, long fallback)
{
    const char *text = getenv(name);
    return text && *text ? atol(text) : fallback;
}

static long affected_size(void)
{
    return env_long("FP_WINDOW_CORRUPT_SIZE", -1);
}

static void flip(void *buffer, long bytes)
{
    ((unsigned char *)buffer)[bytes / 2] ^= 0xff;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int size = 0;
    PMPI_Type_size(type, &size);
    long bytes = (long)count * size;
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (rc == MPI_SUCCESS && bytes > 0 && bytes == affected_size() && env_long("FP_WINDOW_CORRUPT_INDEX", 0) == 0)
        flip(buf, bytes);
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
    int size = 0;
    PMPI_Type_size(type, &size);
    long bytes = (long)count * size;
    if (bytes <= 0 || bytes != affected_size() || npending >= MAX_PENDING)
        return PMPI_Irecv(buf, count, type, source, tag, comm, request);
    void *copy = malloc((size_t)bytes);
    if (!copy)
        return PMPI_Irecv(buf, count, type, source, tag, comm, request);
    if (npending == 0)
        window_position = 0; /* nothing pending: a new window starts */
    int rc = PMPI_Irecv(copy, count, type, source, tag, comm, request);
    if (rc != MPI_SUCCESS) {
        free(copy);
        return rc;
    }
    pending[npending++] = (pending_t){*request, buf, copy, window_position++, posted++};
    return rc;
}

static int by_order(const void *a, const void *b)
{
    const pending_t *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

/* Requests (their values before completion) that completed: deliver their copies in posting
 * order into the user's buffers. */
static void delivered(const MPI_Request *done, int n)
{
    pending_t *ready = malloc((size_t)n * sizeof *ready);
    int nready = 0;
    if (!ready)
        return;
    for (int i = 0; i < n; i++) {
        if (done[i] == MPI_REQUEST_NULL)
            continue;
        for (long p = 0; p < npending; p++)
            if (pending[p].request == done[i]) {
                ready[nready++] = pending[p];
                pending[p] = pending[--npending];
                break;
            }
    }
    qsort(ready, (size_t)nready, sizeof *ready, by_order);
    long bytes = affected_size();
    for (int i = 0; i < nready; i++) {
        if (ready[i].index == env_long("FP_WINDOW_CORRUPT_INDEX", 0))
            flip(ready[i].copy, bytes);
        memcpy(ready[i].user, ready[i].copy, (size_t)bytes);
        free(ready[i].copy);
    }
    free(ready);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    if (rc == MPI_SUCCESS)
        delivered(&before, 1);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Test(request, flag, status);
    if (rc == MPI_SUCCESS && *flag)
        delivered(&before, 1);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    MPI_Request local[256], *before = count <= 256 ? local : malloc((size_t)count * sizeof *before);
    if (before)
        memcpy(before, requests, (size_t)count * sizeof *before);
    int rc = PMPI_Waitall(count, requests, statuses);
    if (rc == MPI_SUCCESS && before)
        delivered(before, count);
    if (before != local)
        free(before);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    MPI_Request local[256], *before = count <= 256 ? local : malloc((size_t)count * sizeof *before);
    if (before)
        memcpy(before, requests, (size_t)count * sizeof *before);
    int rc = PMPI_Testall(count, requests, flag, statuses);
    if (rc == MPI_SUCCESS && *flag && before)
        delivered(before, count);
    if (before != local)
        free(before);
    return rc;
}
