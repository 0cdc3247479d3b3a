/* --expect grammar and the judgement of an interval against thresholds: every edge. */
#include <stdint.h>

#include "check.h"
#include "error.h"
#include "expect.h"

static fp_expect_t parsed(const char *text)
{
    fp_expect_t e = {0};
    char err[512];
    CHECK(fp_expect_parse(&e, text, err, sizeof err) == FP_OK);
    return e;
}

static void test_grammar(void)
{
    fp_expect_t e = parsed("bw>=11000@4M,lat<=2@8,90%line@1M:,busbw>=5@:64K,bw>=1.5@1K:2K,lat<=3");
    CHECK(e.count == 6);
    CHECK(e.terms[0].quantity == FP_QTY_RATE && e.terms[0].at_least && e.terms[0].value == 11000);
    CHECK(e.terms[0].min_size == 4 << 20 && e.terms[0].max_size == 4 << 20);
    CHECK(e.terms[1].quantity == FP_QTY_LATENCY && !e.terms[1].at_least && e.terms[1].value == 2);
    CHECK(e.terms[2].of_line && e.terms[2].value == 0.9 && e.terms[2].min_size == 1 << 20);
    CHECK(e.terms[2].max_size == SIZE_MAX);
    CHECK(e.terms[3].min_size == 0 && e.terms[3].max_size == 64 << 10 && e.terms[3].at_least);
    CHECK(e.terms[4].value == 1.5 && e.terms[4].min_size == 1024 && e.terms[4].max_size == 2048);
    CHECK(e.terms[5].min_size == 0 && e.terms[5].max_size == SIZE_MAX);
    CHECK_STR(e.terms[2].text, "90%line@1M:");
    /* repeated options add up */
    char err[512];
    CHECK(fp_expect_parse(&e, "lat<=9@16", err, sizeof err) == FP_OK && e.count == 7);

    static const char *const wrong[] = {"", "bw", "bw>11000", "bw=>5", "bw>=", "bw>=x", "bw>=5@", "bw>=5@4Q",
                                        "bw>=5@4M:1M", "90%lin", "%line", "0%line", "lat<=-1", "bw>=5@:",
                                        "speed>=5", "bw>=5,,lat<=1", "90%line@1M:2M:3M", "bw>=1e999",
                                        /* only the documented comparisons: a rate >=, a latency <= */
                                        "lat>=5", "bw<=100", "busbw<=5", "bwx>=5", "bw >=5",
                                        /* only decimal numbers: strtod's other forms are refused */
                                        "bw>=0x10", "bw>=inf", "bw>=nan", "bw>=+5", "bw>=1e", "bw>=1e+",
                                        "bw>=5 ", "0x5a%line", "inf%line", "lat<=2us"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        fp_expect_t w = {0};
        err[0] = '\0';
        if (fp_expect_parse(&w, wrong[i], err, sizeof err) != FP_ERR)
            fprintf(stderr, "accepted '%s'\n", wrong[i]), check_failures++;
        CHECK(strncmp(err, "--expect: ", 10) == 0 && strstr(err, "accepted: bw>=N") && !strchr(err, '\n'));
    }
    /* the wrong way round is named as such */
    fp_expect_t w = {0};
    CHECK(fp_expect_parse(&w, "lat>=5", err, sizeof err) == FP_ERR && strstr(err, "'lat>=5' is not a threshold: a latency compares with <= (lat<=N)"));
    CHECK(fp_expect_parse(&w, "bw<=5", err, sizeof err) == FP_ERR && strstr(err, "'bw<=5' is not a threshold: a rate compares with >= (bw>=N, busbw>=N)"));
    CHECK(fp_expect_parse(&w, "bw>=0x10", err, sizeof err) == FP_ERR && strstr(err, "'bw>=0x10' is not a threshold: N must be a decimal number"));
    /* decimal forms that are accepted */
    e = parsed("bw>=1e9,lat<=.5,bw>=2.,lat<=1E-3,bw>=0,12.5%line");
    CHECK(e.terms[0].value == 1e9 && e.terms[1].value == 0.5 && e.terms[2].value == 2 && e.terms[3].value == 1e-3);
    CHECK(e.terms[4].value == 0 && e.terms[5].value == 0.125);
    fp_expect_t many = {0};
    for (int i = 0; i < FP_EXPECT_MAX; i++)
        CHECK(fp_expect_parse(&many, "bw>=1", err, sizeof err) == FP_OK);
    CHECK(fp_expect_parse(&many, "bw>=1", err, sizeof err) == FP_ERR && strstr(err, "more than"));
}

static void test_bitrate(void)
{
    double bps = 0;
    CHECK(fp_bitrate_parse("100G", &bps) == FP_OK && bps == 1e11);
    CHECK(fp_bitrate_parse("1G", &bps) == FP_OK && bps == 1e9);
    CHECK(fp_bitrate_parse("2.5Gbit", &bps) == FP_OK && bps == 2.5e9);
    CHECK(fp_bitrate_parse("400gbps", &bps) == FP_OK && bps == 4e11);
    CHECK(fp_bitrate_parse("100m", &bps) == FP_OK && bps == 1e8);
    CHECK(fp_bitrate_parse("12345", &bps) == FP_OK && bps == 12345);
    CHECK(fp_bitrate_parse("0", &bps) == FP_ERR);
    CHECK(fp_bitrate_parse("G", &bps) == FP_ERR);
    CHECK(fp_bitrate_parse("10GB", &bps) == FP_ERR); /* bytes are not a line rate */
    CHECK(fp_bitrate_parse("-1G", &bps) == FP_ERR);
}

static fp_verdict_t judge(const char *spec, size_t bytes, fp_quantity_t q, double lo, double hi, double line)
{
    fp_expect_t e = parsed(spec);
    return fp_expect_judge(&e, bytes, q, lo, (lo + hi) / 2, hi, line, NULL);
}

static void test_judge(void)
{
    const fp_quantity_t R = FP_QTY_RATE, L = FP_QTY_LATENCY;
    CHECK(judge("bw>=100", 8, R, 101, 120, 0) == FP_VERDICT_PASS);
    CHECK(judge("bw>=100", 8, R, 100, 120, 0) == FP_VERDICT_PASS);         /* lo touches: good side */
    CHECK(judge("bw>=100", 8, R, 99.9, 120, 0) == FP_VERDICT_INCONCLUSIVE); /* straddles */
    /* an edge exactly at the threshold is on the good side (binary-exact: no rounding decides) */
    CHECK(judge("bw>=2048", 8, R, 2048.0, 4096.0, 0) == FP_VERDICT_PASS);
    CHECK(judge("bw>=2048", 8, R, 1024.0, 2048.0, 0) == FP_VERDICT_INCONCLUSIVE);
    CHECK(judge("lat<=2048", 8, L, 1024.0, 2048.0, 0) == FP_VERDICT_PASS);
    CHECK(judge("bw>=100", 8, R, 80, 100, 0) == FP_VERDICT_INCONCLUSIVE);   /* hi touches: not all bad */
    CHECK(judge("bw>=100", 8, R, 80, 99.9, 0) == FP_VERDICT_FAIL);
    CHECK(judge("lat<=2", 8, L, 1.5, 2, 0) == FP_VERDICT_PASS);
    CHECK(judge("lat<=2", 8, L, 2, 3, 0) == FP_VERDICT_INCONCLUSIVE);
    CHECK(judge("lat<=2", 8, L, 2.01, 3, 0) == FP_VERDICT_FAIL);
    CHECK(judge("lat<=2", 8, L, NAN, NAN, 0) == FP_VERDICT_INCONCLUSIVE);   /* no CI */
    /* sizes: exact, open ranges, inclusive edges, other quantity */
    CHECK(judge("lat<=2@8", 16, L, 5, 6, 0) == FP_VERDICT_NONE);
    CHECK(judge("bw>=5@1M:4M", 1 << 20, R, 1, 2, 0) == FP_VERDICT_FAIL);
    CHECK(judge("bw>=5@1M:4M", 4 << 20, R, 1, 2, 0) == FP_VERDICT_FAIL);
    CHECK(judge("bw>=5@1M:4M", (4 << 20) + 1, R, 1, 2, 0) == FP_VERDICT_NONE);
    CHECK(judge("bw>=5@1M:4M", (1 << 20) - 1, R, 1, 2, 0) == FP_VERDICT_NONE);
    CHECK(judge("bw>=5@:1K", 1, R, 6, 7, 0) == FP_VERDICT_PASS);
    CHECK(judge("bw>=5@1K:", SIZE_MAX, R, 6, 7, 0) == FP_VERDICT_PASS);
    CHECK(judge("lat<=2", 8, R, 5, 6, 0) == FP_VERDICT_NONE);
    /* relative to the line rate (in the quantity's unit): 80% of 125 = 100 */
    CHECK(judge("80%line@1M:4M", 1 << 20, R, 100, 110, 125) == FP_VERDICT_PASS);
    CHECK(judge("80%line@1M:4M", 1 << 20, R, 11, 12, 125) == FP_VERDICT_FAIL);
    CHECK(judge("80%line", 1, R, 99, 101, 125) == FP_VERDICT_INCONCLUSIVE);
    CHECK(judge("80%line", 1, R, 1, 2, 0) == FP_VERDICT_INCONCLUSIVE); /* line rate unknown */
    /* several terms: the worst decides */
    CHECK(judge("bw>=1,bw>=100", 8, R, 50, 60, 0) == FP_VERDICT_FAIL);
    CHECK(judge("bw>=1,bw>=55", 8, R, 50, 60, 0) == FP_VERDICT_INCONCLUSIVE);
    CHECK(judge("bw>=1,bw>=2", 8, R, 50, 60, 0) == FP_VERDICT_PASS);

    fp_expect_t e = parsed("bw>=10,80%line@1M:4M");
    fp_judgement_t j;
    CHECK(fp_expect_judge(&e, 1 << 20, R, 11, 11.5, 12, 125, &j) == FP_VERDICT_FAIL);
    CHECK_NEAR(j.threshold, 100, 1e-9);
    CHECK_STR(j.expect, "bw>=10; 80%line@1M:4M (>= 100)");
    CHECK(fp_expect_judge(&e, 1 << 20, R, 11, 11.5, 12, 0, &j) == FP_VERDICT_INCONCLUSIVE);
    CHECK(strstr(j.reason, "line rate unknown") != NULL);
    CHECK_STR(j.expect, "bw>=10; 80%line@1M:4M (line rate unknown)");
    CHECK(fp_expect_judge(NULL, 8, R, 1, 1, 1, 0, &j) == FP_VERDICT_NONE);
    CHECK_STR(fp_verdict_name(FP_VERDICT_INCONCLUSIVE), "inconclusive");
}

/* PCT%wire: judged on the wire rate by fp_expect_judge_wire only; the headline's judgement skips
 * it, and it skips the headline's terms. */
static void test_wire(void)
{
    const fp_quantity_t R = FP_QTY_RATE, L = FP_QTY_LATENCY;
    fp_expect_t e = parsed("bw>=10,90%wire@1M:");
    CHECK(e.count == 2 && e.terms[1].on_wire && e.terms[1].of_line && !e.terms[0].on_wire);
    CHECK_NEAR(e.terms[1].value, 0.9, 1e-15);
    fp_judgement_t j;
    /* the headline: bw>=10 only */
    CHECK(fp_expect_judge(&e, 1 << 20, R, 11, 11.5, 12, 125, &j) == FP_VERDICT_PASS);
    CHECK_STR(j.expect, "bw>=10");
    /* the wire: 90% of 125 = 112.5 */
    CHECK(fp_expect_judge_wire(&e, 1 << 20, 113, 115, 118, 125, &j) == FP_VERDICT_PASS);
    CHECK_STR(j.expect, "90%wire@1M: (>= 112.5)");
    CHECK(fp_expect_judge_wire(&e, 1 << 20, 100, 105, 112, 125, &j) == FP_VERDICT_FAIL);
    CHECK_NEAR(j.threshold, 112.5, 1e-12);
    CHECK(fp_expect_judge_wire(&e, 1 << 20, 110, 113, 115, 125, &j) == FP_VERDICT_INCONCLUSIVE);
    CHECK(fp_expect_judge_wire(&e, 1 << 20, 113, 115, 118, 0, &j) == FP_VERDICT_INCONCLUSIVE);
    CHECK(strstr(j.reason, "line rate unknown") != NULL);
    CHECK(fp_expect_judge_wire(&e, 1024, 113, 115, 118, 125, &j) == FP_VERDICT_NONE); /* below 1M */
    /* a latency program: its headline judges lat terms, the wire its own */
    fp_expect_t l = parsed("lat<=2,50%wire");
    CHECK(fp_expect_judge(&l, 8, L, 1, 1.5, 1.9, 0, &j) == FP_VERDICT_PASS);
    CHECK_STR(j.expect, "lat<=2");
    CHECK(fp_expect_judge_wire(&l, 8, 10, 11, 12, 100, &j) == FP_VERDICT_FAIL);
    /* not a threshold: another word after %, no number */
    fp_expect_t bad = {0};
    char err[512];
    CHECK(fp_expect_parse(&bad, "90%wires", err, sizeof err) == FP_ERR);
    CHECK(fp_expect_parse(&bad, "%wire", err, sizeof err) == FP_ERR);
}

/* "uniform" (all-pairs sweeps): a term without value or quantity, with sizes like the others; the
 * judgement of a threshold never picks it up, fp_expect_uniform finds it by size. */
static void test_uniform(void)
{
    fp_expect_t e = parsed("uniform@1M:,bw>=100");
    CHECK(e.count == 2 && e.terms[0].uniform && !e.terms[1].uniform);
    CHECK(e.terms[0].min_size == 1 << 20 && e.terms[0].max_size == SIZE_MAX);
    CHECK_STR(e.terms[0].text, "uniform@1M:");
    CHECK(fp_expect_uniform(&e, 1 << 20) == &e.terms[0]);
    CHECK(fp_expect_uniform(&e, (1 << 20) - 1) == NULL);
    CHECK(fp_expect_uniform(NULL, 8) == NULL);
    fp_judgement_t j;
    CHECK(fp_expect_judge(&e, 1 << 20, FP_QTY_RATE, 150, 160, 170, 0, &j) == FP_VERDICT_PASS);
    CHECK_STR(j.expect, "bw>=100"); /* the sweep adds "uniform" with its own verdict */
    CHECK(fp_expect_judge(&e, 1 << 20, FP_QTY_LATENCY, 1, 2, 3, 0, &j) == FP_VERDICT_NONE);
    fp_expect_t all = parsed("uniform");
    CHECK(fp_expect_uniform(&all, 0) == &all.terms[0] && fp_expect_uniform(&all, SIZE_MAX) == &all.terms[0]);
    CHECK(fp_expect_judge(&all, 8, FP_QTY_RATE, 1, 2, 3, 0, NULL) == FP_VERDICT_NONE);
    static const char *const wrong[] = {"uniformly", "uniform>=1", "uniform@", "uniform@2M:1M", "Uniform", " uniform"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        fp_expect_t w = {0};
        char err[512] = "";
        if (fp_expect_parse(&w, wrong[i], err, sizeof err) != FP_ERR)
            fprintf(stderr, "accepted '%s'\n", wrong[i]), check_failures++;
        CHECK(strstr(err, "or uniform[@SIZES]") && !strchr(err, '\n'));
    }
}

/* Which terms a size falls in: a run refuses a term none of its sizes falls in. */
static void test_applies(void)
{
    fp_expect_t e = parsed("bw>=1@4M,bw>=1@1K:2K,uniform,lat<=1@:8,bw>=2@3");
    CHECK(fp_expect_applies(&e, 1) == (1u << 2 | 1u << 3));
    CHECK(fp_expect_applies(&e, 3) == (1u << 2 | 1u << 3 | 1u << 4));
    CHECK(fp_expect_applies(&e, 1024) == (1u << 1 | 1u << 2) && fp_expect_applies(&e, 2048) == (1u << 1 | 1u << 2));
    CHECK(fp_expect_applies(&e, 4 << 20) == (1u << 0 | 1u << 2));
    CHECK(fp_expect_applies(&e, 1 << 20) == 1u << 2);
    unsigned seen = 0; /* -m 1:1M by powers of two: 4M and 3 are never measured */
    for (size_t size = 1; size <= 1 << 20; size *= 2)
        seen |= fp_expect_applies(&e, size);
    CHECK(seen == (1u << 1 | 1u << 2 | 1u << 3));
    CHECK(fp_expect_applies(NULL, 8) == 0);
}

int main(void)
{
    test_wire();
    test_grammar();
    test_bitrate();
    test_judge();
    test_uniform();
    test_applies();
    return CHECK_DONE();
}
