/* Collectives: busbw factors, algbw units, typed validation data and reductions. */
#include <stdlib.h>

#include "check.h"
#include "collective.h"
#include "report_compat.h"

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

/* Enough samples for an interval of the median that is not just min..max. */
static void test_batch_limit(void)
{
    CHECK(fp_coll_batch_limit(4) == 1);     /* -i 4: four samples of one call */
    CHECK(fp_coll_batch_limit(63) == 1);
    CHECK(fp_coll_batch_limit(64) == 2);
    CHECK(fp_coll_batch_limit(200) == 6);   /* -n 200: 34 samples of 6, not 7 of 32 */
    CHECK(fp_coll_batch_limit(1000) == 31);
    for (long iterations = 32; iterations < 5000; iterations += 7) {
        long batch = fp_coll_batch_limit(iterations);
        CHECK((iterations + batch - 1) / batch >= FP_COLL_MIN_SAMPLES);
    }
}

/* One rank: no busbw at all, no algbw in place (nothing moves), a local copy out of place. */
static void test_rates(void)
{
    double algbw, busbw;
    for (int kind = FP_BUSBW_ALLREDUCE; kind <= FP_BUSBW_ONE; kind++) {
        fp_coll_rates((fp_busbw_t)kind, 1, 1, 262144, 0.30, &algbw, &busbw);
        CHECK(isnan(algbw) && isnan(busbw));
        fp_coll_rates((fp_busbw_t)kind, 1, 0, 262144, 4.84, &algbw, &busbw);
        CHECK_NEAR(algbw, 262144 / 4.84 * 1e-3, 1e-9);
        CHECK(isnan(busbw));
        fp_coll_rates((fp_busbw_t)kind, 4, 1, 1000000, 1000.0, &algbw, &busbw);
        CHECK_NEAR(algbw, 1.0, 1e-12);
        CHECK_NEAR(busbw, fp_busbw_factor((fp_busbw_t)kind, 4), 1e-12);
    }
}

/* nccl-tests' offsets: slices of one extent walk through the buffer, none past its end. */
static void test_rotation(void)
{
    CHECK(fp_coll_rotation_steps(4, 1 << 20, 1) == 262144);
    CHECK(fp_coll_rotation_steps(4, 1 << 20, 0) == 1);
    CHECK(fp_coll_rotation_steps(1 << 20, 1 << 20, 1) == 1);
    CHECK(fp_coll_rotation_steps(768, 1024, 1) == 1);
    CHECK(fp_coll_rotation_steps(0, 1024, 1) == 1);
    size_t steps = fp_coll_rotation_steps(3000, 1 << 20, 1);
    CHECK((steps - 1) * 3000 + 3000 <= (1 << 20) && steps * 3000 + 3000 > (1 << 20));
}

/* The MPICH releases that crash in MPI_Reduce(MPI_IN_PLACE) at a root other than 0, by their
 * library text; other libraries and fixed releases run it. */
static void test_reduce_in_place_defect(void)
{
    CHECK(fp_mpi_reduce_in_place_crashes("MPICH Version:\t4.0.2"));
    CHECK(fp_mpi_reduce_in_place_crashes("MPICH Version:      4.0"));
    CHECK(fp_mpi_reduce_in_place_crashes("MPICH Version:\t4.1.1"));
    CHECK(!fp_mpi_reduce_in_place_crashes("MPICH Version:\t4.1.2"));
    CHECK(!fp_mpi_reduce_in_place_crashes("MPICH Version:\t4.2.0"));
    CHECK(!fp_mpi_reduce_in_place_crashes("MPICH Version:\t3.4.3"));
    CHECK(!fp_mpi_reduce_in_place_crashes("Open MPI v4.1.4, package: Debian OpenMPI"));
    CHECK(!fp_mpi_reduce_in_place_crashes(""));
}

/* An element nobody wrote reads as a value that no input and no reduction of inputs has. */
static void test_unwritten(void)
{
    unsigned char buffer[64];
    for (int t = 0; t < FP_TYPE_COUNT; t++) {
        fp_type_fill_unwritten((fp_type_t)t, buffer, 4);
        for (size_t i = 0; i < 4; i++) {
            double v = fp_type_load((fp_type_t)t, buffer, i);
            CHECK(fp_type_is_unwritten((fp_type_t)t, v));
            CHECK(isnan(v) || fabs(v) > 2147483647.0 - 1); /* far outside |inputs| <= 2^20 */
            CHECK(v != 0);
        }
        fp_type_store((fp_type_t)t, buffer, 2, 0.0);
        CHECK(!fp_type_is_unwritten((fp_type_t)t, fp_type_load((fp_type_t)t, buffer, 2)));
    }
}

/* nccl-tests' field fitting: 2, 1, 0 decimals, then an exponent. */
static void test_fit(void)
{
    char out[8];
    fp_compat_fit(1.234, 7, out);
    CHECK_STR(out, "   1.23");
    fp_compat_fit(12345.678, 7, out);
    CHECK_STR(out, "12345.7");
    fp_compat_fit(1234567.0, 7, out);
    CHECK_STR(out, "1234567");
    fp_compat_fit(12345678.0, 7, out);
    CHECK_STR(out, "1.2e+07");
    fp_compat_fit(899.25, 6, out);
    CHECK_STR(out, "899.25");
    fp_compat_fit(5825.42, 6, out);
    CHECK_STR(out, "5825.4");
}

int main(void)
{
    test_batch_limit();
    test_rates();
    test_rotation();
    test_reduce_in_place_defect();
    test_unwritten();
    test_fit();
    test_busbw();
    test_types();
    test_inputs();
    return CHECK_DONE();
}
