/* Build without UCX: the row says what configure did not find. */
#include "config.h"

#include "preflight.h"

#ifndef FP_UCX_MISSING
#define FP_UCX_MISSING "unknown"
#endif

void pf_ucx_resources(char *out, size_t len)
{
    static const pf_library_t ucx = {"UCX", "uct/api/uct.h", "uct", "libucx-dev", "ucx"};
    pf_not_built(&ucx, FP_UCX_MISSING, out, len);
}
