/* Build without NCCL. */
#include <stdio.h>

#include "preflight.h"

void pf_nccl_version(char *out, size_t len)
{
    snprintf(out, len, "not built (configure --with-cuda --with-nccl)");
}
