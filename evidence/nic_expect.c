/* --expect-nic, per node: a link whose end has another name on each node, or a name pattern, is
 * judged on each node against that node's own inter-node payload. */
#include "nic_expect.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

#define ACCEPTED "accepted: NAME, NODE:NAME or globs of them (mlx5_*), comma-separated, e.g. eth0 or h1:ens1,h2:ens2"

/* One entry [begin, end): where NAME starts (after a NODE: prefix, if any). */
static const char *name_part(const char *begin, const char *end)
{
    const char *colon = memchr(begin, ':', (size_t)(end - begin));
    if (!colon)
        return begin;
    const char *p = colon + 1;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    return p == end && p > colon + 1 ? begin : colon + 1; /* "mlx5_0:1": a port, not a node */
}

int fp_nic_expect_check(const char *spec, char *err, size_t errlen)
{
    for (const char *begin = spec;; begin++) {
        const char *end = strchr(begin, ',');
        end = end ? end : begin + strlen(begin);
        const char *name = name_part(begin, end);
        if (end == begin || name == end || (name > begin && name - 1 == begin)) {
            snprintf(err, errlen, "--expect-nic: '%s' has an empty NIC or node name (%s)", spec, ACCEPTED);
            return -1;
        }
        if (!*end)
            return 0;
        begin = end;
    }
}

int fp_nic_expect_pattern(const char *spec, const char *node, char *out, size_t len)
{
    const char *fallback = NULL, *fallback_end = NULL;
    for (const char *begin = spec; *begin;) {
        const char *end = strchr(begin, ',');
        end = end ? end : begin + strlen(begin);
        const char *name = name_part(begin, end);
        char host[256];
        snprintf(host, sizeof host, "%.*s", (int)(name > begin ? name - 1 - begin : 0), begin);
        if (name > begin && fnmatch(host, node, 0) == 0) {
            snprintf(out, len, "%.*s", (int)(end - name), name);
            return 1;
        }
        if (name == begin && !fallback) {
            fallback = begin;
            fallback_end = end;
        }
        begin = *end ? end + 1 : end;
    }
    if (!fallback)
        return 0;
    snprintf(out, len, "%.*s", (int)(fallback_end - fallback), fallback);
    return 1;
}

int fp_nic_expect_matches(const char *pattern, const char *nic)
{
    if (fnmatch(pattern, nic, 0) == 0)
        return 1;
    char device[80];
    const char *colon = strrchr(nic, ':');
    if (!colon)
        return 0;
    snprintf(device, sizeof device, "%.*s", (int)(colon - nic), nic);
    return fnmatch(pattern, device, 0) == 0;
}

/* "h2 0.0% through auda, h3: no NIC named": the nodes below the share needed. */
static int short_nodes(const fp_nic_node_t *nodes, int count, const char *spec, char *out, size_t len)
{
    int bad = 0;
    out[0] = '\0';
    for (int i = 0; i < count; i++) {
        const fp_nic_node_t *n = &nodes[i];
        if (n->reference <= 0)
            continue;
        char pattern[128] = "";
        if (n->named && fp_nic_expect_pattern(spec, n->node, pattern, sizeof pattern) &&
            n->through >= FP_NIC_SHARE_NEEDED * n->reference)
            continue;
        if (n->named)
            fp_append(out, len, "%s%s %.1f%% through %s", bad ? ", " : "", n->node, 100 * n->through / n->reference,
                      pattern);
        else
            fp_append(out, len, "%s%s: no NIC named for it", bad ? ", " : "", n->node);
        bad++;
    }
    return bad;
}

void fp_nic_judge(fp_evidence_t *ev, const char *spec, const fp_nic_node_t *nodes, int count, size_t size)
{
    ev->nic_verdict = FP_VERDICT_NONE;
    ev->nic_why[0] = '\0';
    if (!spec)
        return;
    ev->nic_verdict = FP_VERDICT_FAIL;
    if (ev->payload == 0) {
        snprintf(ev->nic_why, sizeof ev->nic_why, "size %zu: nothing had to cross %s: %s", size, spec, ev->summary);
        return;
    }
    int judged = 0;
    for (int i = 0; i < count; i++)
        judged += nodes[i].reference > 0;
    char which[400];
    int bad = short_nodes(nodes, count, spec, which, sizeof which);
    if (judged && !bad) {
        char shared[400] = "";
        for (int i = 0; i < count; i++)
            if (nodes[i].reference > 0 && nodes[i].other_traffic)
                fp_append(shared, sizeof shared, "%s%s", shared[0] ? ", " : "", nodes[i].node);
        ev->nic_verdict = shared[0] ? FP_VERDICT_INCONCLUSIVE : FP_VERDICT_PASS;
        if (shared[0])
            snprintf(ev->nic_why, sizeof ev->nic_why, "size %zu: the NIC --expect-nic %s names on %s carried other "
                     "traffic too: this run's share of it cannot be told; %s", size, spec, shared, ev->summary);
        return;
    }
    if (!judged)
        snprintf(which, sizeof which, "no NIC counter saw the payload");
    snprintf(ev->nic_why, sizeof ev->nic_why, "size %zu: %s (--expect-nic %s needs >= %.0f%% of each node's "
             "inter-node payload); %s", size, which, spec, 100 * FP_NIC_SHARE_NEEDED, ev->summary);
}
