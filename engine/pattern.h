/* Validation data: each byte depends on the sending rank, the round and the offset. */
#ifndef FP_PATTERN_H
#define FP_PATTERN_H

#include <stddef.h>
#include <stdint.h>

void fp_pattern_fill(unsigned char *buffer, size_t bytes, int rank, uint32_t round);
/* Number of bytes that differ from what fp_pattern_fill(rank, round) wrote. */
size_t fp_pattern_count_wrong(const unsigned char *buffer, size_t bytes, int rank, uint32_t round);

#endif
