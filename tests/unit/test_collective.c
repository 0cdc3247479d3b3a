/* Collectives: busbw factors, algbw units, typed validation data and reductions. */
#include <stdlib.h>

#include "check.h"
#include "collective.h"

static void test_busbw(void)
{
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ALLREDUCE, 1), 0.0, 0);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ALLREDUCE, 2), 1.0, 1e-15);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ALLREDUCE, 4), 1.5, 1e-15);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ALLREDUCE, 8), 1.75, 1e-15);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_GATHER, 1), 0.0, 0);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_GATHER, 4), 0.75, 1e-15);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ONE, 1), 1.0, 0);
    CHECK_NEAR(fp_busbw_factor(FP_BUSBW_ONE, 16), 1.0, 0);
    CHECK_STR(fp_busbw_formula(FP_BUSBW_ALLREDUCE), "2(n-1)/n");
    CHECK_STR(fp_busbw_formula(FP_BUSBW_GATHER), "(n-1)/n");
    /* 1 MB in 1000 us = 1 GB/s; 8 B in 10 us = 0.0008 GB/s */
    CHECK_NEAR(fp_algbw_gbps(1000000, 1000.0), 1.0, 1e-12);
    CHECK_NEAR(fp_algbw_gbps(8, 10.0), 0.0008, 1e-15);
    CHECK(isnan(fp_algbw_gbps(8, 0.0)));
}

static void test_types(void)
{
    unsigned char buffer[64];
    for (int t = 0; t < FP_TYPE_COUNT; t++)
        for (double v = -2047; v <= 2047; v += 1) {
            if ((t == FP_TYPE_BFLOAT16 && fabs(v) > 256))
                continue;
            fp_type_store((fp_type_t)t, buffer, 3, v);
            if (fp_type_load((fp_type_t)t, buffer, 3) != v) {
                fprintf(stderr, "type %s: %g does not round-trip\n", fp_types[t].name, v);
                check_failures++;
                break;
            }
        }
    CHECK(fp_types[FP_TYPE_HALF].size == 2 && fp_types[FP_TYPE_INT64].size == 8);
}

/* Inputs stay in range, and every reduction over many ranks is exact in half and bfloat16. */
static void test_inputs(void)
{
    for (int op = 0; op < FP_OP_COUNT; op++) {
        fp_coll_check_t c = {.nranks = 100, .op = (fp_op_t)op, .round = 7, .limit = 4};
        for (size_t i = 0; i < 1000; i++) {
            double acc = fp_coll_input(&c, 0, i);
            CHECK(fabs(acc) <= 4);
            for (int r = 1; r < c.nranks; r++)
                acc = fp_op_apply((fp_op_t)op, acc, fp_coll_input(&c, r, i));
            CHECK(fabs(acc) <= 256); /* exact in bfloat16 (8 bits), half and all others */
            if (op == FP_OP_PROD)
                CHECK(fabs(acc) == 2);
        }
    }
    fp_coll_check_t c = {.nranks = 4, .op = FP_OP_SUM, .round = 1, .limit = 255};
    CHECK(fp_coll_input(&c, 0, 5) != fp_coll_input(&c, 1, 5) || fp_coll_input(&c, 0, 6) != fp_coll_input(&c, 1, 6));
    c.round = 2;
    double a = fp_coll_input(&c, 0, 5);
    c.round = 3;
    CHECK(a != fp_coll_input(&c, 0, 5) || a != fp_coll_input(&c, 0, 9));
}

int main(void)
{
    test_busbw();
    test_types();
    test_inputs();
    return CHECK_DONE();
}
