/* Fault injection for the collectives' validation (LD_PRELOAD'ed into ranks): the MPI library
 * "forgets" to write part of a collective's result. After the real call, the shim puts back what
 * the result buffer held before it, for
 *   FP_UNWRITTEN=first  the first element of the result (the default), or
 *   FP_UNWRITTEN=zeros  every element whose correct result is 0 (all bits zero): a validation that
 *                       pre-fills results with zeros cannot see that these were never written.
 * Wrapped: MPI_Allreduce, MPI_Allgather, MPI_Reduce_scatter_block, MPI_Alltoall, MPI_Bcast (not at
 * the root), MPI_Reduce (at the root); only on MPI_INT32_T and MPI_FLOAT data (-T int32, -T float),
 * so that fabperf's own control messages (ints, longs, doubles, bytes) pass untouched. Host buffers
 * only. FP_UNWRITTEN=none forgets nothing.
 * FP_ADDRESS_LOG=PATH: at MPI_Finalize, writes to PATH.RANK how many distinct result addresses
 * those MPI_Allreduce calls used (whether the buffers rotate between calls). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADDRESS_SLOTS 65536
static uintptr_t addresses[ADDRESS_SLOTS];
static long distinct;

static void record(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    if (!getenv("FP_ADDRESS_LOG") || !a)
        return;
    for (size_t i = (a >> 2) % ADDRESS_SLOTS, n = 0; n < ADDRESS_SLOTS; i = (i + 1) % ADDRESS_SLOTS, n++) {
        if (addresses[i] == a)
            return;
        if (!addresses[i]) {
            addresses[i] = a;
            distinct++;
            return;
        }
    }
}

int MPI_Finalize(void)
{
    const char *path = getenv("FP_ADDRESS_LOG");
    if (path) {
        char name[4096];
        int rank = 0;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        snprintf(name, sizeof name, "%s.%d", path, rank);
        FILE *f = fopen(name, "w");
        if (f) {
            fprintf(f, "%ld\n", distinct);
            fclose(f);
        }
    }
    return PMPI_Finalize();
}

static int zeros_mode(void)
{
    const char *mode = getenv("FP_UNWRITTEN");
    return mode && strcmp(mode, "zeros") == 0;
}

typedef struct saved {
    unsigned char *copy;
    size_t bytes, element;
} saved_t;

static saved_t save(const void *result, int count, MPI_Datatype type)
{
    if (type != MPI_INT32_T && type != MPI_FLOAT)
        return (saved_t){0};
    int size = 0;
    PMPI_Type_size(type, &size);
    saved_t s = {NULL, (size_t)count * (size_t)size, (size_t)size};
    if (count > 0 && size > 0 && (s.copy = malloc(s.bytes)))
        memcpy(s.copy, result, s.bytes);
    return s;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

static void forget(saved_t *s, void *result)
{
    unsigned char *out = result;
    const char *mode = getenv("FP_UNWRITTEN");
    if (!s->copy || (mode && strcmp(mode, "none") == 0)) {
        free(s->copy);
        return;
    }
    if (!zeros_mode())
        memcpy(out, s->copy, s->element);
    else
        for (size_t at = 0; at + s->element <= s->bytes; at += s->element)
            if (all_zero(out + at, s->element))
                memcpy(out + at, s->copy + at, s->element);
    free(s->copy);
}

static int ranks(MPI_Comm comm)
{
    int n = 1;
    PMPI_Comm_size(comm, &n);
    return n;
}

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    saved_t s = save(recv, count, type);
    if (s.copy)
        record(recv);
    int rc = PMPI_Allreduce(send, recv, count, type, op, comm);
    forget(&s, recv);
    return rc;
}

int MPI_Allgather(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    saved_t s = save(recv, rcount * ranks(comm), rtype);
    int rc = PMPI_Allgather(send, scount, stype, recv, rcount, rtype, comm);
    forget(&s, recv);
    return rc;
}

int MPI_Reduce_scatter_block(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    saved_t s = save(recv, count, type);
    int rc = PMPI_Reduce_scatter_block(send, recv, count, type, op, comm);
    forget(&s, recv);
    return rc;
}

int MPI_Alltoall(const void *send, int scount, MPI_Datatype stype, void *recv, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm)
{
    saved_t s = save(recv, rcount * ranks(comm), rtype);
    int rc = PMPI_Alltoall(send, scount, stype, recv, rcount, rtype, comm);
    forget(&s, recv);
    return rc;
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rank = -1;
    PMPI_Comm_rank(comm, &rank);
    saved_t s = rank == root ? (saved_t){0} : save(buffer, count, type);
    int rc = PMPI_Bcast(buffer, count, type, root, comm);
    forget(&s, buffer);
    return rc;
}

int MPI_Reduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    int rank = -1;
    PMPI_Comm_rank(comm, &rank);
    saved_t s = rank == root ? save(recv, count, type) : (saved_t){0};
    int rc = PMPI_Reduce(send, recv, count, type, op, root, comm);
    forget(&s, recv);
    return rc;
}
