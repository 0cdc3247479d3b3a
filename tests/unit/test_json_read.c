/* The JSON reader: every value kind, escapes, and each refusal with its line and column. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_read.h"

static fp_json_t *parse(const char *text)
{
    char err[256];
    fp_json_t *v = fp_json_parse(text, strlen(text), err, sizeof err);
    if (!v)
        fprintf(stderr, "parse('%s'): %s\n", text, err);
    return v;
}

static void test_values(void)
{
    fp_json_t *v = parse(" {\"a\": [1, -2.5e3, 0, true, false, null], \"b\": {\"c\": \"x\"}, \"a\": 7}\n");
    CHECK(v && v->kind == FP_JSON_OBJECT);
    const fp_json_t *a = fp_json_member(v, "a");
    CHECK(a && a->kind == FP_JSON_ARRAY); /* the first of a repeated name */
    const fp_json_t *x = a ? a->child : NULL;
    CHECK(x && x->kind == FP_JSON_NUMBER && x->number == 1);
    x = x ? x->next : NULL;
    CHECK(x && x->number == -2500);
    x = x ? x->next : NULL;
    CHECK(x && x->number == 0);
    x = x ? x->next : NULL;
    CHECK(x && x->kind == FP_JSON_BOOL && x->boolean == 1);
    x = x ? x->next : NULL;
    CHECK(x && x->kind == FP_JSON_BOOL && x->boolean == 0);
    x = x ? x->next : NULL;
    CHECK(x && x->kind == FP_JSON_NULL && !x->next);
    CHECK_STR(fp_json_member_string(fp_json_member(v, "b"), "c"), "x");
    CHECK(fp_json_member_string(v, "a") == NULL && fp_json_member(v, "z") == NULL && fp_json_member(NULL, "a") == NULL);
    fp_json_free(v);

    v = parse("\"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t \\u00e9 \\u20ac \\ud83d\\ude00\"");
    CHECK(v && v->kind == FP_JSON_STRING);
    CHECK_STR(v ? v->string : "", "q\"b\\s/\b\f\n\r\t \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    fp_json_free(v);
    v = parse("[]");
    CHECK(v && v->kind == FP_JSON_ARRAY && !v->child);
    fp_json_free(v);
    v = parse("{}");
    CHECK(v && v->kind == FP_JSON_OBJECT && !v->child);
    fp_json_free(v);
}

static void test_refusals(void)
{
    static const struct { const char *text, *why; } wrong[] = {
        {"", "line 1, column 1: the text ends where a value should be"},
        {"{\"a\":1,}", "line 1, column 8: an object member must start with its name in quotes"},
        {"[1 2]", "line 1, column 4: expected ',' or ']'"},
        {"{\"a\" 1}", "line 1, column 6: a ':' must follow a member's name"},
        {"\"abc", "line 1, column 5: a string is not closed"},
        {"[\n \"a\tb\"]", "line 2, column 4: a control character inside a string"},
        {"\"\\x\"", "an unknown escape in a string"},
        {"\"\\u0000\"", "is \\u0000"},
        {"\"\\ud800\"", "not a character"},
        {"\"\\udc00\"", "not a character"},
        {"01", "line 1, column 2: text after the value"},
        {"1.", "a number with no digit after its point"},
        {"1e+", "a number with no digit in its exponent"},
        {"+1", "not a JSON value"},
        {"NaN", "not a JSON value"},
        {"0x10", "text after the value"},
        {"1e999", "beyond a double's range"},
        {"tru", "not a JSON value"},
        {"{} {}", "text after the value"},
        {"// c\n1", "not a JSON value"},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        char err[256];
        fp_json_t *v = fp_json_parse(wrong[i].text, strlen(wrong[i].text), err, sizeof err);
        CHECK(v == NULL);
        if (!v && !strstr(err, wrong[i].why))
            fprintf(stderr, "'%s': %s, expected '%s'\n", wrong[i].text, err, wrong[i].why), check_failures++;
        fp_json_free(v);
    }
    /* Depth is bounded: 64 levels read, 65 refused, 100000 neither crash nor read. */
    for (int depth = 64; depth <= 100000; depth = depth == 64 ? 65 : 100000) {
        char *text = malloc((size_t)depth * 2 + 1);
        memset(text, '[', (size_t)depth);
        memset(text + depth, ']', (size_t)depth);
        text[depth * 2] = '\0';
        char err[256];
        fp_json_t *v = fp_json_parse(text, strlen(text), err, sizeof err);
        CHECK(depth == 64 ? v != NULL : v == NULL && strstr(err, "deeper than 64"));
        fp_json_free(v);
        free(text);
        if (depth == 100000)
            break;
    }
    /* The length given is the end: a NUL or more text past it is not read. */
    char err[256];
    fp_json_t *v = fp_json_parse("[1]garbage", 3, err, sizeof err);
    CHECK(v && v->kind == FP_JSON_ARRAY);
    fp_json_free(v);
    v = fp_json_read_file("/nonexistent/baseline.json", err, sizeof err);
    CHECK(!v && strstr(err, "/nonexistent/baseline.json: No such file or directory"));
}

int main(void)
{
    test_values();
    test_refusals();
    return CHECK_DONE();
}
