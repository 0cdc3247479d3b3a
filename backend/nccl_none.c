/* Build without NCCL: --backend nccl exists and says how to get it. */
#include "collective.h"

static int no_nccl_init(fp_ctx_t *ctx, char *about, size_t len)
{
    (void)ctx;
    (void)about;
    (void)len;
    return fp_fail("--backend nccl: this fabperf was built without NCCL "
                   "(reconfigure with --with-cuda=PATH --with-nccl=PATH)");
}

static void no_nccl_fini(fp_ctx_t *ctx)
{
    (void)ctx;
}

const fp_coll_ops_t fp_coll_nccl = {
    .name = "nccl", .init = no_nccl_init, .fini = no_nccl_fini,
    .types = (1u << FP_TYPE_COUNT) - 1, .device_only = 1,
    .missing = "--backend nccl: this fabperf was built without NCCL "
               "(reconfigure with --with-cuda=PATH --with-nccl=PATH)",
};
