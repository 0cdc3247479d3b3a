/* A strict recursive-descent JSON reader; depth is bounded so that hostile input cannot exhaust
 * the stack. */
#include "json_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64
#define MAX_FILE_BYTES (64u << 20) /* a baseline of every size of many programs is far below */

typedef struct {
    const char *text, *at, *end;
    int depth;
    char *err;
    size_t errlen;
} reader_t;

static fp_json_t *fail(reader_t *r, const char *what)
{
    if (r->err[0]) /* the innermost failure is the one to say */
        return NULL;
    int line = 1, column = 1;
    for (const char *p = r->text; p < r->at && p < r->end; p++) {
        if (*p == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    snprintf(r->err, r->errlen, "line %d, column %d: %s", line, column, what);
    return NULL;
}

static void skip_blanks(reader_t *r)
{
    while (r->at < r->end && (*r->at == ' ' || *r->at == '\t' || *r->at == '\n' || *r->at == '\r'))
        r->at++;
}

static fp_json_t *node(reader_t *r, fp_json_kind_t kind)
{
    fp_json_t *v = calloc(1, sizeof *v);
    if (!v)
        return fail(r, "out of memory");
    v->kind = kind;
    return v;
}

static int literal(reader_t *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->at) < n || memcmp(r->at, word, n) != 0)
        return 0;
    r->at += n;
    return 1;
}

static int hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* One \u escape (and its low surrogate where it is a high one) at r->at, after the "\u". */
static int unicode_escape(reader_t *r, unsigned *cp)
{
    if (r->end - r->at < 4 || !hex4(r->at, cp))
        return 0;
    r->at += 4;
    if (*cp >= 0xdc00 && *cp <= 0xdfff)
        return 0;
    if (*cp >= 0xd800 && *cp <= 0xdbff) {
        unsigned low;
        if (r->end - r->at < 6 || r->at[0] != '\\' || r->at[1] != 'u' || !hex4(r->at + 2, &low) || low < 0xdc00 ||
            low > 0xdfff)
            return 0;
        r->at += 6;
        *cp = 0x10000 + ((*cp - 0xd800) << 10) + (low - 0xdc00);
    }
    return *cp != 0;
}

/* A string at r->at (its opening quote); a new NUL-terminated copy, or NULL. */
static char *string_value(reader_t *r)
{
    r->at++;
    const char *start = r->at;
    while (r->at < r->end && *r->at != '"')
        r->at += *r->at == '\\' && r->at + 1 < r->end ? 2 : 1;
    if (r->at >= r->end)
        return (char *)fail(r, "a string is not closed");
    /* Escapes only shrink: the raw length bounds the decoded one. */
    char *out = malloc((size_t)(r->at - start) + 1), *o = out;
    if (!out)
        return (char *)fail(r, "out of memory");
    const char *close = r->at;
    r->at = start;
    while (r->at < close) {
        unsigned char c = (unsigned char)*r->at;
        if (c < 0x20) {
            free(out);
            return (char *)fail(r, "a control character inside a string");
        }
        if (c != '\\') {
            *o++ = (char)c;
            r->at++;
            continue;
        }
        char e = r->at[1];
        r->at += 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *known = e ? strchr(from, e) : NULL;
        unsigned cp;
        if (known) {
            *o++ = to[known - from];
        } else if (e == 'u' && unicode_escape(r, &cp)) {
            o += put_utf8(o, cp);
        } else {
            free(out);
            return (char *)fail(r, e == 'u' ? "a \\u escape that is not a character (or is \\u0000)"
                                            : "an unknown escape in a string");
        }
    }
    *o = '\0';
    r->at = close + 1;
    return out;
}

/* JSON's number grammar, checked before strtod, which takes more (hex, inf, a leading +). */
static fp_json_t *number_value(reader_t *r)
{
    const char *p = r->at;
    if (p < r->end && *p == '-')
        p++;
    if (p < r->end && *p == '0')
        p++;
    else if (p < r->end && *p >= '1' && *p <= '9')
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    else
        return fail(r, "not a JSON value");
    if (p < r->end && *p == '.') {
        const char *digits = ++p;
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
        if (p == digits)
            return fail(r, "a number with no digit after its point");
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < r->end && (*p == '+' || *p == '-'))
            p++;
        const char *digits = p;
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
        if (p == digits)
            return fail(r, "a number with no digit in its exponent");
    }
    char buf[64];
    if ((size_t)(p - r->at) >= sizeof buf)
        return fail(r, "a number longer than 63 characters");
    memcpy(buf, r->at, (size_t)(p - r->at));
    buf[p - r->at] = '\0';
    fp_json_t *v = node(r, FP_JSON_NUMBER);
    if (!v)
        return NULL;
    errno = 0;
    v->number = strtod(buf, NULL);
    if (errno == ERANGE && (v->number > 1 || v->number < -1)) {
        free(v);
        return fail(r, "a number beyond a double's range");
    }
    r->at = p;
    return v;
}

static fp_json_t *value(reader_t *r);

/* An array or an object, at its opening bracket. */
static fp_json_t *container(reader_t *r, int object)
{
    if (++r->depth > MAX_DEPTH)
        return fail(r, "nested deeper than 64 levels");
    fp_json_t *v = node(r, object ? FP_JSON_OBJECT : FP_JSON_ARRAY), **tail = v ? &v->child : NULL;
    if (!v)
        return NULL;
    char close = object ? '}' : ']';
    r->at++;
    skip_blanks(r);
    if (r->at < r->end && *r->at == close) {
        r->at++;
        r->depth--;
        return v;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            skip_blanks(r);
            if (r->at >= r->end || *r->at != '"') {
                fp_json_free(v);
                return fail(r, "an object member must start with its name in quotes");
            }
            if (!(key = string_value(r))) {
                fp_json_free(v);
                return NULL;
            }
            skip_blanks(r);
            if (r->at >= r->end || *r->at != ':') {
                free(key);
                fp_json_free(v);
                return fail(r, "a ':' must follow a member's name");
            }
            r->at++;
        }
        fp_json_t *element = value(r);
        if (!element) {
            free(key);
            fp_json_free(v);
            return NULL;
        }
        element->key = key;
        *tail = element;
        tail = &element->next;
        skip_blanks(r);
        if (r->at < r->end && *r->at == ',') {
            r->at++;
            continue;
        }
        if (r->at < r->end && *r->at == close) {
            r->at++;
            r->depth--;
            return v;
        }
        fp_json_free(v);
        return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static fp_json_t *value(reader_t *r)
{
    skip_blanks(r);
    if (r->at >= r->end)
        return fail(r, "the text ends where a value should be");
    fp_json_t *v;
    switch (*r->at) {
    case '{': return container(r, 1);
    case '[': return container(r, 0);
    case '"': {
        char *s = string_value(r);
        if (!s || !(v = node(r, FP_JSON_STRING))) {
            free(s);
            return NULL;
        }
        v->string = s;
        return v;
    }
    default: break;
    }
    int is_true = literal(r, "true");
    if (is_true || literal(r, "false")) {
        if ((v = node(r, FP_JSON_BOOL)))
            v->boolean = is_true;
        return v;
    }
    if (literal(r, "null"))
        return node(r, FP_JSON_NULL);
    return number_value(r);
}

fp_json_t *fp_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    reader_t r = {text, text, text + len, 0, err, errlen};
    err[0] = '\0';
    fp_json_t *v = value(&r);
    if (!v)
        return NULL;
    skip_blanks(&r);
    if (r.at < r.end) {
        fp_json_free(v);
        return fail(&r, "text after the value");
    }
    return v;
}

fp_json_t *fp_json_read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            size_t grown = cap ? cap * 2 : 65536;
            char *more = grown <= MAX_FILE_BYTES ? realloc(text, grown) : NULL;
            if (!more) {
                free(text);
                fclose(f);
                snprintf(err, errlen, "%s: %s", path, grown > MAX_FILE_BYTES ? "larger than 64 MiB" : "out of memory");
                return NULL;
            }
            text = more;
            cap = grown;
        }
        size_t n = fread(text + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        snprintf(err, errlen, "%s: read error", path);
        return NULL;
    }
    char why[256];
    fp_json_t *v = fp_json_parse(text, len, why, sizeof why);
    free(text);
    if (!v)
        snprintf(err, errlen, "%s: not JSON: %s", path, why);
    return v;
}

void fp_json_free(fp_json_t *v)
{
    while (v) {
        fp_json_t *next = v->next;
        fp_json_free(v->child);
        free(v->string);
        free(v->key);
        free(v);
        v = next;
    }
}

const fp_json_t *fp_json_member(const fp_json_t *v, const char *key)
{
    if (!v || v->kind != FP_JSON_OBJECT)
        return NULL;
    for (const fp_json_t *m = v->child; m; m = m->next)
        if (strcmp(m->key, key) == 0)
            return m;
    return NULL;
}

const char *fp_json_member_string(const fp_json_t *v, const char *key)
{
    const fp_json_t *m = fp_json_member(v, key);
    return m && m->kind == FP_JSON_STRING ? m->string : NULL;
}
