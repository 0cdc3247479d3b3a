/* --expect baseline=FILE[:TOL]: the term's grammar, the entry chosen for a run, its bounds as
 * terms (relaxed by the tolerance), what the header says, and each refusal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "error.h"
#include "expect.h"
#include "expect_baseline.h"

static char path[64];

/* Two sizes of fabperf_bw 'fabric' on 2 hosts, one of fabperf_latency, one of fabperf_bw 'other'
 * in device memory, one of fabperf_allreduce. */
static const char baseline[] =
    "{\"type\":\"fabperf-baseline\",\"version\":1,\"coverage\":0.95,\"confidence\":0.95,\n"
    " \"built_from\":{\"folders\":[\"r1\"],\"first\":\"2026-12-01T10:00:00Z\",\"last\":\"2026-12-01T11:00:00Z\","
    "\"hosts\":[\"h1\",\"h2\"],\"mpi_library\":[\"Open MPI v4.1.4\"],\"fabperf\":[\"0.1.0\"]},\n"
    " \"entries\":[\n"
    "{\"program\":\"fabperf_bw\",\"label\":\"fabric\",\"size\":1024,\"placement\":\"H H, 2 ranks on 2 host(s)\","
    "\"quantity\":\"bandwidth\",\"unit\":\"MB/s\",\"higher_is_better\":true,\"launches\":60,\"centre\":1000,\"bound\":900,\"order\":1},\n"
    "{\"program\":\"fabperf_bw\",\"label\":\"fabric\",\"size\":1048576,\"placement\":\"H H, 2 ranks on 2 host(s)\","
    "\"quantity\":\"bandwidth\",\"unit\":\"MB/s\",\"higher_is_better\":true,\"launches\":60,\"centre\":10000,\"bound\":9000,\"order\":1},\n"
    "{\"program\":\"fabperf_latency\",\"label\":\"fabric\",\"size\":8,\"placement\":\"H H, 2 ranks on 2 host(s)\","
    "\"quantity\":\"latency\",\"unit\":\"us\",\"higher_is_better\":false,\"launches\":60,\"centre\":1.5,\"bound\":2,\"order\":1},\n"
    "{\"program\":\"fabperf_bw\",\"label\":\"other\",\"size\":1024,\"placement\":\"D D, 2 ranks on 2 host(s)\","
    "\"quantity\":\"bandwidth\",\"unit\":\"MB/s\",\"higher_is_better\":true,\"launches\":60,\"centre\":1000,\"bound\":800,\"order\":1},\n"
    "{\"program\":\"fabperf_allreduce\",\"label\":\"fabric\",\"size\":1024,\"placement\":\"H H, 2 ranks on 2 host(s)\","
    "\"quantity\":\"bus bandwidth\",\"unit\":\"GB/s\",\"higher_is_better\":true,\"launches\":60,\"centre\":10,\"bound\":8,\"order\":1}\n"
    "]}\n";

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
}

static fp_baseline_run_t bw_run(const char *label, const char *placement)
{
    return (fp_baseline_run_t){"fabperf_bw", label, placement, "MB/s", FP_QTY_RATE, "Open MPI v4.1.4", "0.1.0"};
}

static int load(fp_expect_t *e, const char *expect, const fp_baseline_run_t *run, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    CHECK(fp_expect_parse(e, expect, err, errlen) == FP_OK);
    return fp_expect_baseline_load(e, run, err, errlen);
}

static void test_grammar(void)
{
    fp_expect_t e = {0};
    char err[1024];
    memset(&e, 0, sizeof e);
    CHECK(fp_expect_parse(&e, "bw>=5@1K,baseline=/a/b:c.json:0.1", err, sizeof err) == FP_OK);
    CHECK(e.count == 1 && e.baseline_tolerance == 0.1);
    CHECK_STR(e.baseline_path, "/a/b:c.json"); /* a colon not followed by a decimal is the name's */
    CHECK(fp_expect_any(&e));
    memset(&e, 0, sizeof e);
    CHECK(fp_expect_parse(&e, "baseline=b.json", err, sizeof err) == FP_OK && e.count == 0 && e.baseline_tolerance == 0);
    CHECK(fp_expect_any(&e) && fp_expect_judge(&e, 1024, FP_QTY_RATE, 1, 2, 3, 0, NULL) == FP_VERDICT_NONE);
    CHECK(fp_expect_parse(&e, "baseline=c.json", err, sizeof err) == FP_ERR && strstr(err, "a second baseline= term"));
    static const char *const wrong[] = {"baseline=", "baseline=:0.1", "baseline=b.json:1", "baseline=b.json:1.5"};
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        fp_expect_t w = {0};
        CHECK(fp_expect_parse(&w, wrong[i], err, sizeof err) == FP_ERR && strstr(err, "--expect: '") &&
              strstr(err, "accepted: baseline=FILE or baseline=FILE:TOL, TOL a fraction from 0 to below 1"));
    }
}

static void test_selection(void)
{
    char err[2048];
    fp_expect_t e;
    char expect[128];
    snprintf(expect, sizeof expect, "baseline=%s:0.1", path);
    fp_baseline_run_t run = bw_run(NULL, "H H, 2 ranks on 2 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_OK);
    CHECK(e.nfrom_baseline == 2);
    CHECK(e.from_baseline[0].min_size == 1024 && e.from_baseline[0].max_size == 1024 && e.from_baseline[0].at_least);
    CHECK_NEAR(e.from_baseline[0].value, 810, 1e-9); /* 900 x (1 - 0.1) */
    CHECK_NEAR(e.from_baseline[1].value, 8100, 1e-9);
    CHECK_STR(e.from_baseline[0].text, "bw>=810@1024 (baseline)");
    /* Judged like any term: at its size only, on the interval. */
    fp_judgement_t j;
    CHECK(fp_expect_judge(&e, 1024, FP_QTY_RATE, 820, 850, 900, 0, &j) == FP_VERDICT_PASS);
    CHECK_STR(j.expect, "bw>=810@1024 (baseline)");
    CHECK(fp_expect_judge(&e, 1024, FP_QTY_RATE, 700, 750, 800, 0, NULL) == FP_VERDICT_FAIL);
    CHECK(fp_expect_judge(&e, 1024, FP_QTY_RATE, 800, 810, 820, 0, NULL) == FP_VERDICT_INCONCLUSIVE);
    CHECK(fp_expect_judge(&e, 2048, FP_QTY_RATE, 1, 2, 3, 0, NULL) == FP_VERDICT_NONE);
    CHECK(fp_expect_baseline_applies(&e, 1048576) && !fp_expect_baseline_applies(&e, 4096));
    char want[512];
    snprintf(want, sizeof want, "%s: fabperf_bw 'fabric' (H H, 2 ranks on 2 host(s)), 2 size(s), bounds from 60 "
             "launches (0.95 of healthy launches better, with confidence 0.95), tolerance 0.1, launches of "
             "2026-12-01T10:00:00Z to 2026-12-01T11:00:00Z", path);
    CHECK_STR(e.baseline_note, want);
    fp_expect_release(&e);
    CHECK(e.from_baseline == NULL && e.nfrom_baseline == 0);

    /* The label narrows; the other placement is its own entry. */
    run = bw_run("other", "D D, 2 ranks on 2 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_OK && e.nfrom_baseline == 1);
    CHECK_NEAR(e.from_baseline[0].value, 720, 1e-9);
    fp_expect_release(&e);

    /* A latency bound is relaxed upwards; a collective's in GB/s is busbw's. */
    fp_baseline_run_t lat = {"fabperf_latency", NULL, "H H, 2 ranks on 2 host(s)", "us", FP_QTY_LATENCY, "Open MPI v4.1.4", "0.1.0"};
    CHECK(load(&e, expect, &lat, err, sizeof err) == FP_OK && e.nfrom_baseline == 1 && !e.from_baseline[0].at_least);
    CHECK_NEAR(e.from_baseline[0].value, 2.2, 1e-12);
    CHECK_STR(e.from_baseline[0].text, "lat<=2.2@8 (baseline)");
    fp_expect_release(&e);
    fp_baseline_run_t coll = {"fabperf_allreduce", NULL, "H H, 2 ranks on 2 host(s)", "GB/s busbw", FP_QTY_RATE,
                              "Open MPI v4.1.4", "0.1.0"};
    CHECK(load(&e, expect, &coll, err, sizeof err) == FP_OK && e.nfrom_baseline == 1);
    CHECK_STR(e.from_baseline[0].text, "busbw>=7.2@1024 (baseline)");
    fp_expect_release(&e);

    /* Another MPI library or fabperf version is said, and still judged. */
    run = bw_run("fabric", "H H, 2 ranks on 2 host(s)");
    run.mpi_library = "MPICH Version: 4.0";
    run.version = "0.2.0";
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_OK && e.nfrom_baseline == 2);
    CHECK(strstr(e.baseline_note, "; software differs: MPI library 'MPICH Version: 4.0' here, 'Open MPI v4.1.4' in "
                                  "the baseline; software differs: fabperf 0.2.0 here, 0.1.0 in the baseline") != NULL);
    fp_expect_release(&e);
}

static void test_refusals(void)
{
    char err[2048], expect[128];
    fp_expect_t e;
    snprintf(expect, sizeof expect, "baseline=%s", path);
    /* Another placement: not compared, said with what the baseline has. */
    fp_baseline_run_t run = bw_run(NULL, "H H, 2 ranks on 1 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR);
    char want[1024];
    snprintf(want, sizeof want, "--expect baseline=%s: no entry of this run, fabperf_bw (H H, 2 ranks on 1 host(s)); "
             "the baseline has: fabperf_bw 'fabric' (H H, 2 ranks on 2 host(s)); fabperf_latency 'fabric' (H H, 2 "
             "ranks on 2 host(s)); fabperf_bw 'other' (D D, 2 ranks on 2 host(s)); fabperf_allreduce 'fabric' (H H, "
             "2 ranks on 2 host(s))", path);
    CHECK_STR(err, want);
    CHECK(e.from_baseline == NULL);
    run = bw_run("nope", "H H, 2 ranks on 2 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR && strstr(err, "no entry of this run, fabperf_bw 'nope' (H H"));

    /* Two configurations of one placement and no --label: name one. */
    char two[sizeof baseline + 512];
    snprintf(two, sizeof two, "%s", baseline);
    char *other = strstr(two, "\"label\":\"other\",\"size\":1024,\"placement\":\"D D");
    memcpy(other + strlen("\"label\":\"other\",\"size\":1024,\"placement\":\""), "H H", 3);
    write_file(two);
    run = bw_run(NULL, "H H, 2 ranks on 2 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR &&
          strstr(err, "holds several configurations of fabperf_bw ('fabric' (H H, 2 ranks on 2 host(s)); 'other' (H H, "
                      "2 ranks on 2 host(s))): give --label to name one"));
    run = bw_run("other", "H H, 2 ranks on 2 host(s)");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_OK && e.nfrom_baseline == 1);
    fp_expect_release(&e);

    /* A quantity the program does not judge; not a baseline; not JSON; no file. */
    fp_baseline_run_t lat_as_bw = {"fabperf_latency", NULL, "H H, 2 ranks on 2 host(s)", "MB/s", FP_QTY_RATE, "x", "y"};
    write_file(baseline);
    CHECK(load(&e, expect, &lat_as_bw, err, sizeof err) == FP_ERR &&
          strstr(err, "fabperf_latency's entries are in us, a quantity this program does not judge"));
    write_file("{\"type\":\"meta\"}");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR && strstr(err, "not a fabperf-baseline file"));
    write_file("{\"type\":\"fabperf-baseline\",\"entries\":[{\"program\":\"fabperf_bw\",\"label\":\"other\","
               "\"placement\":\"H H, 2 ranks on 2 host(s)\",\"size\":-1,\"bound\":5,\"unit\":\"MB/s\",\"higher_is_better\":true}]}");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR && strstr(err, "lacks a size, a positive bound"));
    write_file("{\"type\":");
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR && strstr(err, "cannot read a baseline: ") &&
          strstr(err, ": not JSON: line 1, column 9: the text ends where a value should be"));
    unlink(path);
    CHECK(load(&e, expect, &run, err, sizeof err) == FP_ERR && strstr(err, "No such file or directory"));
}

int main(void)
{
    snprintf(path, sizeof path, "/tmp/fp-baseline-%ld.json", (long)getpid());
    write_file(baseline);
    test_grammar();
    test_selection();
    test_refusals();
    unlink(path);
    return CHECK_DONE();
}
