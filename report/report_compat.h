/* Text rows exactly as OSU's and nccl-tests' programs print them (--layout osu, nccl-tests), for
 * the parsers written for those programs; fabperf's statistics are then in csv and json only. */
#ifndef FP_REPORT_COMPAT_H
#define FP_REPORT_COMPAT_H

#include <stdio.h>

#include "report.h"

/* The column header line(s) of the layout in meta->layout. */
void fp_compat_header(FILE *out, const fp_meta_t *meta);
/* One row. */
void fp_compat_row(FILE *out, const fp_meta_t *meta, const fp_row_t *row);
/* nccl-tests' way of fitting a value into `width` characters: 2, 1 or 0 decimals, then an
 * exponent; out holds width + 1 bytes. */
void fp_compat_fit(double value, int width, char *out);

#endif
