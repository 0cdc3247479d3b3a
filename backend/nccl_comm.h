/* What both NCCL backends (collectives, pairs) share: a communicator over MPI_COMM_WORLD's ranks
 * on the core's GPU stream, the check that names a failed call with NCCL's own words, and the wait
 * that polls the communicator so that a failed peer gives an error, not a hang. */
#ifndef FP_NCCL_COMM_H
#define FP_NCCL_COMM_H

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>
#include <stddef.h>

typedef struct fp_nccl {
    ncclComm_t comm;
    cudaStream_t stream;
} fp_nccl_t;

/* Reports the failed call (file and line, NCCL's error string and last message); returns FP_ERR. */
int fp_nccl_fail(ncclResult_t rc, const char *call, const char *file, int line);

#define FP_NCCL_CHECK(call)                                                                        \
    do {                                                                                           \
        ncclResult_t fp_nccl_rc_ = (call);                                                         \
        if (fp_nccl_rc_ != ncclSuccess && fp_nccl_rc_ != ncclInProgress)                           \
            return fp_nccl_fail(fp_nccl_rc_, #call, __FILE__, __LINE__);                           \
    } while (0)

/* Rank 0's unique id to every rank of comm, then ncclCommInitRank on the core's GPU stream; writes
 * "nccl X.Y.Z (built with A.B.C)" and the device of this rank to version_text and *device. */
int fp_nccl_open(fp_nccl_t *s, MPI_Comm comm, int rank, int nranks, char *version_text, size_t len,
                 int *device);

/* child: the communicator of parent's ranks of the same color (-1: none; child->comm NULL), in
 * the order of key, on parent's stream (ncclCommSplit, NCCL 2.18 and later). Every rank of
 * parent calls it. */
int fp_nccl_split(const fp_nccl_t *parent, int color, int key, fp_nccl_t *child);

/* Waits for the stream while polling the communicator; aborts the communicator on an error so
 * that no rank stays blocked in NCCL. */
int fp_nccl_wait(fp_nccl_t *s);

void fp_nccl_close(fp_nccl_t *s);

#endif
