/* One option table drives parsing, range checks and --help. */
#ifndef FP_OPTIONS_H
#define FP_OPTIONS_H

#include <stdio.h>

#include "fp.h"
#include "units.h" /* fp_size_parse, fp_size_format: the options' units */

typedef enum {
    FP_OPT_FLAG,   /* no value; sets an int to 1 */
    FP_OPT_LONG,   /* whole number in [min, max], or auto_word -> -1 (DOUBLE too) */
    FP_OPT_DOUBLE, /* real number in [min, max] */
    FP_OPT_SIZE,   /* byte count with K/M/G/T suffix, in [min, max] */
    FP_OPT_RANGE,  /* MIN:MAX (or MAX) byte counts: writes min_size and max_size */
    FP_OPT_CHOICE, /* one of choices[], index stored as int */
    FP_OPT_STRING, /* any non-empty text */
    FP_OPT_PLACEMENT, /* -d: accelerator name */
    FP_OPT_EXPECT,   /* --expect terms, added up over repeated options (expect.h) */
    FP_OPT_BITRATE,  /* bits/s with K/M/G/T (powers of 1000), stored as double */
    FP_OPT_DURATION  /* seconds, or with s, m, h, d: 90, 90s, 10m, 2h; in [min, max] s, stored as double */
} fp_opt_type_t;

typedef struct fp_option {
    char short_name; /* 0: long form only */
    const char *long_name;
    fp_opt_type_t type;
    size_t offset; /* field of fp_params_t */
    const char *metavar;
    const char *default_text; /* parsed like user input at start; NULL: none */
    double min, max;
    const char *const *choices;
    const char *auto_word; /* LONG, DOUBLE: this word stores -1 */
    unsigned needs;        /* FP_USES_* bits the benchmark must have */
    const char *help;
} fp_option_t;

extern const fp_option_t fp_options[];
extern const size_t fp_option_count;

/* Largest message one MPI call moves with a byte count (int). */
#define FP_SIZE_LIMIT ((size_t)2147483647)

/* Parses argv into params. Returns FP_OK, or FP_ERR with a one-line message in err. */
int fp_options_parse(const fp_bench_t *bench, int argc, char **argv, fp_params_t *params,
                     char *err, size_t errlen);
void fp_options_help(const fp_bench_t *bench, FILE *out);

#endif
