/* Build without NCCL: the pairs' --backend nccl exists and says how to get it. */
#include "pairs.h"

const fp_pairs_backend_t fp_pairs_nccl = {
    .name = "nccl", .device_only = 1,
    .missing = "--backend nccl: this fabperf was built without NCCL "
               "(reconfigure with --with-cuda=PATH --with-nccl=PATH)",
};
