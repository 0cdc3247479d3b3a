/* ibnetdiscover's topology file: "Switch N "S-guid" # "description" ..." and "Ca N "H-guid" #
 * "host nic"" blocks, each followed by its ports ("[p] "S-guid"[q] # ..."). A switch with a host
 * channel adapter on a port is a leaf; the others are levels above, each switch's parent the
 * switch one level up that it has the most links to. A host's NICs each name the leaf they reach
 * as their rail; the host hangs from the leaf of its first NIC. Routers ("Rt") are skipped. */
#include <stdlib.h>
#include <string.h>

#include "topology.h"

typedef struct device {
    char guid[40], desc[FP_TOPO_NAME];
    char kind; /* 'S' switch, 'H' channel adapter */
    int level, sw; /* switches: level (0 leaf, -1 none yet), index in the topology */
} device_t;

typedef struct fabric {
    device_t *dev;
    size_t ndev, capdev;
    fp_name_index_t index; /* devices by guid */
    int (*link)[2]; /* device pairs, one per port line of a switch */
    size_t nlink, caplink;
} fabric_t;

static const char *guid_of(const void *items, size_t i)
{
    return ((const device_t *)items)[i].guid;
}

/* The device of guid, added (kind '?' until its own block says) when new; -1 out of memory. */
static int device(fabric_t *f, const char *guid)
{
    int known = fp_name_index_find(&f->index, f->dev, guid_of, guid);
    if (known >= 0)
        return known;
    if (f->ndev == f->capdev) {
        size_t cap = f->capdev ? 2 * f->capdev : 256;
        device_t *d = realloc(f->dev, cap * sizeof *d);
        if (!d)
            return -1;
        f->dev = d;
        f->capdev = cap;
    }
    device_t *d = &f->dev[f->ndev++];
    memset(d, 0, sizeof *d);
    snprintf(d->guid, sizeof d->guid, "%s", guid);
    d->kind = guid[0] == 'S' ? 'S' : guid[0] == 'H' ? 'H' : '?';
    d->level = -1;
    d->sw = -1;
    return fp_name_index_add(&f->index, f->dev, f->ndev, guid_of) ? -1 : (int)f->ndev - 1;
}

/* The n-th quoted string of s (0: the first) into out; 0 when found. */
static int quoted(const char *s, int n, char *out, size_t len)
{
    for (int i = 0;; i++) {
        const char *a = strchr(s, '"');
        if (!a)
            return -1;
        const char *b = strchr(a + 1, '"');
        if (!b)
            return -1;
        if (i == n) {
            snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
            return 0;
        }
        s = b + 1;
    }
}

static int add_link(fabric_t *f, int a, int b)
{
    if (f->nlink == f->caplink) {
        size_t cap = f->caplink ? 2 * f->caplink : 1024;
        int(*l)[2] = realloc(f->link, cap * sizeof *l);
        if (!l)
            return -1;
        f->link = l;
        f->caplink = cap;
    }
    f->link[f->nlink][0] = a;
    f->link[f->nlink++][1] = b;
    return 0;
}

/* "MF0;leaf-07:MQM8700/U1" -> "leaf-07"; anything else as it is. */
static void switch_name(const char *desc, char *out, size_t len)
{
    const char *semi = strchr(desc, ';'), *colon = semi ? strchr(semi, ':') : NULL;
    if (semi && colon && colon > semi + 1)
        snprintf(out, len, "%.*s", (int)(colon - semi - 1), semi + 1);
    else
        snprintf(out, len, "%s", desc);
}

/* Pass over the lines: devices, their descriptions, and the switches' port links. */
static int read_lines(fabric_t *f, char *text, const char *name, char *err, size_t errlen)
{
    int line = 0, current = -1;
    for (char *p = text, *next; p; p = next) {
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        line++;
        char guid[40], desc[FP_TOPO_NAME] = "";
        char *hash_mark = strchr(p, '#');
        if (strncmp(p, "Switch", 6) == 0 || strncmp(p, "Ca", 2) == 0 || strncmp(p, "Rt", 2) == 0) {
            if (quoted(p, 0, guid, sizeof guid) || (guid[0] != 'S' && guid[0] != 'H' && guid[0] != 'R')) {
                snprintf(err, errlen, "%s:%d: a node line without its \"S-guid\" or \"H-guid\"", name, line);
                return -1;
            }
            if (p[0] == 'R') { /* a router: its ports lead elsewhere */
                current = -1;
                continue;
            }
            current = device(f, guid);
            if (current < 0)
                goto oom;
            if (hash_mark)
                quoted(hash_mark, 0, desc, sizeof desc);
            snprintf(f->dev[current].desc, sizeof f->dev[current].desc, "%s", desc);
            f->dev[current].kind = p[0] == 'S' ? 'S' : 'H';
        } else if (p[0] == '[' && current >= 0) {
            char *body = strchr(p, ']'); /* "[p](portguid)" on a CA, "[p]" on a switch */
            if (!body || quoted(body, 0, guid, sizeof guid)) {
                snprintf(err, errlen, "%s:%d: a port line without the \"guid\" it leads to", name, line);
                return -1;
            }
            if (f->dev[current].kind != 'S' || guid[0] == 'R')
                continue; /* every link is listed from its switch's side */
            int remote = device(f, guid);
            if (remote < 0 || add_link(f, current, remote))
                goto oom;
            /* the far end's description, until its own block (if any) says it */
            if (!f->dev[remote].desc[0] && hash_mark && quoted(hash_mark, 0, desc, sizeof desc) == 0)
                snprintf(f->dev[remote].desc, sizeof f->dev[remote].desc, "%s", desc);
        }
    }
    return 0;
oom:
    snprintf(err, errlen, "%s: out of memory for %zu devices", name, f->ndev);
    return -1;
}

/* Levels: 0 for switches with an adapter, then each ring of switches around them. */
static void set_levels(fabric_t *f)
{
    for (size_t l = 0; l < f->nlink; l++) {
        device_t *a = &f->dev[f->link[l][0]], *b = &f->dev[f->link[l][1]];
        if (a->kind == 'S' && b->kind == 'H')
            a->level = 0;
    }
    for (int level = 0, grew = 1; grew; level++) {
        grew = 0;
        for (size_t l = 0; l < f->nlink; l++)
            for (int side = 0; side < 2; side++) {
                device_t *a = &f->dev[f->link[l][side]], *b = &f->dev[f->link[l][!side]];
                if (a->kind == 'S' && b->kind == 'S' && a->level == level && b->level < 0)
                    b->level = level + 1, grew = 1;
            }
    }
}

static int by_pair(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

static int build(fabric_t *f, fp_topology_t *t, const char *name, char *err, size_t errlen)
{
    char why[320], sname[FP_TOPO_NAME];
    for (size_t i = 0; i < f->ndev; i++) { /* switches, named by description unless two share it */
        device_t *d = &f->dev[i];
        if (d->kind != 'S')
            continue;
        switch_name(d->desc, sname, sizeof sname);
        int shared = !sname[0];
        for (size_t j = 0; j < f->ndev && !shared; j++) {
            char other[FP_TOPO_NAME];
            switch_name(f->dev[j].desc, other, sizeof other);
            shared = j != i && f->dev[j].kind == 'S' && strcmp(other, sname) == 0;
        }
        if (shared)
            snprintf(sname, sizeof sname, "%s", d->guid);
        if ((d->sw = fp_topo_add_switch(t, sname, why, sizeof why)) < 0)
            goto fail;
    }
    /* parents: the switch one level up with the most links to it (switch pairs sorted, counted) */
    int(*pairs)[2] = malloc((f->nlink + 1) * sizeof *pairs);
    int *best = malloc((f->ndev + 1) * sizeof *best), *best_count = calloc(f->ndev + 1, sizeof *best_count);
    if (!pairs || !best || !best_count) {
        free(pairs);
        free(best);
        free(best_count);
        snprintf(why, sizeof why, "out of memory for %zu links", f->nlink);
        goto fail;
    }
    size_t np = 0;
    for (size_t l = 0; l < f->nlink; l++) {
        int a = f->link[l][0], b = f->link[l][1];
        if (f->dev[a].kind == 'S' && f->dev[b].kind == 'S') {
            pairs[np][0] = a < b ? a : b;
            pairs[np++][1] = a < b ? b : a;
        }
    }
    qsort(pairs, np, sizeof *pairs, by_pair);
    for (size_t i = 0; i < f->ndev; i++)
        best[i] = -1;
    for (size_t i = 0, j; i < np; i = j) {
        for (j = i; j < np && pairs[j][0] == pairs[i][0] && pairs[j][1] == pairs[i][1]; j++)
            ;
        int count = (int)(j - i);
        for (int side = 0; side < 2; side++) {
            int lo = pairs[i][side], up = pairs[i][!side];
            if (f->dev[lo].level >= 0 && f->dev[up].level == f->dev[lo].level + 1 && count > best_count[lo])
                best[lo] = up, best_count[lo] = count;
        }
    }
    for (size_t i = 0; i < f->ndev; i++)
        if (f->dev[i].kind == 'S' && best[i] >= 0)
            t->sw[f->dev[i].sw].parent = f->dev[best[i]].sw;
    free(pairs);
    free(best);
    free(best_count);
    for (size_t l = 0; l < f->nlink; l++) { /* hosts and their NICs */
        device_t *s = &f->dev[f->link[l][0]], *h = &f->dev[f->link[l][1]];
        if (s->kind != 'S' || h->kind != 'H')
            continue;
        char host[FP_TOPO_NAME], nic[FP_TOPO_NAME];
        size_t w = strcspn(h->desc, " \t");
        snprintf(host, sizeof host, "%.*s", (int)w, h->desc);
        const char *rest = h->desc + w + strspn(h->desc + w, " \t");
        snprintf(nic, sizeof nic, "%s", *rest ? rest : h->guid);
        if (!host[0]) {
            snprintf(why, sizeof why, "adapter %s has no description naming its host", h->guid);
            goto fail;
        }
        int known = 0;
        for (size_t k = 0; k < t->nnic && !known; k++)
            known = strcmp(t->nic[k].node, host) == 0 && strcmp(t->nic[k].nic, nic) == 0;
        if (!known && fp_topo_add_nic(t, host, nic, t->sw[s->sw].name, why, sizeof why))
            goto fail;
        if (fp_topology_switch_of(t, host) < 0 && fp_topo_add_node(t, host, s->sw, why, sizeof why))
            goto fail;
    }
    return 0;
fail:
    snprintf(err, errlen, "%s: %s", name, why);
    return -1;
}

int fp_topo_parse_ibnet(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen)
{
    fabric_t f = {0};
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    int rc = -1;
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(copy, text, n + 1);
    if (read_lines(&f, copy, name, err, errlen) == 0) {
        set_levels(&f);
        rc = build(&f, t, name, err, errlen);
    }
    free(copy);
    free(f.dev);
    fp_name_index_free(&f.index);
    free(f.link);
    return rc;
}
