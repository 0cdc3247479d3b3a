/* The options of every program: one table (name, type, range, default, help) drives parsing,
 * range checks and --help. Over 400 lines because the table is: each option is its one entry. */
#include "options.h"

#include "collective.h"
#include "escape.h"
#include "metric.h"
#include "nic_expect.h"
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(f) offsetof(fp_params_t, f)

/* Choices of the collectives' options (declared in collective.h). */
const char *const fp_type_names[FP_TYPE_COUNT + 1] = {"float", "double", "int32", "int64", "half",
                                                      "bfloat16", NULL};
const char *const fp_op_names[FP_OP_COUNT + 1] = {"sum", "prod", "max", "min", NULL};
const char *const fp_backend_names[FP_BACKEND_COUNT + 1] = {"mpi", "nccl", NULL};

static const char *const format_names[] = {"text", "csv", "json", NULL};
static const char *const timer_names[] = {"wtime", "cuda", NULL};
static const char *const layout_names[] = {"summary", "full", "osu", "nccl-tests", NULL};
static const char *const off_on[] = {"off", "on", NULL};
static const char *const inconclusive_names[] = {"status", "fail", "pass", NULL}; /* fp_inconclusive_t */
static const char *const pairs_mode_names[] = {"shift", "isolated", "sampled", NULL};

/* The table: order is the order of --help. */
const fp_option_t fp_options[] = {
    {'m', "message-size", FP_OPT_RANGE, FIELD(min_size), "[MIN:]MAX", NULL, 1, (double)FP_SIZE_LIMIT,
     NULL, NULL, 0, "message sizes in bytes, suffixes K M G (OSU -m)"},
    {'b', "minbytes", FP_OPT_SIZE, FIELD(min_size), "SIZE", NULL, 1, (double)FP_SIZE_LIMIT, NULL,
     NULL, 0, "smallest size (nccl-tests -b)"},
    {'e', "maxbytes", FP_OPT_SIZE, FIELD(max_size), "SIZE", NULL, 1, (double)FP_SIZE_LIMIT, NULL,
     NULL, 0, "largest size (nccl-tests -e)"},
    {'f', "stepfactor", FP_OPT_DOUBLE, FIELD(step_factor), "F", "2", 1.01, 1024, NULL, NULL, 0,
     "next size = size x F (nccl-tests -f)"},
    {0, "step-bytes", FP_OPT_SIZE, FIELD(step_bytes), "SIZE", NULL, 1, (double)FP_SIZE_LIMIT, NULL,
     NULL, 0, "next size = size + SIZE instead (nccl-tests -i)"},
    {'i', "iterations", FP_OPT_LONG, FIELD(iterations), "N", "default", 1, 1e9, NULL, "default", 0,
     "timed operations per size, rounded up to whole samples (OSU -i)"},
    {'n', "iters", FP_OPT_LONG, FIELD(iterations), "N", NULL, 1, 1e9, NULL, NULL, 0,
     "same as -i (nccl-tests -n)"},
    {'x', "warmup", FP_OPT_LONG, FIELD(warmup), "N", "default", 1, 1e9, NULL, "default", 0,
     "untimed warm-up operations per size (OSU -x); never 0"},
    {'w', "warmup-iters", FP_OPT_LONG, FIELD(warmup), "N", NULL, 1, 1e9, NULL, NULL, 0,
     "same as -x (nccl-tests -w)"},
    {'a', "adaptive", FP_OPT_FLAG, FIELD(adaptive), NULL, NULL, 0, 0, NULL, NULL, 0,
     "a pilot samples until both sides of the median's 95% CI are within --ci-target (or its share of --time-budget is spent); then 1.5x as many fresh samples are taken and reported"},
    {0, "ci-target", FP_OPT_DOUBLE, FIELD(ci_target_pct), "PCT", "1", 0.001, 50, NULL, NULL, 0,
     "adaptive: CI half-width target in % of the median"},
    {0, "time-budget", FP_OPT_DOUBLE, FIELD(time_budget_s), "SEC", "2", 0.001, 86400, NULL, NULL, 0,
     "adaptive: time limit per size, shared by a collective's variants; the pilot may use 40% of it"},
    {0, "max-samples", FP_OPT_LONG, FIELD(max_samples), "N", "1000000", 10, 1e8, NULL, NULL, 0,
     "adaptive: most samples stored per size"},
    {0, "batch", FP_OPT_LONG, FIELD(batch), "K", "auto", 1, 1e6, NULL, "auto", 0,
     "operations per timed sample; auto: a sample lasts >= 100x the timer's cost and >= 100 steps of its clock (doubled where the median sample falls short); kept from the previous size where halving it would leave samples under twice that"},
    {'W', "window", FP_OPT_LONG, FIELD(window), "N", "64", 1, 65536, NULL, NULL, FP_USES_WINDOW,
     "messages in flight per window (bw, bibw)"},
    {0, "backend", FP_OPT_CHOICE, FIELD(backend), "B", "mpi", 0, 0, fp_backend_names, NULL,
     FP_USES_BACKEND, "mpi, or nccl (then buffers D D and --timer cuda unless given)"},
    {'T', "datatype", FP_OPT_CHOICE, FIELD(datatype), "TYPE", "float", 0, 0, fp_type_names, NULL,
     FP_USES_COLLECTIVE, "element type (OSU -T; nccl-tests -d); half, bfloat16 with nccl only"},
    {'o', "op", FP_OPT_CHOICE, FIELD(op), "OP", "sum", 0, 0, fp_op_names, NULL, FP_USES_OP,
     "reduction operation (nccl-tests -o)"},
    {'r', "root", FP_OPT_LONG, FIELD(root), "N", "0", 0, 1e9, NULL, NULL, FP_USES_ROOT,
     "root rank (nccl-tests -r)"},
    {0, "rotate", FP_OPT_CHOICE, FIELD(rotate), "on|off", "on", 0, 0, off_on, NULL, FP_USES_COLLECTIVE,
     "each call uses the next slice of the -m MAX buffers, as nccl-tests shifts them; off: same slice"},
    {0, "isolate", FP_OPT_FLAG, FIELD(isolate), NULL, NULL, 0, 0, NULL, NULL, FP_USES_COLLECTIVE,
     "after the sweep, which member slows the collective at its largest size: groups split from the job run it at "
     "the same time, groups 33% slower than known-good ones (CIs apart) are split again, each suspect confirmed "
     "beside a known-good partner; exit 3 when one stands, 4 when undecided (--backend mpi, 4 or more ranks); "
     "no search where --expect passes at that size"},
    {0, "suspects", FP_OPT_STRING, FIELD(suspects), "LIST", NULL, 0, 0, NULL, NULL, FP_USES_COLLECTIVE,
     "with --isolate: no search, only these members confirmed, each beside known-good partners (the ranks not "
     "listed): rank numbers and host names (every rank on the host), comma-separated"},
    {0, "suspects-from", FP_OPT_STRING, FIELD(suspects_from), "FILE", NULL, 0, 0, NULL, NULL, FP_USES_COLLECTIVE,
     "with --isolate: the suspects are the nodes of the findings that stand or are undecided in FILE, the "
     "results of fabperf_allpairs --format json (nodes not in this job are said and left out); none: the whole job "
     "is searched"},
    {0, "mode", FP_OPT_CHOICE, FIELD(pairs_mode), "M", "shift", 0, 0, pairs_mode_names, NULL, FP_USES_SWEEP,
     "shift (all pairs at once, n-1 rounds), isolated (one pair at a time), sampled"},
    {0, "rounds", FP_OPT_LONG, FIELD(pairs_rounds), "N", "4", 1, 1e6, NULL, NULL, FP_USES_SWEEP,
     "sampled: shift rounds spread over 1..n-1 (with their reverses; at least 3, the fewest that place every fault)"},
    {0, "retest-budget", FP_OPT_DOUBLE, FIELD(pairs_retest_s), "SEC", "auto", 0, 86400, NULL, "auto", FP_USES_SWEEP,
     "time per size for re-measuring suspects alone beside healthy pairs; auto: twice the sweep's own, at least 10 s; 0: none (suspects stay undecided)"},
    {0, "min-effect", FP_OPT_DOUBLE, FIELD(pairs_min_effect), "F", "0.25", 0.01, 0.9, NULL, NULL, FP_USES_SWEEP,
     "smallest slowdown a finding claims: cells at most 1-F of what their healthy peers give"},
    {0, "topology", FP_OPT_STRING, FIELD(topology), "FILE", NULL, 0, 0, NULL, NULL, FP_USES_SWEEP,
     "the fabric's switches: fabperf's format (switch S [parent=P]; node HOSTLIST switch=S), Slurm's topology.conf "
     "or ibnetdiscover's output, recognized from the text; the header says which switch each host hangs from, and "
     "names hosts the file lacks (each then on a switch of its own)"},
    {'c', "validate", FP_OPT_FLAG, FIELD(validate), NULL, NULL, 0, 0, NULL, NULL, 0,
     "after the timed loop, check every received byte of every message (bw, bibw: each message of the window in its own buffer); exit 1 on any Fail"},
    {0, "format", FP_OPT_CHOICE, FIELD(format), "FMT", "text", 0, 0, format_names, NULL, 0,
     "output: text (OSU layout), csv, json (JSON Lines)"},
    {0, "layout", FP_OPT_CHOICE, FIELD(layout), "L", "summary", 0, 0, layout_names, NULL, 0,
     "text columns: summary (OSU's or nccl-tests' first columns, the median, its CI, samples, batch), "
     "full (also min, p99, max, stddev and every flag), or exactly osu's or nccl-tests' (collectives) "
     "row; csv and json always have every column"},
    {0, "output", FP_OPT_STRING, FIELD(output), "FILE", NULL, 0, 0, NULL, NULL, 0,
     "write results to FILE (atomically) instead of standard output"},
    {0, "label", FP_OPT_STRING, FIELD(label), "TEXT", NULL, 0, 0, NULL, NULL, 0,
     "name of this configuration, recorded in the results"},
    {'d', "accelerator", FP_OPT_PLACEMENT, FIELD(accelerator), "cuda", NULL, 0, 0, NULL, NULL, 0,
     "buffers on the GPU (OSU -d cuda): placement D D unless given"},
    {0, "device", FP_OPT_LONG, FIELD(device), "N", "auto", 0, 1024, NULL, "auto", 0,
     "GPU index; auto: node-local rank modulo visible GPUs"},
    {0, "timer", FP_OPT_CHOICE, FIELD(timer), "T", "wtime", 0, 0, timer_names, NULL, 0,
     "wtime (MPI_Wtime) or cuda (CUDA events, one pair per sample; only with --backend nccl)"},
    {0, "staging", FP_OPT_FLAG, FIELD(staging), NULL, NULL, 0, 0, NULL, NULL, 0,
     "device data through pinned host copies, timed as part of the operation"},
    {0, "timeout", FP_OPT_LONG, FIELD(timeout_s), "SEC", "auto", 1, 1e6, NULL, "auto", 0,
     "end the job (exit 1, every rank) if one size takes longer; auto: 60 s + 1 s per 10 MB moved"},
    {0, "startup-timeout", FP_OPT_LONG, FIELD(startup_timeout_s), "SEC", "auto", 1, 1e6, NULL, "auto", 0,
     "the same for MPI start-up and set-up; auto: 300 s + 0.1 s per rank"},
    {0, "finalize-timeout", FP_OPT_LONG, FIELD(finalize_timeout_s), "SEC", "auto", 1, 1e6, NULL, "auto", 0,
     "end a rank stuck in MPI_Finalize, results complete, with the run's status; auto: 30 s"},
    {0, "expect", FP_OPT_EXPECT, FIELD(expect), "TERMS", NULL, 0, 0, NULL, NULL, 0,
     "thresholds per size judged on the CI (bw>=11000@4M, lat<=2@8, 90%line@1M:, baseline=FILE[:TOL]); exit 3 on a fail"},
    {0, "inconclusive", FP_OPT_CHOICE, FIELD(inconclusive), "status|fail|pass", "status", 0, 0, inconclusive_names,
     NULL, 0, "exit status when an --expect verdict is inconclusive and none failed: status 4, fail 3, pass 0"},
    {0, "line-rate", FP_OPT_BITRATE, FIELD(line_rate_bps), "BITS", NULL, 1, 1e15, NULL, NULL, 0,
     "line rate in bits/s (100G, 25G, 1G; powers of 1000); default: of the NIC that carried the traffic"},
    {0, "expect-nic", FP_OPT_STRING, FIELD(expect_nic), "NIC", NULL, 0, 0, NULL, NULL, 0,
     "fail a size (exit 3) where < 90% of a node's inter-node payload crossed NIC on that node: a name "
     "(eth0, mlx5_0:1) on every node, a glob (mlx5_*), or per node NODE:NAME,... (h1:ens1,h2:ens2)"},
    {0, "path-evidence", FP_OPT_CHOICE, FIELD(path_evidence), "on|off", "on", 0, 0, off_on, NULL, 0,
     "read NIC byte counters before and after each size (outside the timed region); record UCX's "
     "transport and protocol selection from its log"},
    {0, "cycles", FP_OPT_LONG, FIELD(cycles), "N", NULL, 1, 1e6, NULL, NULL, 0,
     "run the sweep N times (a soak): every row carries its cycle and time; steps in a size's series "
     "(all-pairs: and in each cell's) are found at the end (exit 3)"},
    {0, "soak", FP_OPT_DURATION, FIELD(soak_s), "DURATION", NULL, 1, 30 * 86400, NULL, NULL, 0,
     "repeat the sweep until DURATION (90s, 10m, 2h) has passed, the cycle under way completing; at "
     "most as many cycles as --cycles says"},
    {0, "sysfs-root", FP_OPT_STRING, FIELD(sysfs_root), "DIR", NULL, 0, 0, NULL, NULL, 0,
     "read the NIC counters (path evidence, link health) under DIR in place of /sys; %r is replaced by "
     "the rank, %h by the host name"},
    {'h', "help", FP_OPT_FLAG, FIELD(help), NULL, NULL, 0, 0, NULL, NULL, 0, "this text"},
    {'v', "version", FP_OPT_FLAG, FIELD(version), NULL, NULL, 0, 0, NULL, NULL, 0,
     "print the version"},
};
const size_t fp_option_count = sizeof fp_options / sizeof fp_options[0];

static void option_name(const fp_option_t *o, char *out, size_t outlen)
{
    if (o->short_name)
        snprintf(out, outlen, "-%c/--%s", o->short_name, o->long_name);
    else
        snprintf(out, outlen, "--%s", o->long_name);
}

static void range_text(const fp_option_t *o, char *out, size_t outlen)
{
    char lo[32], hi[32];
    switch (o->type) {
    case FP_OPT_LONG:
        snprintf(out, outlen, "%.0f to %.0f%s%s", o->min, o->max, o->auto_word ? " or " : "",
                 o->auto_word ? o->auto_word : "");
        break;
    case FP_OPT_DOUBLE:
        snprintf(out, outlen, "%g to %g%s%s", o->min, o->max, o->auto_word ? " or " : "", o->auto_word ? o->auto_word : "");
        break;
    case FP_OPT_SIZE:
    case FP_OPT_RANGE:
        fp_size_format((size_t)o->min, lo, sizeof lo);
        snprintf(hi, sizeof hi, "%zu", (size_t)o->max);
        snprintf(out, outlen, "%s%s to %s bytes, suffixes K M G T", o->type == FP_OPT_RANGE ? "[MIN:]MAX, each " : "", lo, hi);
        break;
    case FP_OPT_CHOICE: {
        size_t used = 0;
        out[0] = '\0';
        for (const char *const *c = o->choices; *c && used < outlen; c++)
            used += (size_t)snprintf(out + used, outlen - used, "%s%s", c == o->choices ? "" : ", ", *c);
        break;
    }
    case FP_OPT_PLACEMENT: snprintf(out, outlen, "cuda"); break;
    case FP_OPT_EXPECT: snprintf(out, outlen, "%s", fp_expect_grammar); break;
    case FP_OPT_BITRATE: snprintf(out, outlen, "bits/s > 0 with suffixes K M G T (powers of 1000), e.g. 100G"); break;
    case FP_OPT_DURATION: snprintf(out, outlen, "%g s to %g d, suffixes s m h d, e.g. 90s, 10m, 2h", o->min, o->max / 86400); break;
    default: snprintf(out, outlen, "a non-empty text without control characters"); break;
    }
}

static int parse_long(const char *text, long *value)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || isspace((unsigned char)text[0]))
        return FP_ERR;
    *value = v;
    return FP_OK;
}

static int parse_double(const char *text, double *value)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || isspace((unsigned char)text[0]))
        return FP_ERR;
    *value = v;
    return FP_OK;
}

static int size_in_range(const fp_option_t *o, const char *text, size_t *bytes, char *why, size_t whylen)
{
    if (fp_size_parse(text, bytes, why, whylen) != FP_OK)
        return FP_ERR;
    if (*bytes < (size_t)o->min || *bytes > (size_t)o->max)
        return fp_fail_text(why, whylen, "'%s' is out of range", text);
    return FP_OK;
}

/* MIN:MAX or MAX into min_size and max_size. */
static int range_store(const fp_option_t *o, const char *value, fp_params_t *params, const char *name,
                       const char *range, char *err, size_t errlen)
{
    char why[160];
    const char *colon = strchr(value, ':');
    size_t lo = (size_t)o->min, hi;
    if (colon) {
        char first[64];
        size_t len = (size_t)(colon - value);
        if (len == 0 || len >= sizeof first)
            return fp_fail_text(err, errlen, "%s: '%s' has no valid MIN (accepted: %s)", name, value, range);
        memcpy(first, value, len);
        first[len] = '\0';
        if (size_in_range(o, first, &lo, why, sizeof why) != FP_OK)
            return fp_fail_text(err, errlen, "%s: %s (accepted: %s)", name, why, range);
        value = colon + 1;
    }
    if (size_in_range(o, value, &hi, why, sizeof why) != FP_OK)
        return fp_fail_text(err, errlen, "%s: %s (accepted: %s)", name, why, range);
    params->min_size = lo;
    params->max_size = hi;
    return FP_OK;
}

/* A whole or real number in [min, max] (or the auto word, stored as -1). */
static int number_store(const fp_option_t *o, const char *value, char *field, const char *name,
                        const char *range, char *err, size_t errlen)
{
    long whole = 0;
    double real = 0;
    if (o->auto_word && strcmp(value, o->auto_word) == 0) {
        if (o->type == FP_OPT_LONG)
            *(long *)field = -1;
        else
            *(double *)field = -1.0;
        return FP_OK;
    }
    if (o->type == FP_OPT_LONG && parse_long(value, &whole) != FP_OK)
        return fp_fail_text(err, errlen, "%s: '%s' is not a whole number (accepted: %s)", name, value, range);
    if (o->type == FP_OPT_DOUBLE && parse_double(value, &real) != FP_OK)
        return fp_fail_text(err, errlen, "%s: '%s' is not a number (accepted: %s)", name, value, range);
    double v = o->type == FP_OPT_LONG ? (double)whole : real;
    if (v < o->min || v > o->max)
        return fp_fail_text(err, errlen, "%s: '%s' is out of range (accepted: %s)", name, value, range);
    if (o->type == FP_OPT_LONG)
        *(long *)field = whole;
    else
        *(double *)field = real;
    return FP_OK;
}

/* Stores one option's value; on error writes a complete one-line message. */
static int option_store(const fp_option_t *o, const char *value, fp_params_t *params, char *err,
                        size_t errlen)
{
    char name[64], range[160], why[160];
    option_name(o, name, sizeof name);
    range_text(o, range, sizeof range);
    char *field = (char *)params + o->offset;

    if (o->type != FP_OPT_FLAG && value[0] == '\0')
        return fp_fail_text(err, errlen, "%s: empty value (accepted: %s)", name, range);
    switch (o->type) {
    case FP_OPT_FLAG: *(int *)field = 1; return FP_OK;
    case FP_OPT_STRING:
        for (const char *p = value; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                return fp_fail_text(err, errlen, "%s: '%s' contains a control character (accepted: %s)", name, value, range);
        *(const char **)field = value;
        return FP_OK;
    case FP_OPT_LONG:
    case FP_OPT_DOUBLE: return number_store(o, value, field, name, range, err, errlen);
    case FP_OPT_SIZE:
        if (size_in_range(o, value, (size_t *)field, why, sizeof why) != FP_OK)
            return fp_fail_text(err, errlen, "%s: %s (accepted: %s)", name, why, range);
        return FP_OK;
    case FP_OPT_RANGE: return range_store(o, value, params, name, range, err, errlen);
    case FP_OPT_CHOICE:
        for (int i = 0; o->choices[i]; i++)
            if (strcmp(value, o->choices[i]) == 0) {
                *(int *)field = i;
                return FP_OK;
            }
        return fp_fail_text(err, errlen, "%s: unknown value '%s' (accepted: %s)", name, value, range);
    case FP_OPT_EXPECT: return fp_expect_parse((fp_expect_t *)field, value, err, errlen);
    case FP_OPT_BITRATE:
        if (fp_bitrate_parse(value, (double *)field) != FP_OK || *(double *)field > o->max)
            return fp_fail_text(err, errlen, "%s: '%s' is not a line rate (accepted: %s)", name, value, range);
        return FP_OK;
    case FP_OPT_DURATION: {
        char *end;
        double v = strtod(value, &end);
        double unit = !*end ? 1 : !strcmp(end, "s") ? 1 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600
                    : !strcmp(end, "d") ? 86400 : 0;
        if (end == value || unit == 0 || !isfinite(v) || v * unit < o->min || v * unit > o->max)
            return fp_fail_text(err, errlen, "%s: '%s' is not a duration (accepted: %s)", name, value, range);
        *(double *)field = v * unit;
        return FP_OK;
    }
    case FP_OPT_PLACEMENT:
        if (strcmp(value, "cuda") != 0)
            return fp_fail_text(err, errlen, "%s: unknown accelerator '%s' (accepted: %s)", name, value, range);
        *(int *)field = 1;
        return FP_OK;
    }
    return fp_fail_text(err, errlen, "%s: unhandled option type", name);
}

static const fp_option_t *option_find(const char *arg, const char **inline_value)
{
    *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        for (size_t i = 0; i < fp_option_count; i++)
            if (strlen(fp_options[i].long_name) == len && strncmp(fp_options[i].long_name, name, len) == 0) {
                *inline_value = eq ? eq + 1 : NULL;
                return &fp_options[i];
            }
        return NULL;
    }
    for (size_t i = 0; i < fp_option_count; i++)
        if (fp_options[i].short_name && fp_options[i].short_name == arg[1]) {
            *inline_value = arg[2] ? arg + 2 : NULL;
            return &fp_options[i];
        }
    return NULL;
}

static int placement_store(const char *arg, int index, fp_params_t *params, char *err, size_t errlen)
{
    static const char letters[] = "HPDM";
    if (index >= 2)
        return fp_fail_text(err, errlen, "placement: extra argument '%s' (accepted: two letters of H, P, D, M, e.g. D D)", arg);
    if (strlen(arg) != 1 || !strchr(letters, toupper((unsigned char)arg[0])))
        return fp_fail_text(err, errlen, "placement: '%s' is not a buffer kind (accepted: H host, P pinned host, D device, M managed; two letters, e.g. D D)", arg);
    params->placement[index] = (char)toupper((unsigned char)arg[0]);
    return FP_OK;
}

static void params_defaults(const fp_bench_t *bench, fp_params_t *params)
{
    char err[256];
    memset(params, 0, sizeof *params);
    for (size_t i = 0; i < fp_option_count; i++)
        if (fp_options[i].default_text)
            option_store(&fp_options[i], fp_options[i].default_text, params, err, sizeof err);
    params->min_size = 1;
    params->max_size = bench->default_max;
    params->placement[0] = params->placement[1] = 0;
}

/* A threshold must be on the quantity this program reports; "uniform" needs a pair matrix. */
static int expect_fits(const fp_bench_t *bench, const fp_expect_t *e, char *err, size_t errlen)
{
    fp_quantity_t q = bench->metric->quantity;
    const char *measures = q == FP_QTY_LATENCY ? "latency: lat<=N[@SIZES]"
                                               : "a rate: bw>=N[@SIZES], busbw>=N[@SIZES] or PCT%line[@SIZES]";
    for (int i = 0; i < e->count; i++) {
        const fp_expect_term_t *t = &e->terms[i];
        if (t->uniform && !(bench->uses & FP_USES_SWEEP))
            return fp_fail_text(err, errlen, "--expect: '%s' applies to the all-pairs sweeps (fabperf_allpairs, "
                        "fabperf_allpairs_lat), not to fabperf_%s, which measures %s", t->text, bench->name, measures);
        if (!t->uniform && !t->on_wire && t->quantity != q) /* what the wire carried: every program */
            return fp_fail_text(err, errlen, "--expect: '%s' does not apply to fabperf_%s, which measures %s (accepted: %s)",
                        t->text, bench->name, measures, fp_expect_grammar);
    }
    return FP_OK;
}

/* Options that conflict or need each other, and defaults that follow from others. */
/* --layout: the exact layouts are text, and nccl-tests' exists only where the metric has it (the collectives'). */
static int layout_check(const fp_bench_t *bench, const fp_params_t *params, char *err, size_t errlen)
{
    if (params->layout != FP_LAYOUT_SUMMARY && params->layout != FP_LAYOUT_FULL && params->format != FP_FORMAT_TEXT)
        return fp_fail_text(err, errlen, "--layout %s applies to --format text (csv and json have every column)",
                    layout_names[params->layout]);
    if (params->layout == FP_LAYOUT_NCCL_TESTS && !bench->metric->nccl_row)
        return fp_fail_text(err, errlen, "--layout nccl-tests applies to the collectives, not to fabperf_%s "
                    "(accepted: full, osu)", bench->name);
    return FP_OK;
}

static int params_finish(fp_params_t *params, const fp_option_t *const *seen, int npositional, char *err,
                         size_t errlen)
{
    if (seen[FIELD(step_bytes)] && seen[FIELD(step_factor)])
        return fp_fail_text(err, errlen, "-f/--stepfactor and --step-bytes both set the size step: give one");
    if (params->min_size > params->max_size)
        return fp_fail_text(err, errlen, "-m/--message-size: MIN %zu is larger than MAX %zu (accepted: MIN <= MAX)",
                    params->min_size, params->max_size);
    if (params->adaptive && seen[FIELD(iterations)])
        return fp_fail_text(err, errlen, "-i/--iterations fixes the count, -a/--adaptive decides it: give one");
    if (!params->adaptive && (seen[FIELD(ci_target_pct)] || seen[FIELD(time_budget_s)] || seen[FIELD(max_samples)]))
        return fp_fail_text(err, errlen, "--ci-target, --time-budget and --max-samples need -a/--adaptive");
    if (params->backend == FP_BACKEND_NCCL && !seen[FIELD(timer)])
        params->timer = FP_TIMER_CUDA;
    if (npositional == 1)
        return fp_fail_text(err, errlen, "placement: one letter given, two needed (sender side first, e.g. D D or H D)");
    if (npositional == 0) {
        char side = params->accelerator || params->backend == FP_BACKEND_NCCL ? 'D' : 'H';
        params->placement[0] = params->placement[1] = side;
    }
    return FP_OK;
}

int fp_options_parse(const fp_bench_t *bench, int argc, char **argv, fp_params_t *params, char *err,
                     size_t errlen)
{
    const fp_option_t *seen[sizeof(fp_params_t)] = {0}; /* by field offset: who set it */
    int npositional = 0, range_set = 0, minmax_set = 0;
    char name[64], other[64];

    params_defaults(bench, params);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            FP_CHECK(placement_store(arg, npositional++, params, err, errlen));
            continue;
        }
        const char *value;
        const fp_option_t *o = option_find(arg, &value);
        if (!o)
            return fp_fail_text(err, errlen, "unknown option '%s' (see --help)", arg);
        option_name(o, name, sizeof name);
        if (o->needs & ~bench->uses)
            return fp_fail_text(err, errlen, "%s does not apply to fabperf_%s", name, bench->name);
        if (o->type == FP_OPT_FLAG) {
            if (value)
                return fp_fail_text(err, errlen, "%s takes no value (got '%s')", name, value);
        } else if (!value) {
            if (i + 1 >= argc)
                return fp_fail_text(err, errlen, "%s: missing value %s", name, o->metavar);
            value = argv[++i];
        }
        if (seen[o->offset] && o->type != FP_OPT_EXPECT) {
            option_name(seen[o->offset], other, sizeof other);
            if (seen[o->offset] == o)
                return fp_fail_text(err, errlen, "%s given twice", name);
            return fp_fail_text(err, errlen, "%s and %s set the same thing: give one", other, name);
        }
        seen[o->offset] = o;
        if (o->type == FP_OPT_RANGE)
            range_set = 1;
        if (o->short_name == 'b' || o->short_name == 'e')
            minmax_set = 1;
        FP_CHECK(option_store(o, value, params, err, errlen));
    }
    if (params->help || params->version)
        return FP_OK;
    if (range_set && minmax_set)
        return fp_fail_text(err, errlen, "-m/--message-size and -b/-e both set the size range: give one");
    FP_CHECK(expect_fits(bench, &params->expect, err, errlen));
    if (params->sysfs_root && !params->path_evidence)
        return fp_fail_text(err, errlen, "--sysfs-root needs the path evidence: drop --path-evidence off");
    if (params->expect_nic && !params->path_evidence)
        return fp_fail_text(err, errlen, "--expect-nic needs the path evidence: drop --path-evidence off");
    char nic_err[512];
    if (params->expect_nic && fp_nic_expect_check(params->expect_nic, nic_err, sizeof nic_err) != 0)
        return fp_fail_text(err, errlen, "%s", nic_err);
    if (layout_check(bench, params, err, errlen) != FP_OK)
        return FP_ERR;
    return params_finish(params, seen, npositional, err, errlen);
}

void fp_options_help(const fp_bench_t *bench, FILE *out)
{
    const fp_osu_defaults_t *osu = &bench->metric->defaults;
    char max[32];
    fp_size_format(bench->default_max, max, sizeof max);
    fprintf(out, "Usage: fabperf_%s [options] [PLACEMENT PLACEMENT]\n%s.\n\n", bench->name, bench->title);
    fprintf(out, "PLACEMENT: buffer of each side, sender (rank 0) first, as OSU writes it:\n"
                 "  H host (default), P pinned host, D CUDA device, M CUDA managed; e.g. D D, H D.\n\n"
                 "Options (OSU's short options win where nccl-tests' collide; -f is nccl-tests'):\n");
    if (bench->uses & FP_USES_COLLECTIVE)
        fprintf(out, "  nccl-tests users: -b -e -f -n -w -o -r as there; -d TYPE is -T/--datatype here\n"
                     "  (-d is OSU's accelerator), -i STEP is --step-bytes (-i is OSU's iterations),\n"
                     "  -c N is -c (validation on), -m is OSU's size range (no aggregated calls).\n");
    for (size_t i = 0; i < fp_option_count; i++) {
        const fp_option_t *o = &fp_options[i];
        if (o->needs & ~bench->uses)
            continue;
        char left[64], text[512], fallback[96] = "";
        if (o->short_name)
            snprintf(left, sizeof left, "-%c, --%s%s%s", o->short_name, o->long_name, o->metavar ? " " : "",
                     o->metavar ? o->metavar : "");
        else
            snprintf(left, sizeof left, "    --%s%s%s", o->long_name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
        if (o->type == FP_OPT_RANGE)
            snprintf(fallback, sizeof fallback, " [default:\a1:%s]", max);
        else if (o->offset == FIELD(iterations) && o->default_text)
            snprintf(fallback, sizeof fallback, " [default:\aOSU's, %ld up to 8K, %ld above]", osu->iterations[0],
                     osu->iterations[1]);
        else if (o->offset == FIELD(warmup) && o->default_text)
            snprintf(fallback, sizeof fallback, " [default:\aOSU's, %ld up to 8K, %ld above]", osu->warmup[0],
                     osu->warmup[1]);
        else if (o->default_text)
            snprintf(fallback, sizeof fallback, " [default:\a%s]", o->default_text);
        snprintf(text, sizeof text, "%s%s", o->help, fallback);
        fprintf(out, "  %-28s", left);
        fp_text_wrapped(out, text, 2 + ((int)strlen(left) > 28 ? (int)strlen(left) : 28), 31);
    }
    fprintf(out, "\nExit status: 0 success; 1 validation failure, runtime error or timeout;\n"
                 "2 bad usage; 3 a failed expectation (--expect, --expect-nic); 4 an inconclusive\n"
                 "--expect and none failed (--inconclusive fail: 3, pass: 0; either way one line\n"
                 "on standard error says so). A run cut short (--timeout, a failed peer, a stopped\n"
                 "job) still leaves its rows and, in text and json, an end line saying why;\n"
                 "--output FILE is renamed into place only then.\n");
}
