/* GPU selection and description; cuda_device.c with CUDA, cuda_none.c without. */
#ifndef FP_GPU_H
#define FP_GPU_H

#include <stddef.h>

/* Picks this rank's GPU: requested >= 0, or local_rank modulo the visible GPUs, and writes
 * "model, PCI bus id, driver, runtime" into description. FP_ERR with the reason otherwise. */
int fp_gpu_select(int local_rank, long requested, char *description, size_t len);

/* The one stream of the selected GPU (a cudaStream_t): CUDA events and NCCL share it. NULL
 * before fp_gpu_select or without CUDA. */
void *fp_gpu_stream(void);
/* The selected GPU's PCI bus id ("0000:1b:00.0") into out; empty when no GPU was selected. */
void fp_gpu_bus_id(char *out, size_t len);
void fp_gpu_release(void);

/* Whether this build has CUDA at all. */
int fp_gpu_built(void);

#endif
