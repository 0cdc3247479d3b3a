/* The option table: defaults, parsing, and one clear line per bad input. */
#include "check.h"
#include "collective.h"
#include "comm.h"
#include "options.h"

static const fp_bench_t windowed = {.name = "bw", .title = "t", .uses = FP_USES_WINDOW, .default_max = 4 << 20,
                                    .metric = &fp_metric_latency};
static const fp_bench_t plain = {.name = "latency", .title = "t", .default_max = 4 << 20,
                                 .metric = &fp_metric_latency};
static const fp_bench_t rate = {.name = "bw", .title = "t", .uses = FP_USES_WINDOW, .default_max = 4 << 20,
                                .metric = &fp_metric_bandwidth};
static const fp_bench_t collective = {.name = "allreduce", .title = "t", .uses = FP_USES_COLLECTIVE,
                                      .default_max = 1 << 20, .metric = &fp_metric_collective};

static int parse(const fp_bench_t *b, fp_params_t *p, char *err, const char *a1, const char *a2,
                 const char *a3, const char *a4)
{
    char *argv[6] = {"prog", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL};
    int argc = 1;
    while (argc < 5 && argv[argc])
        argc++;
    err[0] = '\0';
    return fp_options_parse(b, argc, argv, p, err, 512);
}

/* Bad input must fail with a message that names the option (or thing) and what is accepted. */
static void bad(const fp_bench_t *b, const char *expect1, const char *expect2, const char *a1,
                const char *a2, const char *a3)
{
    fp_params_t p;
    char err[512];
    int rc = parse(b, &p, err, a1, a2, a3, NULL);
    if (rc != FP_ERR || !strstr(err, expect1) || !strstr(err, expect2) || strchr(err, '\n')) {
        fprintf(stderr, "args '%s %s %s': rc %d, message '%s', expected '%s' and '%s'\n", a1,
                a2 ? a2 : "", a3 ? a3 : "", rc, err, expect1, expect2);
        check_failures++;
    }
}

int main(void)
{
    fp_params_t p;
    char err[512];

    CHECK(parse(&windowed, &p, err, NULL, NULL, NULL, NULL) == FP_OK);
    CHECK(p.min_size == 1 && p.max_size == (4 << 20));
    CHECK(p.window == 64 && p.iterations == -1 && p.warmup == -1 && p.batch == -1);
    CHECK_NEAR(p.step_factor, 2, 0);
    CHECK_NEAR(p.ci_target_pct, 1, 0);
    CHECK(p.format == FP_FORMAT_TEXT && p.timer == FP_TIMER_WTIME);
    CHECK(p.placement[0] == 'H' && p.placement[1] == 'H');

    CHECK(parse(&windowed, &p, err, "-m", "8:1M", "-W", "16") == FP_OK);
    CHECK(p.min_size == 8 && p.max_size == (1 << 20) && p.window == 16);
    CHECK(parse(&windowed, &p, err, "-m64K", "--format=json", NULL, NULL) == FP_OK);
    CHECK(p.min_size == 1 && p.max_size == 65536 && p.format == FP_FORMAT_JSON);
    CHECK(parse(&plain, &p, err, "-b", "8", "-e", "128") == FP_OK);
    CHECK(p.min_size == 8 && p.max_size == 128);
    CHECK(parse(&plain, &p, err, "D", "H", "-i", "5") == FP_OK);
    CHECK(p.placement[0] == 'D' && p.placement[1] == 'H' && p.iterations == 5);
    CHECK(parse(&plain, &p, err, "-d", "cuda", NULL, NULL) == FP_OK);
    CHECK(p.placement[0] == 'D' && p.placement[1] == 'D');
    CHECK(parse(&plain, &p, err, "-a", "--ci-target", "0.5", NULL) == FP_OK);
    CHECK(p.adaptive && p.ci_target_pct == 0.5);
    CHECK(parse(&plain, &p, err, "-n", "7", "-w", "3") == FP_OK);
    CHECK(p.iterations == 7 && p.warmup == 3);

    bad(&plain, "unknown option '--bogus'", "--help", "--bogus", NULL, NULL);
    bad(&plain, "-i/--iterations", "1 to 1000000000", "-i", "abc", NULL);
    bad(&plain, "-i/--iterations", "out of range", "-i", "0", NULL);
    bad(&plain, "-i/--iterations", "missing value", "-i", NULL, NULL);
    bad(&plain, "-i/--iterations", "empty value", "-i", "", NULL);
    bad(&plain, "-i/--iterations", "given twice", "-i5", "-i", "6");
    bad(&plain, "-i/--iterations and -n/--iters", "give one", "-i5", "-n", "6");
    bad(&plain, "-m/--message-size", "MIN 64 is larger than MAX 8", "-m", "64:8", NULL);
    bad(&plain, "-m/--message-size", "out of range", "-m", "0", NULL);
    bad(&plain, "-m/--message-size", "overflows", "-m", "1:99999999999G", NULL);
    bad(&plain, "-m/--message-size", "2147483647 bytes", "-m", "4G", NULL);
    bad(&plain, "-m/--message-size", "no valid MIN", "-m", ":8", NULL);
    bad(&windowed, "-W/--window", "1 to 65536", "-W", "0", NULL);
    bad(&plain, "-W/--window", "does not apply to fabperf_latency", "-W", "8", NULL);
    bad(&plain, "--format", "text, csv, json", "--format", "xml", NULL);
    bad(&plain, "-d/--accelerator", "cuda", "-d", "rocm", NULL);
    bad(&plain, "placement", "two letters", "X", "H", NULL);
    bad(&plain, "placement", "two needed", "D", NULL, NULL);
    bad(&plain, "-c/--validate", "takes no value", "--validate=yes", NULL, NULL);
    bad(&plain, "-i/--iterations", "-a/--adaptive", "-a", "-i", "5");
    bad(&plain, "--ci-target", "need -a/--adaptive", "--ci-target", "2", NULL);
    bad(&plain, "-f/--stepfactor", "1.01 to 1024", "-f", "1", NULL);
    bad(&plain, "-m/--message-size and -b/--minbytes", "give one", "-m8", "-b", "4");
    bad(&plain, "-m/--message-size and -b/-e", "give one", "-m8", "-e", "4");
    /* What the metric answers: the quantity --expect takes, whether nccl-tests' layout exists. */
    CHECK(parse(&rate, &p, err, "--expect", "bw>=10", NULL, NULL) == FP_OK);
    CHECK(parse(&plain, &p, err, "--expect", "lat<=10", NULL, NULL) == FP_OK);
    bad(&plain, "--expect: 'bw>=10' does not apply to fabperf_latency", "lat<=N", "--expect", "bw>=10", NULL);
    bad(&rate, "--expect: 'lat<=10' does not apply to fabperf_bw", "bw>=N", "--expect", "lat<=10", NULL);
    CHECK(parse(&collective, &p, err, "--layout", "nccl-tests", NULL, NULL) == FP_OK);
    CHECK(p.layout == FP_LAYOUT_NCCL_TESTS);
    bad(&rate, "--layout nccl-tests applies to the collectives", "accepted: full, osu", "--layout", "nccl-tests",
        NULL);
    return CHECK_DONE();
}
