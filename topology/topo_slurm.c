/* Slurm's topology.conf for the tree plugin: "SwitchName=S [Nodes=HOSTLIST] [Switches=HOSTLIST]
 * [LinkSpeed=N]", keys in any case, '#' comments, a trailing '\' joining lines. A switch listed in
 * another's Switches= is its child; switches may be declared in any order. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"
#include "topology.h"

typedef struct statement {
    int line;
    char *name, *nodes, *switches;
} statement_t;

typedef struct on_child {
    fp_topology_t *t;
    int parent;
    int node; /* 1: Nodes=, 0: Switches= */
    char *err;
    size_t errlen;
} on_child_t;

static int add_child(const char *name, void *arg)
{
    on_child_t *o = arg;
    if (o->node)
        return fp_topo_add_node(o->t, name, o->parent, o->err, o->errlen);
    int s = fp_topo_find_switch(o->t, name);
    if (s < 0) {
        snprintf(o->err, o->errlen, "switch '%s' in Switches= of '%s' has no SwitchName= line", name,
                 o->t->sw[o->parent].name);
        return -1;
    }
    if (o->t->sw[s].parent >= 0 && o->t->sw[s].parent != o->parent) {
        snprintf(o->err, o->errlen, "switch '%s' is under two switches, '%s' and '%s' (a tree has one parent)", name,
                 o->t->sw[o->t->sw[s].parent].name, o->t->sw[o->parent].name);
        return -1;
    }
    o->t->sw[s].parent = o->parent;
    return 0;
}

/* One statement's words into st; why on a word that is not a known key. */
static int read_statement(char *text, statement_t *st, char *why, size_t len)
{
    for (char *w = strtok(text, " \t\r"); w; w = strtok(NULL, " \t\r")) {
        char *eq = strchr(w, '=');
        if (!eq || eq == w || !eq[1]) {
            snprintf(why, len, "'%s' is not KEY=VALUE", w);
            return -1;
        }
        *eq = '\0';
        char *v = eq + 1, **slot = strcasecmp(w, "SwitchName") == 0 ? &st->name
                                   : strcasecmp(w, "Nodes") == 0    ? &st->nodes
                                   : strcasecmp(w, "Switches") == 0 ? &st->switches
                                                                     : NULL;
        if (strcasecmp(w, "LinkSpeed") == 0)
            continue; /* a relative weight for Slurm's scheduler: no topology in it */
        if (strcasecmp(w, "BlockName") == 0 || strcasecmp(w, "BlockSizes") == 0) {
            snprintf(why, len, "%s= belongs to the block plugin's topology, not a tree of switches", w);
            return -1;
        }
        if (!slot) {
            snprintf(why, len, "'%s=' is not a key of a tree topology (accepted: SwitchName, Switches, Nodes, LinkSpeed)",
                     w);
            return -1;
        }
        if (*slot) {
            snprintf(why, len, "%s= given twice", w);
            return -1;
        }
        *slot = v;
    }
    if (!st->name) {
        snprintf(why, len, "a line without SwitchName=");
        return -1;
    }
    return 0;
}

int fp_topo_parse_slurm(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1), why[320];
    statement_t *st = calloc(n / 12 + 2, sizeof *st); /* a statement has at least "SwitchName=x\n" */
    if (!copy || !st) {
        free(copy);
        free(st);
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(copy, text, n + 1);
    size_t count = 0;
    int line = 0, rc = 0;
    /* pass one: statements (joined lines) and their switches */
    for (char *p = copy, *next; p && !rc; p = next) {
        line++;
        int first = line;
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        for (size_t k = strlen(p); k > 0 && strchr(" \t\r", p[k - 1]);)
            p[--k] = '\0';
        while (next && strlen(p) && p[strlen(p) - 1] == '\\') { /* continued on the next line */
            p[strlen(p) - 1] = ' ';
            char *more = next;
            next = strchr(more, '\n');
            if (next)
                *next++ = '\0';
            line++;
            char *h = strchr(more, '#');
            if (h)
                *h = '\0';
            memmove(p + strlen(p), more, strlen(more) + 1); /* more lies after p: the join fits */
            for (size_t k = strlen(p); k > 0 && strchr(" \t\r", p[k - 1]);)
                p[--k] = '\0';
        }
        if (!p[strspn(p, " \t\r")])
            continue;
        statement_t *s = &st[count];
        s->line = first;
        rc = read_statement(p, s, why, sizeof why);
        if (!rc && fp_topo_find_switch(t, s->name) >= 0)
            snprintf(why, sizeof why, "switch '%s' has two SwitchName= lines", s->name), rc = -1;
        if (!rc && fp_topo_add_switch(t, s->name, why, sizeof why) < 0)
            rc = -1;
        if (rc)
            snprintf(err, errlen, "%s:%d: %s", name, first, why);
        count++;
    }
    /* pass two: children, now that every switch is known */
    for (size_t i = 0; i < count && !rc; i++) {
        on_child_t o = {t, fp_topo_find_switch(t, st[i].name), 1, why, sizeof why};
        if (st[i].nodes)
            rc = fp_hostlist_each(st[i].nodes, add_child, &o, why, sizeof why);
        o.node = 0;
        if (!rc && st[i].switches)
            rc = fp_hostlist_each(st[i].switches, add_child, &o, why, sizeof why);
        if (rc)
            snprintf(err, errlen, "%s:%d: %s", name, st[i].line, why);
    }
    free(copy);
    free(st);
    return rc;
}
