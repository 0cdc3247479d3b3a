/* Host list expansion (hostlist.h): a recursive walk over the brackets of one name. */
#include "hostlist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_LEN 256

typedef struct walk {
    int (*each)(const char *, void *);
    void *arg;
    size_t count;
    char *err;
    size_t errlen;
    const char *item; /* the name being expanded, for errors */
} walk_t;

static int fail(walk_t *w, const char *what)
{
    snprintf(w->err, w->errlen, "'%s': %s", w->item, what);
    return -1;
}

/* One number of a bracket at *p: its value and digit count (the padding). */
static int number(walk_t *w, const char **p, unsigned long *value, int *width)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return fail(w, "a bracket holds numbers and ranges (n[1-4,7])");
    char *end;
    *value = strtoul(s, &end, 10);
    *width = (int)(end - s);
    if (*width > 9)
        return fail(w, "a number of more than 9 digits");
    *p = end;
    return 0;
}

/* Expands name[from..] after prefix (out holds the prefix, len its length). */
static int expand(walk_t *w, const char *rest, char *out, size_t len)
{
    const char *open = strchr(rest, '[');
    if (!open) {
        if (len + strlen(rest) >= NAME_MAX_LEN)
            return fail(w, "a name longer than 255 characters");
        strcpy(out + len, rest);
        if (strchr(out, ']'))
            return fail(w, "']' without '['");
        if (++w->count > FP_HOSTLIST_MAX)
            return fail(w, "expands to more than 1000000 names");
        return w->each(out, w->arg);
    }
    size_t head = (size_t)(open - rest);
    if (len + head >= NAME_MAX_LEN)
        return fail(w, "a name longer than 255 characters");
    memcpy(out + len, rest, head);
    len += head;
    if (memchr(out, ']', len))
        return fail(w, "']' without '['");
    const char *close = strchr(open, ']');
    if (!close)
        return fail(w, "'[' without ']'");
    const char *p = open + 1;
    if (p == close)
        return fail(w, "an empty bracket");
    while (p < close) {
        unsigned long lo, hi;
        int wlo, whi;
        if (number(w, &p, &lo, &wlo))
            return -1;
        hi = lo, whi = wlo;
        if (*p == '-') {
            p++;
            if (number(w, &p, &hi, &whi))
                return -1;
            if (hi < lo) {
                char what[80];
                snprintf(what, sizeof what, "range %lu-%lu runs backwards", lo, hi);
                return fail(w, what);
            }
        }
        if (p < close && *p != ',')
            return fail(w, "a bracket holds numbers and ranges separated by commas (n[1-4,7])");
        if (*p == ',')
            p++;
        int width = wlo; /* n[01-16]: the lower bound's digits pad every number */
        for (unsigned long v = lo; v <= hi; v++) {
            int n = snprintf(out + len, NAME_MAX_LEN - len, "%0*lu", width, v);
            if (n < 0 || len + (size_t)n >= NAME_MAX_LEN)
                return fail(w, "a name longer than 255 characters");
            int rc = expand(w, close + 1, out, len + (size_t)n);
            if (rc)
                return rc;
        }
        (void)whi;
    }
    return 0;
}

int fp_hostlist_each(const char *expr, int (*each)(const char *name, void *arg), void *arg, char *err,
                     size_t errlen)
{
    walk_t w = {each, arg, 0, err, errlen, expr};
    size_t n = strlen(expr);
    char *copy = malloc(n + 1), out[NAME_MAX_LEN];
    if (!copy) {
        snprintf(err, errlen, "out of memory expanding '%s'", expr);
        return -1;
    }
    memcpy(copy, expr, n + 1);
    int rc = 0, depth = 0;
    char *start = copy;
    for (char *p = copy;; p++) { /* items separated by commas outside brackets */
        if (*p == '[')
            depth++;
        else if (*p == ']')
            depth--;
        if (*p && (*p != ',' || depth > 0))
            continue;
        int last = *p == '\0';
        *p = '\0';
        w.item = start;
        if (!*start)
            rc = fail(&w, "an empty name in the list");
        else if (strpbrk(start, " \t"))
            rc = fail(&w, "a space inside a name");
        else
            rc = expand(&w, start, out, 0);
        if (rc || last)
            break;
        start = p + 1;
    }
    free(copy);
    return rc;
}
