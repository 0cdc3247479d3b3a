/* UCX's transports and devices through its own query interface (UCT), as ucx_info -d lists them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uct/api/uct.h>

#include "preflight.h"

static void append(char *out, size_t len, const char *tl, const char *dev)
{
    size_t used = strlen(out);
    if (used < len)
        snprintf(out + used, len - used, "%s%s/%s", used ? " " : "", tl, dev);
}

/* The transports of one memory domain; UCX's error string when it does not open. */
static void md_resources(uct_component_h component, const char *md_name, char *out, size_t len)
{
    uct_md_config_t *config;
    uct_md_h md;
    ucs_status_t st = uct_md_config_read(component, NULL, NULL, &config);
    if (st != UCS_OK)
        return;
    st = uct_md_open(component, md_name, config, &md);
    uct_config_release(config);
    if (st != UCS_OK)
        return;
    uct_tl_resource_desc_t *res;
    unsigned count;
    if (uct_md_query_tl_resources(md, &res, &count) == UCS_OK) {
        for (unsigned i = 0; i < count; i++)
            append(out, len, res[i].tl_name, res[i].dev_name);
        uct_release_tl_resource_list(res);
    }
    uct_md_close(md);
}

static void component_resources(uct_component_h component, char *out, size_t len)
{
    uct_component_attr_t attr;
    memset(&attr, 0, sizeof attr);
    attr.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCE_COUNT;
    if (uct_component_query(component, &attr) != UCS_OK || attr.md_resource_count == 0)
        return;
    attr.md_resources = calloc(attr.md_resource_count, sizeof *attr.md_resources);
    if (!attr.md_resources)
        return;
    attr.field_mask = UCT_COMPONENT_ATTR_FIELD_MD_RESOURCES;
    if (uct_component_query(component, &attr) == UCS_OK)
        for (unsigned m = 0; m < attr.md_resource_count; m++)
            md_resources(component, attr.md_resources[m].md_name, out, len);
    free(attr.md_resources);
}

void pf_ucx_resources(char *out, size_t len)
{
    uct_component_h *components;
    unsigned count;
    ucs_status_t st = uct_query_components(&components, &count);
    if (st != UCS_OK) {
        snprintf(out, len, "none (uct_query_components: %s)", ucs_status_string(st));
        return;
    }
    out[0] = '\0';
    for (unsigned c = 0; c < count; c++)
        component_resources(components[c], out, len);
    uct_release_component_list(components);
    if (!out[0])
        snprintf(out, len, "none");
}
