/* libfabric's providers as fi_getinfo lists them on this node (every fabric it can open). */
#include <rdma/fabric.h>
#include <stdio.h>
#include <string.h>

#include "preflight.h"

/* Appends word to the space-separated list in out unless it is there already. */
static void add_unique(char *out, size_t len, const char *word)
{
    size_t wlen = strlen(word);
    for (const char *p = out; (p = strstr(p, word)); p += wlen)
        if ((p == out || p[-1] == ' ') && (p[wlen] == ' ' || p[wlen] == '\0'))
            return;
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", used ? " " : "", word);
}

void pf_libfabric_providers(char *out, size_t len)
{
    struct fi_info *info = NULL;
    int rc = fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, NULL, &info);
    if (rc != 0) {
        snprintf(out, len, "none (fi_getinfo: %s)", fi_strerror(-rc));
        return;
    }
    out[0] = '\0';
    for (struct fi_info *i = info; i; i = i->next)
        if (i->fabric_attr && i->fabric_attr->prov_name)
            add_unique(out, len, i->fabric_attr->prov_name);
    fi_freeinfo(info);
    if (!out[0])
        snprintf(out, len, "none");
}
