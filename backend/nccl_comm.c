#include "nccl_comm.h"

#include <stdio.h>

#include "error.h"
#include "gpu.h"

int fp_nccl_fail(ncclResult_t rc, const char *call, const char *file, int line)
{
    const char *last = ncclGetLastError(NULL);
    return fp_fail("%s failed at %s:%d: %s%s%s", call, file, line, ncclGetErrorString(rc),
                   last && last[0] ? ": " : "", last ? last : "");
}

int fp_nccl_open(fp_nccl_t *s, MPI_Comm comm, int rank, int nranks, char *version_text, size_t len,
                 int *device)
{
    ncclUniqueId id;
    int version = 0;
    s->stream = (cudaStream_t)fp_gpu_stream();
    if (rank == 0)
        FP_NCCL_CHECK(ncclGetUniqueId(&id));
    FP_MPI_CHECK(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm));
    FP_NCCL_CHECK(ncclCommInitRank(&s->comm, nranks, id, rank));
    FP_NCCL_CHECK(ncclGetVersion(&version));
    FP_NCCL_CHECK(ncclCommCuDevice(s->comm, device));
    snprintf(version_text, len, "nccl %d.%d.%d (built with %d.%d.%d)", version / 10000, version / 100 % 100,
             version % 100, NCCL_MAJOR, NCCL_MINOR, NCCL_PATCH);
    return FP_OK;
}

int fp_nccl_split(const fp_nccl_t *parent, int color, int key, fp_nccl_t *child)
{
    child->stream = parent->stream;
    child->comm = NULL;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 18, 0)
    FP_NCCL_CHECK(ncclCommSplit(parent->comm, color >= 0 ? color : NCCL_SPLIT_NOCOLOR, key, &child->comm, NULL));
    return FP_OK;
#else
    (void)color;
    (void)key;
    return fp_fail("ncclCommSplit: needs NCCL 2.18 or later; this fabperf was built with %d.%d.%d", NCCL_MAJOR,
                   NCCL_MINOR, NCCL_PATCH);
#endif
}

int fp_nccl_wait(fp_nccl_t *s)
{
    for (;;) {
        cudaError_t rc = cudaStreamQuery(s->stream);
        if (rc == cudaSuccess)
            return FP_OK;
        if (rc != cudaErrorNotReady)
            return fp_fail("cudaStreamQuery failed: %s", cudaGetErrorString(rc));
        ncclResult_t async = ncclSuccess;
        FP_NCCL_CHECK(ncclCommGetAsyncError(s->comm, &async));
        if (async != ncclSuccess && async != ncclInProgress) {
            int failed = fp_nccl_fail(async, "ncclCommGetAsyncError (a peer failed or a call was invalid)",
                                      __FILE__, __LINE__);
            ncclCommAbort(s->comm);
            s->comm = NULL;
            return failed;
        }
    }
}

void fp_nccl_close(fp_nccl_t *s)
{
    if (s->comm)
        ncclCommDestroy(s->comm);
    s->comm = NULL;
}
