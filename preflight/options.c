/* fabperf_preflight's options: few, and none shared with the benchmarks but --format and --output. */
#include "options.h"

#include "escape.h"

#include <string.h>

static const struct {
    const char *name, *metavar, *help;
} options[] = {
    {"format", "FMT", "text (default: the table, then one line per finding) or json (JSON Lines)"},
    {"output", "FILE", "write the report to FILE (renamed into place when complete) instead of standard output"},
    {"sysfs-root", "DIR", "read DIR in place of /sys; %r is replaced by the rank, %h by the host name"},
    {"proc-root", "DIR", "read DIR in place of /proc; %r and %h as for --sysfs-root"},
    {"health-check", NULL, "this node alone, without MPI (Slurm's HealthCheckProgram, through a script): silent "
                           "when no check fails, else one line per failure on standard error and exit 1; the checks "
                           "that compare nodes need a job"},
    {"drain", NULL, "with --health-check, on a failure: scontrol update NodeName=$SLURMD_NODENAME (else the host "
                    "name) State=DRAIN Reason=\"fabperf_preflight: ...\""},
    {"help", NULL, "this text"},
    {"version", NULL, "print the version"},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

static int fail(char *err, size_t errlen, const char *msg, const char *name, const char *value)
{
    snprintf(err, errlen, msg, name, value);
    for (char *p = err; *p; p++) /* one line whatever the input held */
        if ((unsigned char)*p < 0x20)
            *p = '?';
    return -1;
}

static int store(pf_options_t *opts, const char *name, const char *value, char *err, size_t errlen)
{
    if (strcmp(name, "format") == 0) {
        if (strcmp(value, "text") == 0)
            opts->format = PF_FORMAT_TEXT;
        else if (strcmp(value, "json") == 0)
            opts->format = PF_FORMAT_JSON;
        else
            return fail(err, errlen, "--%s: '%s' is not a format (accepted: text, json)", name, value);
    } else if (!*value) {
        return fail(err, errlen, "--%s: '%s' is empty (accepted: a path)", name, value);
    } else if (strcmp(name, "output") == 0) {
        opts->output = value;
    } else if (strcmp(name, "sysfs-root") == 0) {
        opts->sys_root = value;
    } else {
        opts->proc_root = value;
    }
    return 0;
}

static int parse_one(int argc, char **argv, int *i, pf_options_t *opts, char *err, size_t errlen)
{
    const char *arg = argv[*i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        return opts->help = 1, 0;
    if (strcmp(arg, "-v") == 0 || strcmp(arg, "--version") == 0)
        return opts->version = 1, 0;
    if (strcmp(arg, "--health-check") == 0)
        return opts->health_check = 1, 0;
    if (strcmp(arg, "--drain") == 0)
        return opts->drain = 1, 0;
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    for (int o = 0; o < N_OPTIONS && strncmp(arg, "--", 2) == 0; o++) {
        if (!options[o].metavar || strlen(options[o].name) != len - 2 || strncmp(arg + 2, options[o].name, len - 2) != 0)
            continue;
        if (eq)
            return store(opts, options[o].name, eq + 1, err, errlen);
        if (*i + 1 >= argc)
            return fail(err, errlen, "--%s: needs a value (%s)", options[o].name, options[o].metavar);
        return store(opts, options[o].name, argv[++*i], err, errlen);
    }
    return fail(err, errlen, "%s'%s' is not an option (accepted: --format, --output, --sysfs-root, --proc-root, "
                "--health-check, --drain, --help, --version)", "", arg);
}

int pf_options_parse(int argc, char **argv, pf_options_t *opts, char *err, size_t errlen)
{
    memset(opts, 0, sizeof *opts);
    opts->format = PF_FORMAT_TEXT;
    opts->sys_root = "/sys";
    opts->proc_root = "/proc";
    for (int i = 1; i < argc; i++)
        if (parse_one(argc, argv, &i, opts, err, errlen) != 0)
            return -1;
    if (opts->drain && !opts->health_check)
        return fail(err, errlen, "--%s: drains the node a health check finds failing; give --health-check too%s", "drain",
                    "");
    if (opts->health_check && (opts->output || opts->format != PF_FORMAT_TEXT))
        return fail(err, errlen, "--%s: prints only its failures, on standard error; drop --format json and "
                    "--output%s", "health-check", "");
    return 0;
}

void pf_options_help(FILE *out)
{
    fprintf(out, "Usage: fabperf_preflight [OPTIONS]\n"
                 "Gathers each node's fabric, GPU and kernel facts: a table, a line per finding.\n"
                 "One rank per node: mpirun --map-by node, or srun --ntasks-per-node=1.\n\n");
    for (int o = 0; o < N_OPTIONS; o++) {
        char left[40];
        snprintf(left, sizeof left, "--%s%s%s", options[o].name, options[o].metavar ? " " : "",
                 options[o].metavar ? options[o].metavar : "");
        fprintf(out, "  %-20s", left);
        fp_text_wrapped(out, options[o].help, 2 + ((int)strlen(left) > 20 ? (int)strlen(left) : 20), 23);
    }
    fprintf(out, "\nExit status: 0 no failure (warnings allowed), 1 a check failed or a runtime\n"
                 "error, 2 bad usage.\n");
}

int pf_expand_root(const char *pattern, int rank, const char *host, char *out, size_t len)
{
    return fp_expand_rank_host(pattern, rank, host, out, len);
}
