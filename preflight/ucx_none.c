/* Build without UCX headers. */
#include <stdio.h>

#include "preflight.h"

void pf_ucx_resources(char *out, size_t len)
{
    snprintf(out, len, "not built (configure --with-ucx)");
}
