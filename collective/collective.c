/* Collectives: the backends, reduction ops, busbw and validation data. */
#include "collective.h"

#include <math.h>
#include <string.h>

const fp_coll_ops_t *const fp_coll_backends[FP_BACKEND_COUNT] = {
    [FP_BACKEND_MPI] = &fp_coll_mpi,
    [FP_BACKEND_NCCL] = &fp_coll_nccl,
};

double fp_busbw_factor(fp_busbw_t kind, int nranks)
{
    double n = nranks;
    switch (kind) {
    case FP_BUSBW_ALLREDUCE: return nranks > 1 ? 2.0 * (n - 1) / n : 0.0;
    case FP_BUSBW_GATHER: return nranks > 1 ? (n - 1) / n : 0.0;
    case FP_BUSBW_ONE: return 1.0;
    }
    return 0.0;
}

const char *fp_busbw_formula(fp_busbw_t kind)
{
    static const char *const formulas[] = {
        [FP_BUSBW_ALLREDUCE] = "2(n-1)/n", [FP_BUSBW_GATHER] = "(n-1)/n", [FP_BUSBW_ONE] = "1"};
    return formulas[kind];
}

double fp_algbw_gbps(size_t bytes, double us)
{
    return us > 0 ? (double)bytes / us * 1e-3 : NAN; /* B/us = 1e6 B/s; GB/s = 1e9 B/s */
}

double fp_op_apply(fp_op_t op, double a, double b)
{
    switch (op) {
    case FP_OP_SUM: return a + b;
    case FP_OP_PROD: return a * b;
    case FP_OP_MAX: return a > b ? a : b;
    case FP_OP_MIN: return a < b ? a : b;
    default: return NAN;
    }
}

static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Sums of half and bfloat16 stay exact (|sum| <= 256) when at most this many ranks add. */
#define FP_NARROW_SUM_RANKS 64

double fp_coll_input(const fp_coll_check_t *c, int rank, size_t i)
{
    uint64_t h = mix(((uint64_t)(uint32_t)rank << 32 | c->round) * 0x9E3779B97F4A7C15ull + i);
    if (c->op == FP_OP_PROD) /* +-1 everywhere and one 2 per element: the product is +-2 */
        return (size_t)rank == i % (size_t)c->nranks ? 2.0 : (h & 1 ? -1.0 : 1.0);
    if (c->op == FP_OP_SUM && c->limit <= 4 && rank >= FP_NARROW_SUM_RANKS && c->nranks > FP_NARROW_SUM_RANKS)
        return 0.0;
    long span = 2 * (long)c->limit + 1;
    return (double)((long)(h % (uint64_t)span) - (long)c->limit);
}

/* half and bfloat16 from and to float, for values that are exact in them (no rounding). */
static uint16_t half_from(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = x >> 16 & 0x8000, exponent = x >> 23 & 0xff, mantissa = x & 0x7fffff;
    if (exponent == 0)
        return (uint16_t)sign;
    return (uint16_t)(sign | (exponent - 127 + 15) << 10 | mantissa >> 13);
}

static float half_to(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exponent = h >> 10 & 0x1f, mantissa = h & 0x3ff;
    uint32_t x = exponent == 0 && mantissa == 0 ? sign : sign | (exponent + 127 - 15) << 23 | mantissa << 13;
    float f;
    if (exponent == 0 && mantissa != 0) /* subnormal: never written by us, decoded anyway */
        return (h & 0x8000 ? -1.0f : 1.0f) * ldexpf((float)mantissa, -24);
    if (exponent == 0x1f) /* infinity and NaN (the value of an element never written) */
        return mantissa ? NAN : (h & 0x8000 ? -INFINITY : INFINITY);
    memcpy(&f, &x, sizeof f);
    return f;
}

void fp_type_store(fp_type_t type, void *buffer, size_t i, double value)
{
    float f = (float)value;
    uint32_t bits;
    switch (type) {
    case FP_TYPE_FLOAT: ((float *)buffer)[i] = f; break;
    case FP_TYPE_DOUBLE: ((double *)buffer)[i] = value; break;
    case FP_TYPE_INT32: ((int32_t *)buffer)[i] = (int32_t)value; break;
    case FP_TYPE_INT64: ((int64_t *)buffer)[i] = (int64_t)value; break;
    case FP_TYPE_HALF: ((uint16_t *)buffer)[i] = half_from(f); break;
    case FP_TYPE_BFLOAT16:
        memcpy(&bits, &f, sizeof bits);
        ((uint16_t *)buffer)[i] = (uint16_t)(bits >> 16);
        break;
    default: break;
    }
}

double fp_type_load(fp_type_t type, const void *buffer, size_t i)
{
    uint32_t bits;
    float f;
    switch (type) {
    case FP_TYPE_FLOAT: return ((const float *)buffer)[i];
    case FP_TYPE_DOUBLE: return ((const double *)buffer)[i];
    case FP_TYPE_INT32: return ((const int32_t *)buffer)[i];
    case FP_TYPE_INT64: return (double)((const int64_t *)buffer)[i];
    case FP_TYPE_HALF: return half_to(((const uint16_t *)buffer)[i]);
    case FP_TYPE_BFLOAT16:
        bits = (uint32_t)((const uint16_t *)buffer)[i] << 16;
        memcpy(&f, &bits, sizeof f);
        return f;
    default: return NAN;
    }
}
