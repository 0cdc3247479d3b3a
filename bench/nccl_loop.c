/* The reference for the NCCL backend: a bare loop of ncclAllReduce calls on one GPU, timed as a
 * whole with CUDA events, no per-call work.
 * Usage: fabperf_nccl_loop BYTES [CALLS]; prints "BYTES us-per-call" (float, sum, out-of-place). */
#include <cuda_runtime_api.h>
#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : 8;
    int calls = argc > 2 ? atoi(argv[2]) : 1000;
    size_t count = bytes / sizeof(float);
    int device = 0;
    ncclComm_t comm;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *send, *recv;
    float ms = 0;
    if (cudaMalloc(&send, bytes) != cudaSuccess || cudaMalloc(&recv, bytes) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc(%zu B) failed\n", bytes);
        return 1;
    }
    ncclResult_t rc = ncclCommInitAll(&comm, 1, &device);
    if (rc != ncclSuccess) {
        fprintf(stderr, "ncclCommInitAll failed: %s\n", ncclGetErrorString(rc));
        return 1;
    }
    cudaStreamCreate(&stream);
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int i = 0; i < 20; i++)
        ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream);
    cudaStreamSynchronize(stream);
    cudaEventRecord(start, stream);
    for (int i = 0; i < calls; i++)
        ncclAllReduce(send, recv, count, ncclFloat, ncclSum, comm, stream);
    cudaEventRecord(stop, stream);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("%zu %.4f\n", bytes, ms * 1e3 / calls);
    ncclCommDestroy(comm);
    return 0;
}
