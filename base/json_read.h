/* Reading JSON (RFC 8259) into a tree: for the files fabperf takes as input (a baseline). Pure: no
 * I/O beyond fp_json_read_file; strict: one value, no trailing text, no comments, no NaN. */
#ifndef FP_JSON_READ_H
#define FP_JSON_READ_H

#include <stddef.h>

typedef enum { FP_JSON_NULL, FP_JSON_BOOL, FP_JSON_NUMBER, FP_JSON_STRING, FP_JSON_ARRAY, FP_JSON_OBJECT } fp_json_kind_t;

typedef struct fp_json {
    fp_json_kind_t kind;
    int boolean;
    double number;
    char *string;                /* STRING: UTF-8, NUL-terminated (a \u0000 inside is refused) */
    char *key;                   /* a member of an object: its name; else NULL */
    struct fp_json *child, *next; /* ARRAY, OBJECT: the first element; an element: the next one */
} fp_json_t;

/* The value in text[0..len); NULL with one line in err ("line L, column C: what") otherwise. */
fp_json_t *fp_json_parse(const char *text, size_t len, char *err, size_t errlen);

/* A whole file; NULL with one line in err naming the file otherwise. */
fp_json_t *fp_json_read_file(const char *path, char *err, size_t errlen);

void fp_json_free(fp_json_t *v);

/* An object's member by name (the first of that name); NULL when absent or v is not an object. */
const fp_json_t *fp_json_member(const fp_json_t *v, const char *key);

/* A member's string, or NULL when absent or not a string. */
const char *fp_json_member_string(const fp_json_t *v, const char *key);

#endif
