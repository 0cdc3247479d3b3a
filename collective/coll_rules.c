/* Decisions of the collective family that need no MPI, no GPU and no run: how many calls a
 * sample may batch, whether a variant moved data, where a call's buffers sit when they rotate,
 * and what an element the library never wrote holds. Pure functions, tested in tests/unit. */
#include "collective.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

long fp_coll_batch_limit(long iterations)
{
    long limit = iterations / FP_COLL_MIN_SAMPLES;
    return limit > 1 ? limit : 1;
}

int fp_coll_moved(int nranks, int in_place, int *moved_data, int *crossed_ranks)
{
    /* One rank: nothing goes to another rank; in place, the library has nothing to copy either
     * (out of place it copies the input to the output, a local copy). */
    *crossed_ranks = nranks > 1;
    *moved_data = nranks > 1 || !in_place;
    return *crossed_ranks;
}

void fp_coll_rates(fp_busbw_t kind, int nranks, int in_place, size_t bytes, double us, double *algbw,
                   double *busbw)
{
    int moved, crossed;
    fp_coll_moved(nranks, in_place, &moved, &crossed);
    *algbw = moved ? fp_algbw_gbps(bytes, us) : NAN;
    *busbw = crossed ? *algbw * fp_busbw_factor(kind, nranks) : NAN;
}

int fp_mpi_reduce_in_place_crashes(const char *library_version)
{
    const char *v = strstr(library_version, "MPICH Version:");
    int major = 0, minor = 0, patch = 0;
    if (!v || sscanf(v + strlen("MPICH Version:"), " %d.%d.%d", &major, &minor, &patch) < 2)
        return 0;
    return major == 4 && (minor == 0 || (minor == 1 && patch < 2));
}

size_t fp_coll_rotation_steps(size_t extent_bytes, size_t buffer_bytes, int rotate)
{
    if (!rotate || extent_bytes == 0 || extent_bytes > buffer_bytes)
        return 1;
    return buffer_bytes / extent_bytes;
}

/* Quiet NaN for the floating types; the most negative value for the integers, which no input
 * (|v| <= 2^20) and no reduction of at most 2^11 of them can reach. */
void fp_type_fill_unwritten(fp_type_t type, void *buffer, size_t count)
{
    static const uint16_t half_nan = 0x7e00, bfloat16_nan = 0x7fc0;
    const float float_nan = NAN;
    const double double_nan = NAN;
    const int32_t int32_min = INT32_MIN;
    const int64_t int64_min = INT64_MIN;
    const void *element = NULL;
    size_t size = fp_types[type].size;
    switch (type) {
    case FP_TYPE_FLOAT: element = &float_nan; break;
    case FP_TYPE_DOUBLE: element = &double_nan; break;
    case FP_TYPE_INT32: element = &int32_min; break;
    case FP_TYPE_INT64: element = &int64_min; break;
    case FP_TYPE_HALF: element = &half_nan; break;
    case FP_TYPE_BFLOAT16: element = &bfloat16_nan; break;
    default: return;
    }
    for (size_t i = 0; i < count; i++)
        memcpy((char *)buffer + i * size, element, size);
}

int fp_type_is_unwritten(fp_type_t type, double value)
{
    if (type == FP_TYPE_INT32)
        return value == (double)INT32_MIN;
    if (type == FP_TYPE_INT64)
        return value == (double)INT64_MIN;
    return isnan(value);
}
