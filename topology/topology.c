/* Reading a topology: its format recognized, and fabperf's own format (topology.h). */
#include "topology.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"

#define TOPO_FILE_MAX (64u << 20) /* a topology file larger than this is not one */

/* ---- fabperf's own format ---- */

typedef struct on_node {
    fp_topology_t *t;
    int sw;
    char *err;
    size_t errlen;
} on_node_t;

static int add_listed_node(const char *name, void *arg)
{
    on_node_t *o = arg;
    return fp_topo_add_node(o->t, name, o->sw, o->err, o->errlen);
}

/* The value of "key=value" among the words after the name; NULL when absent. */
static const char *value_of(char **words, int nwords, const char *key)
{
    size_t k = strlen(key);
    for (int i = 2; i < nwords; i++)
        if (strncmp(words[i], key, k) == 0 && words[i][k] == '=')
            return words[i] + k + 1;
    return NULL;
}

static int fabperf_line(fp_topology_t *t, char **words, int n, char *why, size_t len)
{
    const char *kind = words[0];
    static const char *const accepted = "switch NAME [parent=SWITCH], node HOSTLIST switch=SWITCH, nic NODE:NIC rail=ID";
    if (n < 2) {
        snprintf(why, len, "'%s' without a name (accepted: %s)", kind, accepted);
        return -1;
    }
    const char *want = strcmp(kind, "switch") == 0 ? "parent" : strcmp(kind, "node") == 0 ? "switch"
                       : strcmp(kind, "nic") == 0  ? "rail"
                                                   : NULL;
    if (!want) {
        snprintf(why, len, "'%s' is not a statement (accepted: %s)", kind, accepted);
        return -1;
    }
    for (int i = 2; i < n; i++)
        if (strncmp(words[i], want, strlen(want)) != 0 || words[i][strlen(want)] != '=' || !words[i][strlen(want) + 1]) {
            snprintf(why, len, "'%s' in a %s statement (accepted: %s=VALUE, once)", words[i], kind, want);
            return -1;
        }
    if (n > 3) {
        snprintf(why, len, "%s=... given twice", want);
        return -1;
    }
    const char *value = value_of(words, n, want);
    if (strcmp(kind, "switch") == 0) {
        int parent = -1;
        if (value && (parent = fp_topo_find_switch(t, value)) < 0) {
            snprintf(why, len, "parent '%s' of switch '%s' is not declared above it", value, words[1]);
            return -1;
        }
        if (fp_topo_find_switch(t, words[1]) >= 0) {
            snprintf(why, len, "switch '%s' declared twice", words[1]);
            return -1;
        }
        int s = fp_topo_add_switch(t, words[1], why, len);
        if (s < 0)
            return -1;
        t->sw[s].parent = parent;
        return 0;
    }
    if (!value) {
        snprintf(why, len, "%s '%s' without %s=", kind, words[1], want);
        return -1;
    }
    if (strcmp(kind, "node") == 0) {
        int sw = fp_topo_find_switch(t, value);
        if (sw < 0) {
            snprintf(why, len, "switch '%s' of node '%s' is not declared above it", value, words[1]);
            return -1;
        }
        on_node_t o = {t, sw, why, len};
        return fp_hostlist_each(words[1], add_listed_node, &o, why, len);
    }
    char *colon = strchr(words[1], ':');
    if (!colon || colon == words[1] || !colon[1]) {
        snprintf(why, len, "NIC '%s' is not NODE:NIC (n01:mlx5_0)", words[1]);
        return -1;
    }
    *colon = '\0';
    return fp_topo_add_nic(t, words[1], colon + 1, value, why, len);
}

/* Splits line (modified) into at most max words; returns how many. */
static int split_words(char *line, char **words, int max)
{
    int n = 0;
    for (char *p = strtok(line, " \t\r"); p && n < max; p = strtok(NULL, " \t\r"))
        words[n++] = p;
    return n;
}

int fp_topo_parse_fabperf(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen)
{
    size_t n = strlen(text);
    char *copy = malloc(n + 1), why[320];
    if (!copy) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    memcpy(copy, text, n + 1);
    int line = 0, rc = 0;
    for (char *p = copy, *next; p && !rc; p = next) {
        next = strchr(p, '\n');
        if (next)
            *next++ = '\0';
        line++;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        char *words[8];
        int nw = split_words(p, words, 8);
        if (nw == 0)
            continue;
        if (nw == 8) {
            snprintf(why, sizeof why, "too many words");
            rc = -1;
        } else {
            rc = fabperf_line(t, words, nw, why, sizeof why);
        }
        if (rc)
            snprintf(err, errlen, "%s:%d: %s", name, line, why);
    }
    free(copy);
    return rc;
}

/* ---- reading and recognizing ---- */

/* The first word of the first line that is not blank or a comment. */
static void first_word(const char *text, char *word, size_t len)
{
    word[0] = '\0';
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p == '#') {
            p = strchr(p, '\n');
            if (!p)
                return;
            continue;
        }
        size_t n = strcspn(p, " \t\r\n");
        snprintf(word, len, "%.*s", (int)(n < len ? n : len - 1), p);
        return;
    }
}

static int parse(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen);

int fp_topology_parse(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen)
{
    int rc = parse(text, name, t, err, errlen);
    for (char *p = err; rc && *p; p++) /* errors quote the file: its control bytes never reach a terminal */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return rc;
}

static int parse(const char *text, const char *name, fp_topology_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    char word[64];
    first_word(text, word, sizeof word);
    int rc;
    /* Slurm's keys are case-insensitive; ibnetdiscover starts each node with vendid= (or a
     * switch or CA line) */
    if (strncasecmp(word, "SwitchName=", 11) == 0) {
        t->format = "slurm";
        rc = fp_topo_parse_slurm(text, name, t, err, errlen);
    } else if (strncmp(word, "vendid=", 7) == 0 || strcmp(word, "Switch") == 0 || strcmp(word, "Ca") == 0) {
        t->format = "ibnetdiscover";
        rc = fp_topo_parse_ibnet(text, name, t, err, errlen);
    } else if (!word[0]) {
        snprintf(err, errlen, "%s: no switch or node in it (empty, or only comments)", name);
        return -1;
    } else {
        t->format = "fabperf";
        rc = fp_topo_parse_fabperf(text, name, t, err, errlen);
    }
    if (rc == 0 && t->nnode == 0) {
        snprintf(err, errlen, "%s: no node in it (%s format: %zu switch(es), none with nodes)", name, t->format, t->nsw);
        return -1;
    }
    if (rc == 0 && fp_topo_check_cycles(t, err, errlen) != 0) {
        char inner[256];
        snprintf(inner, sizeof inner, "%s", err);
        snprintf(err, errlen, "%s: %s", name, inner);
        return -1;
    }
    return rc;
}

int fp_topology_read(const char *path, fp_topology_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    while (text) {
        n += fread(text + n, 1, cap - n - 1, f);
        if (n < cap - 1 || cap >= TOPO_FILE_MAX)
            break;
        char *bigger = realloc(text, 2 * cap);
        if (!bigger)
            free(text);
        text = bigger;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (!text || failed || n >= TOPO_FILE_MAX - 1) {
        snprintf(err, errlen, "%s: %s", path, !text ? "out of memory" : failed ? "read error" : "larger than 64 MiB");
        free(text);
        return -1;
    }
    text[n] = '\0';
    if (memchr(text, '\0', n)) {
        snprintf(err, errlen, "%s: a NUL byte: not a text file", path);
        free(text);
        return -1;
    }
    int rc = fp_topology_parse(text, path, t, err, errlen);
    free(text);
    return rc;
}
