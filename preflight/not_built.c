/* What a row of a library left out at configure time says: what was missing and how to get it. */
#include <stdio.h>
#include <string.h>

#include "preflight.h"

void pf_not_built(const pf_library_t *lib, const char *missing, char *out, size_t len)
{
    if (strcmp(missing, "header") == 0)
        snprintf(out, len, "not built: %s headers not found (%s; apt-get install %s, then configure --with-%s)",
                 lib->name, lib->header, lib->package, lib->option);
    else if (strcmp(missing, "library") == 0)
        snprintf(out, len, "not built: %s library not found (lib%s; apt-get install %s, then configure --with-%s)",
                 lib->name, lib->library, lib->package, lib->option);
    else if (strcmp(missing, "disabled") == 0)
        snprintf(out, len, "not built: configured --without-%s (configure --with-%s)", lib->option, lib->option);
    else
        snprintf(out, len, "not built (configure --with-%s)", lib->option);
}
