/* Build without libfabric: the row says what configure did not find. */
#include "config.h"

#include "preflight.h"

#ifndef FP_LIBFABRIC_MISSING
#define FP_LIBFABRIC_MISSING "unknown"
#endif

void pf_libfabric_providers(char *out, size_t len)
{
    static const pf_library_t libfabric = {"libfabric", "rdma/fabric.h", "fabric", "libfabric-dev", "libfabric"};
    pf_not_built(&libfabric, FP_LIBFABRIC_MISSING, out, len);
}
