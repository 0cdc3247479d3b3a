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
    int health_check, drain; /* --health-check (this node alone, no MPI), --drain */
    int help, version;
} pf_options_t;

/* 0, or -1 with one line in err naming the option and what it accepts. */
int pf_options_parse(int argc, char **argv, pf_options_t *opts, char *err, size_t errlen);
void pf_options_help(FILE *out);
/* Replaces %r by rank and %h by host in pattern. 0, or -1 when the result does not fit. */
int pf_expand_root(const char *pattern, int rank, const char *host, char *out, size_t len);

/* One node's part, no communication (local.c): a root option checked for this rank and host (1
 * with why set when it is not a directory), the node's name, its facts and findings. */
int pf_root_check(const char *option, const char *pattern, int rank, const char *host, char *out, size_t len,
                  char *why, size_t whylen);
void pf_node_name(const pf_where_t *where, const char *host, char *out, size_t len);
void pf_gather_local(pf_node_t *node, const pf_where_t *where);

/* --health-check: this node alone, without MPI (health_check.c); returns the exit status. */
int pf_health_check(int argc, char **argv);

#endif
