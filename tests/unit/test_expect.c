/* --expect: parsing, size ranges, verdicts on intervals, and the one-line errors. */
#include <stdint.h>

#include "check.h"
#include "expect.h"
#include "fp.h"

static void test_parse(void)
{
    fp_expect_t e;
    char err[512];
    CHECK(fp_expect_parse("bw>=100@1M,lat<=20.5@8:64,uniform,bw>=5@4K:", &e, err, sizeof err) == FP_OK);
    CHECK(e.count == 3 && e.uniform);
    CHECK(e.item[0].quantity == FP_QTY_BANDWIDTH && e.item[0].value == 100);
    CHECK(e.item[0].min_size == 1048576 && e.item[0].max_size == 1048576);
    CHECK(e.item[1].quantity == FP_QTY_LATENCY && e.item[1].value == 20.5);
    CHECK(e.item[1].min_size == 8 && e.item[1].max_size == 64);
    CHECK(e.item[2].min_size == 4096 && e.item[2].max_size == SIZE_MAX);
    CHECK(fp_expect_applies(&e.item[1], FP_QTY_LATENCY, 64));
    CHECK(!fp_expect_applies(&e.item[1], FP_QTY_LATENCY, 65));
    CHECK(!fp_expect_applies(&e.item[1], FP_QTY_BANDWIDTH, 8));
    CHECK(fp_expect_parse("bw>=7", &e, err, sizeof err) == FP_OK);
    CHECK(e.count == 1 && e.item[0].min_size == 0 && e.item[0].max_size == SIZE_MAX && !e.uniform);
    CHECK(fp_expect_parse(NULL, &e, err, sizeof err) == FP_OK && e.count == 0);
}

static void test_errors(void)
{
    fp_expect_t e;
    char err[512];
    const char *bad[] = {"bw>100", "bw>=-1", "bw>=abc", "lat<=3@", "bw>=1@2M:1M", "bw>=1,,uniform", "fast", "bw>=1@1Q"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK(fp_expect_parse(bad[i], &e, err, sizeof err) == FP_ERR);
        CHECK(strncmp(err, "--expect: ", 10) == 0 && strstr(err, "accepted: ") && !strchr(err, '\n'));
    }
}

static void test_verdicts(void)
{
    fp_expect_item_t bw = {.quantity = FP_QTY_BANDWIDTH, .value = 100}, lat = {.quantity = FP_QTY_LATENCY, .value = 10};
    CHECK(fp_expect_verdict(&bw, 100, 120) == FP_VERDICT_PASS);
    CHECK(fp_expect_verdict(&bw, 80, 99.9) == FP_VERDICT_FAIL);
    CHECK(fp_expect_verdict(&bw, 90, 110) == FP_VERDICT_INCONCLUSIVE);
    CHECK(fp_expect_verdict(&lat, 5, 10) == FP_VERDICT_PASS);
    CHECK(fp_expect_verdict(&lat, 10.1, 12) == FP_VERDICT_FAIL);
    CHECK(fp_expect_verdict(&lat, 9, 11) == FP_VERDICT_INCONCLUSIVE);
}

int main(void)
{
    test_parse();
    test_errors();
    test_verdicts();
    return CHECK_DONE();
}
