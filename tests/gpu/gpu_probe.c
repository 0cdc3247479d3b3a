/* Exit 0 when a CUDA device is usable here, 77 (automake's skip) otherwise, with the reason. */
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void)
{
    int count = 0;
    cudaError_t rc = cudaGetDeviceCount(&count);
    if (rc != cudaSuccess || count == 0) {
        printf("no usable CUDA device: %s\n", rc != cudaSuccess ? cudaGetErrorString(rc) : "none visible");
        return 77;
    }
    printf("%d CUDA device(s)\n", count);
    return 0;
}
