/* The collectives' element types: name and size, read by every backend (their own file, below the
 * backends, which collective.c picks). */
#include "collective.h"

const fp_type_info_t fp_types[FP_TYPE_COUNT] = {
    [FP_TYPE_FLOAT] = {"float", 4},   [FP_TYPE_DOUBLE] = {"double", 8},
    [FP_TYPE_INT32] = {"int32", 4},   [FP_TYPE_INT64] = {"int64", 8},
    [FP_TYPE_HALF] = {"half", 2},     [FP_TYPE_BFLOAT16] = {"bfloat16", 2},
};
