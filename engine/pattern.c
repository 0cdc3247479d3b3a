#include "pattern.h"

/* A mixing function: neighbouring offsets, ranks and rounds give unrelated bytes, so a shifted,
 * stale or foreign buffer never passes. */
static inline unsigned char pattern_byte(uint64_t seed, size_t offset)
{
    uint64_t x = seed + (uint64_t)offset * 0x9E3779B97F4A7C15ull;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (unsigned char)x;
}

static uint64_t pattern_seed(int rank, uint32_t round)
{
    return ((uint64_t)(uint32_t)rank << 32 | round) * 0xD6E8FEB86659FD93ull + 1;
}

void fp_pattern_fill(unsigned char *buffer, size_t bytes, int rank, uint32_t round)
{
    uint64_t seed = pattern_seed(rank, round);
    for (size_t i = 0; i < bytes; i++)
        buffer[i] = pattern_byte(seed, i);
}

size_t fp_pattern_count_wrong(const unsigned char *buffer, size_t bytes, int rank, uint32_t round)
{
    uint64_t seed = pattern_seed(rank, round);
    size_t wrong = 0;
    for (size_t i = 0; i < bytes; i++)
        wrong += buffer[i] != pattern_byte(seed, i);
    return wrong;
}
