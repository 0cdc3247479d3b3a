/* Build without libfabric headers. */
#include <stdio.h>

#include "preflight.h"

void pf_libfabric_providers(char *out, size_t len)
{
    snprintf(out, len, "not built (configure --with-libfabric)");
}
