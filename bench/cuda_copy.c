/* The ceiling on one card: cudaMemcpy device-to-device timed with CUDA events.
 * Usage: fabperf_cuda_copy SIZE [REPEATS]; prints "SIZE MB/s p50 over repeats" (1e6 B/s,
 * bytes copied once, as a bandwidth benchmark counts a message). */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    size_t size = argc > 1 ? strtoull(argv[1], NULL, 10) : 64u << 20;
    int repeats = argc > 2 ? atoi(argv[2]) : 100;
    void *src, *dst;
    cudaEvent_t start, stop;
    float *ms = calloc((size_t)repeats, sizeof *ms);
    if (cudaMalloc(&src, size) != cudaSuccess || cudaMalloc(&dst, size) != cudaSuccess || !ms) {
        fprintf(stderr, "cudaMalloc(%zu B) failed\n", size);
        return 1;
    }
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int i = 0; i < 5; i++)
        cudaMemcpy(dst, src, size, cudaMemcpyDeviceToDevice);
    for (int i = 0; i < repeats; i++) {
        cudaEventRecord(start, 0);
        cudaMemcpy(dst, src, size, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms[i], start, stop);
    }
    qsort(ms, (size_t)repeats, sizeof *ms, compare);
    printf("%zu %.1f\n", size, (double)size / (ms[repeats / 2] * 1e-3) / 1e6);
    return 0;
}
