/* fabperf_preflight's command line. */
#ifndef PF_OPTIONS_H
#define PF_OPTIONS_H

#include <stdio.h>

#include "preflight.h"

typedef struct {
    int format;            /* pf_format_t */
    const char *output;    /* NULL: standard output */
    const char *sys_root;  /* may hold %r (rank) and %h (host name) */
    const char *proc_root;
    int help, version;
} pf_options_t;

/* 0, or -1 with one line in err naming the option and what it accepts. */
int pf_options_parse(int argc, char **argv, pf_options_t *opts, char *err, size_t errlen);
void pf_options_help(FILE *out);
/* Replaces %r by rank and %h by host in pattern. 0, or -1 when the result does not fit. */
int pf_expand_root(const char *pattern, int rank, const char *host, char *out, size_t len);

#endif
