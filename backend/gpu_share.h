/* One GPU per rank: NCCL refuses two ranks on one GPU, so a backend that needs a GPU per rank
 * says so before its library starts, naming the ranks, the GPU and the host. */
#ifndef FP_GPU_SHARE_H
#define FP_GPU_SHARE_H

#include <stddef.h>

#include "core.h"

/* Pure: ranks [0, n) with their hosts and GPUs' PCI bus ids; FP_ERR and one line in err when two
 * ranks of one host have the same bus id (an empty bus id: no GPU, never shared). option names
 * what asks for a GPU per rank. */
int fp_gpu_share_check(const char *const *hosts, const char *const *bus_ids, int n, const char *option, char *err,
                       size_t errlen);

/* Collective over run->ctx.comm after the GPU is chosen: gathers every rank's host and bus id and
 * judges them with fp_gpu_share_check (run->gpu_per_rank is the option). Same verdict everywhere. */
int fp_gpu_per_rank_check(fp_run_t *run, char *err, size_t errlen);

#endif
