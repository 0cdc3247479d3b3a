/* libFuzzer harness for the option and size parsers.
 *
 * The input is split at NUL bytes into argv[1..]; the first byte picks the benchmark (windowed or
 * not). Every piece also goes through fp_size_parse, and the whole input through the JSON reader
 * and the topology reader (fabperf's format, Slurm's, ibnetdiscover's). Besides the sanitizers' findings, the harness
 * aborts when a parser breaks its contract: an error without a one-line message, or an accepted
 * command line whose values are out of the table's ranges. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "topology.h"
#include "metric.h"
#include "options.h"

#define MAX_ARGS 64

/* What the parsers read of a metric: the --expect quantity, the layouts, OSU's defaults. */
static const fp_metric_t rate = {.name = "bandwidth", .quantity = FP_QTY_RATE,
                                 .defaults = {.iterations = {100, 20}, .warmup = {10, 2}}};
static const fp_metric_t latency = {.name = "latency", .quantity = FP_QTY_LATENCY,
                                    .defaults = {.iterations = {10000, 1000}, .warmup = {100, 10}}};
static const fp_bench_t windowed = {.name = "bw", .title = "t", .metric = &rate, .uses = FP_USES_WINDOW,
                                    .default_max = 4 << 20};
static const fp_bench_t plain = {.name = "latency", .title = "t", .metric = &latency, .default_max = 4 << 20};

static void require(int condition, const char *what, const char *detail)
{
    if (!condition) {
        fprintf(stderr, "contract broken: %s: '%s'\n", what, detail);
        abort();
    }
}

static void message_ok(const char *err)
{
    require(err[0] != '\0', "error without a message", err);
    for (const char *p = err; *p; p++)
        require((unsigned char)*p >= 0x20 || *p == '\t', "control character in a message", err);
}

static void check_sizes(const char *piece)
{
    size_t bytes = 0;
    char err[256] = "", text[32];
    if (fp_size_parse(piece, &bytes, err, sizeof err) != FP_OK) {
        message_ok(err);
        return;
    }
    fp_size_format(bytes, text, sizeof text);
    size_t again = 0;
    require(fp_size_parse(text, &again, err, sizeof err) == FP_OK && again == bytes,
            "formatted size does not parse back", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const fp_bench_t *bench = data[0] & 1 ? &windowed : &plain;
    char *copy = malloc(size); /* data[1..] plus a final NUL */
    if (!copy)
        return 0;
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';

    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = "fabperf_fuzz";
    for (char *p = copy; p < copy + size && argc <= MAX_ARGS; p += strlen(p) + 1) {
        argv[argc++] = p;
        check_sizes(p);
    }
    argv[argc] = NULL;

    fp_params_t params;
    char err[1024] = "";
    if (fp_options_parse(bench, argc, argv, &params, err, sizeof err) != FP_OK) {
        message_ok(err);
    } else if (!params.help && !params.version) {
        require(params.min_size >= 1 && params.min_size <= params.max_size && params.max_size <= FP_SIZE_LIMIT,
                "accepted size range out of limits", err);
        require(params.step_factor >= 1.01 || params.step_bytes > 0, "accepted step", err);
        require(params.iterations == -1 || params.iterations >= 1, "accepted iterations", err);
        require(params.warmup == -1 || params.warmup >= 1, "accepted warm-up", err);
        require(params.window >= 1 && params.window <= 65536, "accepted window", err);
        require(params.timeout_s == -1 || params.timeout_s >= 1, "accepted timeout", err);
        for (int side = 0; side < 2; side++)
            require(params.placement[side] && strchr("HPDM", params.placement[side]), "accepted placement", err);
    }
    /* The whole input as a JSON document (a baseline file): a tree, or a one-line reason. */
    char why[256] = "";
    fp_json_t *doc = fp_json_parse((const char *)data, size, why, sizeof why);
    if (!doc)
        message_ok(why);
    fp_json_free(doc);
    /* The whole input as a topology file: a model whose switches and parents are sound, or a
     * one-line reason. */
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
        fp_topology_t topo;
        char terr[512] = "";
        if (fp_topology_parse(text, "fuzz", &topo, terr, sizeof terr) != 0) {
            message_ok(terr);
        } else {
            for (size_t i = 0; i < topo.nnode; i++)
                require(topo.node[i].sw >= 0 && (size_t)topo.node[i].sw < topo.nsw, "a node's switch", terr);
            for (size_t i = 0; i < topo.nsw; i++)
                require(topo.sw[i].parent < (int)topo.nsw && fp_topology_depth(&topo, (int)i) < (int)topo.nsw + 1,
                        "a switch's parent", terr);
        }
        fp_topology_free(&topo);
        free(text);
    }
    free(copy);
    return 0;
}
