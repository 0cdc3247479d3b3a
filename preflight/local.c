/* One node's part, with no communication: its roots checked, its name, its facts and findings. */
#include <stdio.h>
#include <sys/stat.h>

#include "options.h"
#include "preflight.h"

int pf_root_check(const char *option, const char *pattern, int rank, const char *host, char *out, size_t len,
                  char *why, size_t whylen)
{
    struct stat st;
    if (pf_expand_root(pattern, rank, host, out, len) != 0) {
        snprintf(why, whylen, "--%s: '%.200s' is too long after %%r/%%h (accepted: a directory)", option, pattern);
        return 1;
    }
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, whylen, "--%s: '%.200s' (rank %d) is not a directory (accepted: a directory; %%r rank, %%h host)",
                 option, out, rank);
        return 1;
    }
    return 0;
}

void pf_node_name(const pf_where_t *where, const char *host, char *out, size_t len)
{
    char text[64];
    if (pf_read(where->proc_root, "sys/kernel/hostname", text, sizeof text) == 0 && text[0])
        snprintf(out, len, "%.*s", (int)(len ? len - 1 : 0), text);
    else
        snprintf(out, len, "%.*s", (int)(len ? len - 1 : 0), host);
}

void pf_gather_local(pf_node_t *node, const pf_where_t *where)
{
    pf_gather_system(node, where);
    if (pf_gather_nics(node, where) != 0)
        pf_finding(node, PF_FAIL, "nics", "could not list the NICs (out of memory)");
    if (pf_gather_gpus(node, where) != 0)
        pf_finding(node, PF_FAIL, "gpus", "could not list the GPUs (out of memory)");
    pf_gather_stack(node, where);
    pf_check_node(node);
}
