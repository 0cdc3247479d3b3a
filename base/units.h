/* Units of the command line: sizes ("4K") and bit rates ("100G"). The bottom floor: needs nothing
 * of fabperf but error.h. */
#ifndef FP_UNITS_H
#define FP_UNITS_H

#include <stddef.h>

/* "4K" -> 4096. Returns FP_OK or FP_ERR with the reason in err. */
int fp_size_parse(const char *text, size_t *bytes, char *err, size_t errlen);
/* 4096 -> "4K" (exact binary suffix where one fits). */
void fp_size_format(size_t bytes, char *out, size_t outlen);

/* "100G" -> 1e11 bits/s (suffixes K M G T are powers of 1000; "bit", "b", "bps" may follow).
 * FP_OK or FP_ERR. */
int fp_bitrate_parse(const char *text, double *bps);

#endif
