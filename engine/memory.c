/* The memory kinds by name and letter: host (memory_host.c), pinned, CUDA device and managed (the
 * CUDA backend, or its stand-in without CUDA). */
#include "memory.h"

const fp_mem_ops_t *const fp_mem_ops[FP_MEM_COUNT] = {
    [FP_MEM_HOST] = &fp_mem_host,
    [FP_MEM_PINNED] = &fp_mem_pinned,
    [FP_MEM_CUDA] = &fp_mem_cuda,
    [FP_MEM_MANAGED] = &fp_mem_managed,
};

fp_mem_kind_t fp_mem_kind_of(char letter)
{
    for (int k = 0; k < FP_MEM_COUNT; k++)
        if (fp_mem_ops[k]->letter == letter)
            return (fp_mem_kind_t)k;
    return FP_MEM_COUNT;
}
