/* Slurm-style host lists: "n[01-16]", "rack[1-2]n[1,3,5-7]", "a,b[1-3]" (each bracket a list of
 * numbers and ranges, zero padding kept; brackets in one name multiply). No MPI. */
#ifndef FP_HOSTLIST_H
#define FP_HOSTLIST_H

#include <stddef.h>

#define FP_HOSTLIST_MAX 1000000 /* names one expression may expand to */

/* Calls each(name, arg) for every name of expr in order; stops at the first nonzero it returns and
 * returns that. -1 with err ("'n[3-1]': range 3-1 runs backwards") when expr does not parse or
 * expands to more than FP_HOSTLIST_MAX names. */
int fp_hostlist_each(const char *expr, int (*each)(const char *name, void *arg), void *arg, char *err,
                     size_t errlen);

#endif
