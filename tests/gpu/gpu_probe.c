/* Exit 0 when a CUDA device is usable here, 77 (automake's skip) otherwise, with the reason.
 * With --copy-ceiling: prints the device-to-device copy rate of device 0 in MB/s (1e6 B/s; the
 * best of five 256 MiB cudaMemcpy calls): no transfer between buffers of this card can beat it. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#define COPY_BYTES ((size_t)256 << 20)

static int copy_ceiling(void)
{
    void *a = NULL, *b = NULL;
    cudaEvent_t start, stop;
    float best_ms = 0;
    if (cudaMalloc(&a, COPY_BYTES) != cudaSuccess || cudaMalloc(&b, COPY_BYTES) != cudaSuccess ||
        cudaEventCreate(&start) != cudaSuccess || cudaEventCreate(&stop) != cudaSuccess) {
        printf("cudaMalloc/cudaEventCreate failed\n");
        return 1;
    }
    for (int i = 0; i < 6; i++) {
        float ms = 0;
        cudaEventRecord(start, 0);
        cudaMemcpy(b, a, COPY_BYTES, cudaMemcpyDeviceToDevice);
        cudaEventRecord(stop, 0);
        cudaEventSynchronize(stop);
        cudaEventElapsedTime(&ms, start, stop);
        if (i > 0 && (best_ms == 0 || ms < best_ms)) /* the first call warms up */
            best_ms = ms;
    }
    printf("%.0f\n", (double)COPY_BYTES / (best_ms * 1e-3) / 1e6);
    cudaFree(a);
    cudaFree(b);
    return 0;
}

int main(int argc, char **argv)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        printf("no usable CUDA device: %s\n", rc != cudaSuccess ? cudaGetErrorString(rc) : "none visible");
        return 77;
    }
    if (argc > 1 && strcmp(argv[1], "--copy-ceiling") == 0)
        return copy_ceiling();
    printf("%d CUDA device(s)\n", count);
    return 0;
}
