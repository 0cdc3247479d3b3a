/* --suspects-from FILE: the nodes an all-pairs results file names (suspects_from.h). */
#include "suspects_from.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

/* Appends a node's name once; 0, or -1 when words is full. */
static int add_word(char *words, size_t len, const char *name)
{
    size_t n = strlen(name), used = strlen(words);
    for (const char *w = words; *w; w += strcspn(w, ",") + (w[strcspn(w, ",")] == ',')) /* each once */
        if (strcspn(w, ",") == n && strncmp(w, name, n) == 0)
            return 0;
    if (used + n + 2 > len)
        return -1;
    snprintf(words + used, len - used, "%s%s", used ? "," : "", name);
    return 0;
}

/* One record: a finding that stands or is undecided adds its nodes. */
static int take(const fp_json_t *r, char *words, size_t len, int *findings, int *results)
{
    const char *type = fp_json_member_string(r, "type"), *status = fp_json_member_string(r, "status");
    if (type && strcmp(type, "meta") == 0)
        (*results)++;
    if (!type || strcmp(type, "finding") != 0 || !status || strcmp(status, "cleared") == 0)
        return 0;
    (*findings)++;
    const fp_json_t *nodes = fp_json_member(r, "nodes");
    for (const fp_json_t *n = nodes && nodes->kind == FP_JSON_ARRAY ? nodes->child : NULL; n; n = n->next)
        if (n->kind == FP_JSON_STRING && n->string[0] && !strchr(n->string, ',') && add_word(words, len, n->string))
            return -1;
    return 0;
}

int fp_suspects_from_file(const char *path, char *words, size_t len, int *findings, char *err, size_t errlen)
{
    char why[1280];
    words[0] = '\0';
    *findings = 0;
    int results = 0, full = 0;
    /* One document (an array of records, or an object), or JSON Lines: the programs' own files. */
    fp_json_t *doc = fp_json_read_file(path, why, sizeof why);
    if (doc) { /* an array of records, or one record, or an object holding a "findings" list */
        const fp_json_t *nested = fp_json_member(doc, "findings");
        const fp_json_t *r = doc->kind == FP_JSON_ARRAY ? doc->child : doc;
        for (; r && !full; r = doc->kind == FP_JSON_ARRAY ? r->next : NULL)
            full = take(r, words, len, findings, &results);
        for (r = nested && nested->kind == FP_JSON_ARRAY ? nested->child : NULL; r && !full; r = r->next)
            full = take(r, words, len, findings, &results);
        fp_json_free(doc);
    } else {
        FILE *f = fopen(path, "r");
        if (!f) {
            snprintf(err, errlen, "--suspects-from: %.1200s", why);
            return -1;
        }
        char *line = NULL;
        size_t cap = 0;
        int number = 0;
        ssize_t got;
        while (!full && (got = getline(&line, &cap, f)) > 0) {
            number++;
            size_t n = (size_t)got;
            while (n && isspace((unsigned char)line[n - 1]))
                n--;
            if (n == 0)
                continue;
            fp_json_t *r = fp_json_parse(line, n, why, sizeof why);
            if (!r) {
                snprintf(err, errlen, "--suspects-from: %.600s: line %d is not JSON (%.300s): accepted: the results of "
                         "fabperf_allpairs --format json", path, number, why);
                free(line);
                fclose(f);
                return -1;
            }
            full = take(r, words, len, findings, &results);
            fp_json_free(r);
        }
        free(line);
        fclose(f);
    }
    if (full) {
        snprintf(err, errlen, "--suspects-from: %.600s: its findings name more nodes than %zu characters hold", path,
                 len - 1);
        return -1;
    }
    if (!results) {
        snprintf(err, errlen, "--suspects-from: %.600s holds no results of a fabperf program (no meta record; accepted: "
                 "the results of fabperf_allpairs --format json)", path);
        return -1;
    }
    return 0;
}

int fp_suspects_node_rank(const char *node)
{
    const char *colon = strrchr(node, ':');
    if (!colon || !colon[1] || colon == node || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
        strlen(colon + 1) > 9)
        return -1;
    return atoi(colon + 1);
}

int fp_suspects_node_is(const char *node, const char *host, int rank)
{
    int r = fp_suspects_node_rank(node);
    if (r < 0)
        return strcmp(node, host) == 0;
    size_t host_len = (size_t)(strrchr(node, ':') - node);
    return r == rank && strlen(host) == host_len && strncmp(node, host, host_len) == 0;
}
