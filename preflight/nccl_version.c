/* NCCL's version as the library reports it (the one loaded at run time, not the header's). */
#include <nccl.h>
#include <stdio.h>

#include "preflight.h"

void pf_nccl_version(char *out, size_t len)
{
    int version = 0;
    ncclResult_t rc = ncclGetVersion(&version);
    if (rc != ncclSuccess) {
        snprintf(out, len, "unknown (ncclGetVersion: %s)", ncclGetErrorString(rc));
        return;
    }
    /* Since 2.9 the code is major*10000 + minor*100 + patch; before, major*1000 + minor*100. */
    if (version >= 10000)
        snprintf(out, len, "%d.%d.%d", version / 10000, version / 100 % 100, version % 100);
    else
        snprintf(out, len, "%d.%d.%d", version / 1000, version / 100 % 10, version % 100);
}
