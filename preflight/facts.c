/* A node's facts and findings, and reading the files they come from. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preflight.h"
#include "sysfs_net.h"

/* Grows an array by doubling; on failure the fact is dropped (the table says less, never lies). */
static void *grow(void *items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return items;
    size_t more = *cap ? *cap * 2 : 32;
    void *bigger = realloc(items, more * size);
    if (!bigger)
        return NULL;
    *cap = more;
    return bigger;
}

void pf_fact(pf_node_t *node, const char *device, const char *key, int same, const char *fmt, ...)
{
    pf_fact_t *facts = grow(node->facts, &node->facts_cap, node->nfacts, sizeof *facts);
    if (!facts)
        return;
    node->facts = facts;
    pf_fact_t *f = &facts[node->nfacts++];
    memset(f, 0, sizeof *f);
    snprintf(f->device, sizeof f->device, "%s", device);
    snprintf(f->key, sizeof f->key, "%s", key);
    f->same = same;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->value, sizeof f->value, fmt, ap);
    va_end(ap);
}

void pf_fact_fix(pf_node_t *node, int numeric, const char *fix)
{
    if (!node->nfacts)
        return;
    pf_fact_t *f = &node->facts[node->nfacts - 1];
    f->numeric = numeric;
    snprintf(f->fix, sizeof f->fix, "%s", fix);
}

void pf_fact_good(pf_node_t *node, const char *good)
{
    if (node->nfacts)
        snprintf(node->facts[node->nfacts - 1].good, sizeof node->facts[0].good, "%s", good);
}

void pf_fact_set(pf_node_t *node)
{
    if (node->nfacts)
        node->facts[node->nfacts - 1].set = 1;
}

static int word_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void pf_set_canonical(const char *value, char *out, size_t len)
{
    char copy[sizeof ((pf_fact_t *)0)->value], *words[sizeof copy / 2], *save = NULL;
    size_t n = 0;
    snprintf(copy, sizeof copy, "%s", value);
    for (char *w = strtok_r(copy, " ", &save); w && n < sizeof words / sizeof words[0]; w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    qsort(words, n, sizeof words[0], word_cmp);
    if (len)
        out[0] = '\0';
    for (size_t i = 0, used = 0; i < n && used < len; i++, used = strlen(out))
        snprintf(out + used, len - used, "%s%s", i ? " " : "", words[i]);
}

void pf_finding(pf_node_t *node, int level, const char *device, const char *fmt, ...)
{
    pf_finding_t *list = grow(node->findings, &node->findings_cap, node->nfindings, sizeof *list);
    if (!list)
        return;
    node->findings = list;
    pf_finding_t *f = &list[node->nfindings++];
    memset(f, 0, sizeof *f);
    f->level = level;
    snprintf(f->node, sizeof f->node, "%s", node->node);
    snprintf(f->device, sizeof f->device, "%s", device);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text, sizeof f->text, fmt, ap);
    va_end(ap);
    for (char *p = f->text; *p; p++) /* one line per finding, whatever a file held */
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

const pf_fact_t *pf_fact_find(const pf_node_t *node, const char *device, const char *key)
{
    for (size_t i = 0; i < node->nfacts; i++)
        if (strcmp(node->facts[i].device, device) == 0 && strcmp(node->facts[i].key, key) == 0)
            return &node->facts[i];
    return NULL;
}

const char *pf_fact_value(const pf_node_t *node, const char *device, const char *key)
{
    const pf_fact_t *f = pf_fact_find(node, device, key);
    return f ? f->value : NULL;
}

const char *pf_fact_compared(const pf_node_t *node, const char *device, const char *key, char *buf, size_t len)
{
    const pf_fact_t *f = pf_fact_find(node, device, key);
    if (!f || !f->set)
        return f ? f->value : NULL;
    pf_set_canonical(f->value, buf, len);
    return buf;
}

void pf_node_free(pf_node_t *node)
{
    free(node->facts);
    free(node->findings);
    memset(node, 0, sizeof *node);
}

int pf_read(const char *root, const char *rel, char *buf, size_t len)
{
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", root, rel);
    if (n < 0 || (size_t)n >= sizeof path) {
        buf[0] = '\0';
        return -1;
    }
    return fp_sysfs_read(path, buf, len) == 0 ? 0 : -1;
}

int pf_exists(const char *root, const char *rel)
{
    char path[1024];
    int n = snprintf(path, sizeof path, "%s/%s", root, rel);
    return n >= 0 && (size_t)n < sizeof path && access(path, F_OK) == 0;
}
