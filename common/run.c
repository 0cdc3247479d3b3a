/* fp_main: options, set-up, the size sweep and the report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collective.h"
#include "guard.h"
#include "options.h"
#include "provenance.h"
#include "run.h"

/* Bad input: one line from rank 0, exit code 2 everywhere, no abort. */
static int usage_exit(const fp_bench_t *bench, int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "fabperf_%s: %s\n", bench->name, msg);
    MPI_Finalize();
    return FP_EXIT_USAGE;
}

static void describe_rules(fp_run_t *run)
{
    const fp_params_t *p = &run->params;
    fp_meta_t *m = &run->meta;
    const fp_bench_t *b = run->bench;
    if (p->adaptive)
        snprintf(m->iterations, sizeof m->iterations,
                 "adaptive: until the median's 95%% CI half-width is <= %g%% or %g s per size (at most %ld samples)",
                 p->ci_target_pct, p->time_budget_s, p->max_samples);
    else if (p->iterations > 0)
        snprintf(m->iterations, sizeof m->iterations, "fixed: %ld operations per size", p->iterations);
    else
        snprintf(m->iterations, sizeof m->iterations, "fixed: %ld per size up to 8K, %ld above (OSU's)",
                 fp_default_iterations(b, 1), fp_default_iterations(b, 1 << 20));
    if (p->warmup > 0)
        snprintf(m->warmup, sizeof m->warmup, "%ld operations per size", p->warmup);
    else
        snprintf(m->warmup, sizeof m->warmup, "%ld per size up to 8K, %ld above (OSU's)",
                 fp_default_warmup(b, 1), fp_default_warmup(b, 1 << 20));
    if (p->batch > 0)
        snprintf(m->batch, sizeof m->batch, "%ld operations per sample", p->batch);
    else
        snprintf(m->batch, sizeof m->batch, "auto: per size, so that a sample lasts >= 100 timer overheads");
}

static void meta_fill(fp_run_t *run, const char *program)
{
    const fp_params_t *p = &run->params;
    fp_meta_t *m = &run->meta;
    m->program = program;
    m->benchmark = run->bench->name;
    m->title = run->bench->title;
    m->report = run->bench->report;
    snprintf(m->buffers, sizeof m->buffers, "%c %c", p->placement[0], p->placement[1]);
    m->timer = run->timer->name;
    m->timer_overhead_us = run->timer_overhead_s * 1e6;
    m->sample = run->bench->sample_text;
    m->window = run->bench->uses & FP_USES_WINDOW ? p->window : 0;
    m->adaptive = p->adaptive;
    m->ci_target_pct = p->ci_target_pct;
    m->time_budget_s = p->time_budget_s;
    m->validate = p->validate;
    m->staging = p->staging;
    m->label = p->label;
    if (run->bench->coll) {
        m->datatype = fp_types[p->datatype].name;
        m->op = run->bench->uses & FP_USES_OP ? fp_op_names[p->op] : "none";
        m->root = run->bench->uses & FP_USES_ROOT ? (int)p->root : -1;
        m->busbw_formula = fp_busbw_formula(run->bench->coll->busbw);
        m->busbw_factor = fp_busbw_factor(run->bench->coll->busbw, run->ctx.nranks);
    }
    describe_rules(run);
}

/* Results go to a temporary file renamed into place at the end: never half-written. */
typedef struct output {
    FILE *file;
    char temp[4096];
} output_t;

static int output_open(output_t *o, const char *path, char *err, size_t errlen)
{
    o->file = stdout;
    if (!path)
        return FP_OK;
    snprintf(o->temp, sizeof o->temp, "%s.tmp.%ld", path, (long)getpid());
    o->file = fopen(o->temp, "w");
    if (!o->file) {
        snprintf(err, errlen, "--output: cannot create '%.900s': %s", o->temp, strerror(errno));
        return FP_ERR;
    }
    return FP_OK;
}

static int output_close(output_t *o, const char *path)
{
    if (o->file == stdout)
        return fflush(stdout) == 0 ? FP_OK : fp_fail("writing standard output failed: %s", strerror(errno));
    int rc = ferror(o->file);
    if (fclose(o->file) != 0 || rc)
        return fp_fail("writing '%s' failed: %s", o->temp, strerror(errno));
    if (rename(o->temp, path) != 0)
        return fp_fail("rename('%s', '%s') failed: %s", o->temp, path, strerror(errno));
    return FP_OK;
}

static size_t next_size(const fp_params_t *p, size_t size)
{
    size_t next = p->step_bytes ? size + p->step_bytes : (size_t)((double)size * p->step_factor);
    return next > size ? next : size + 1;
}

static double size_timeout(const fp_run_t *run, size_t size)
{
    const fp_params_t *p = &run->params;
    if (p->timeout_s > 0)
        return (double)p->timeout_s;
    long warmup = p->warmup > 0 ? p->warmup : fp_default_warmup(run->bench, size);
    long iterations = p->iterations > 0 ? p->iterations : fp_default_iterations(run->bench, size);
    return fp_guard_default_timeout(run->bench, p, size, warmup, iterations);
}

/* Rank 0's results when the run is cut short (watchdog, stop signal, runtime error): the rows so
 * far, an end record that says why, and the rename, so that --output is complete and honest. */
static struct {
    output_t *out;
    fp_report_t *report;
    const char *path;
    int failures;
} cut;

static void cut_short(const char *why)
{
    char status[768];
    snprintf(status, sizeof status, "cut short: %s", why);
    flockfile(cut.report->out); /* kept: nothing is written after the end record */
    fp_report_end(cut.report, status, cut.failures);
    fflush(cut.report->out);
    if (cut.path && cut.out->file != stdout)
        rename(cut.out->temp, cut.path);
}

/* The sweep; returns the number of sizes that failed validation, or FP_ERR. */
static int sweep(fp_run_t *run, fp_report_t *report, size_t *failed_size)
{
    const fp_params_t *p = &run->params;
    int failures = 0;
    uint32_t round = 0;
    size_t last = 0;
    for (size_t next = p->min_size; next <= p->max_size; next = next_size(p, next)) {
        fp_row_t row;
        /* Collectives move whole elements (and blocks per rank): sizes round down to them. */
        size_t size = run->bench->coll ? fp_coll_bytes(run, next) : next;
        if (size == 0 || size == last)
            continue;
        last = size;
        *failed_size = size;
        fp_guard_arm(size, size_timeout(run, size));
        FP_CHECK(fp_measure_size(run, size, &row));
        if (p->validate) {
            FP_CHECK(fp_validate_size(run, size, ++round, &row));
            failures += !row.check;
        }
        if (run->ctx.rank == 0) {
            flockfile(report->out); /* a cut-short end never lands inside a row */
            fp_report_row(report, &row);
            cut.failures = failures;
            funlockfile(report->out);
        }
    }
    fp_guard_disarm();
    return failures;
}

int fp_main(const fp_bench_t *bench, int argc, char **argv)
{
    fp_run_t run;
    char err[1024] = "";
    char program[64];
    memset(&run, 0, sizeof run);
    run.bench = bench;
    snprintf(program, sizeof program, "fabperf_%s", bench->name);

    /* The command line is the same on every rank: judge it before MPI starts (fp_early_exit). */
    int early = fp_options_parse(bench, argc, argv, &run.params, err, sizeof err);
    if (early == FP_OK && !run.params.help && !run.params.version)
        early = fp_early_check(bench, err, sizeof err);
    if (early != FP_OK || run.params.help || run.params.version)
        return fp_early_exit(bench, &run.params, early, err);
    if (fp_guard_start(program) != FP_OK)
        fprintf(stderr, "%s: no watchdog: %s\n", program, fp_error_message());
    fp_guard_phase("MPI start-up and set-up", 0);
    fp_guard_arm(0, run.params.timeout_s > 0 ? (double)run.params.timeout_s : FP_SETUP_TIMEOUT_S);

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    run.ctx.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &run.ctx.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run.ctx.nranks);
    int rank = run.ctx.rank;
    fp_guard_mpi_ready(rank);
    if (bench->ranks && run.ctx.nranks != bench->ranks) {
        snprintf(err, sizeof err, "needs exactly %d ranks, got %d (accepted: mpirun -np %d)",
                 bench->ranks, run.ctx.nranks, bench->ranks);
        return usage_exit(bench, rank, err);
    }
    if (fp_meta_collect(&run.meta, run.ctx.comm) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    fp_setup_status_t setup = fp_run_setup(&run, err, sizeof err);
    if (setup == FP_SETUP_USAGE) {
        fp_run_teardown(&run);
        fp_meta_release(&run.meta);
        return usage_exit(bench, rank, err);
    }
    if (setup == FP_SETUP_RUNTIME) {
        if (rank == 0)
            fprintf(stderr, "%s: %s\n", program, err);
        fp_run_teardown(&run);
        fp_meta_release(&run.meta);
        MPI_Finalize();
        return FP_EXIT_FAIL;
    }

    output_t out = {0};
    int rc = rank == 0 ? output_open(&out, run.params.output, err, sizeof err) : FP_OK;
    if (fp_agree(run.ctx.comm, rc, err, sizeof err) != FP_OK) {
        fp_run_teardown(&run);
        fp_meta_release(&run.meta);
        return usage_exit(bench, rank, err);
    }
    fp_report_t report;
    meta_fill(&run, program);
    if (fp_placement_start(&run.meta.placement, run.ctx.comm) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    if (rank == 0) {
        fp_report_begin(&report, out.file, (fp_format_t)run.params.format, &run.meta);
        cut.out = &out;
        cut.report = &report;
        cut.path = run.params.output;
        fp_guard_on_cut(cut_short);
    }

    size_t size = 0;
    int failures = sweep(&run, &report, &size);
    if (failures < 0) {
        /* Other ranks may be blocked in the operation: only an abort ends the job. */
        fprintf(stderr, "%s: rank %d, size %zu: %s\n", program, rank, size, fp_error_message());
        fflush(stderr);
        snprintf(err, sizeof err, "rank %d failed at size %zu: %s", rank, size, fp_error_message());
        fp_guard_cut(err);
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    fp_guard_finish();
    if (fp_placement_end(&run.meta.placement, run.ctx.comm) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    if (rank == 0) {
        fp_report_end(&report, "complete", failures);
        if (output_close(&out, run.params.output) != FP_OK) {
            fprintf(stderr, "%s: %s\n", program, fp_error_message());
            failures = failures ? failures : 1;
        }
    }
    MPI_Bcast(&failures, 1, MPI_INT, 0, run.ctx.comm);
    fp_run_teardown(&run);
    fp_meta_release(&run.meta);
    MPI_Finalize();
    return failures ? FP_EXIT_FAIL : FP_EXIT_OK;
}
