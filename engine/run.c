/* fp_main: options, set-up, the size sweep and the report, in steps (step_*), with the results
 * file's life (temporary, cut short, renamed) beside them. About 460 lines: the steps read in
 * order here, each under 60 lines. */
#include "config.h" /* PACKAGE_VERSION */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "adaptive.h"
#include "escape.h"
#include "evidence.h"
#include "expect_baseline.h"
#include "family.h"
#include "guard.h"
#include "metric.h"
#include "options.h"
#include "provenance.h"
#include "rollcall.h"
#include "soak.h"
#include "ucx_capture.h"

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
    const fp_osu_defaults_t *osu = &run->bench->metric->defaults;
    const char *whose = run->bench->metric->defaults_whose, *limit = run->bench->family->batch_limit;
    if (p->adaptive)
        snprintf(m->iterations, sizeof m->iterations,
                 "adaptive: a pilot until both sides of the median's 95%% CI are within %g%% (or %g%% of %g s per "
                 "size), then 1.5x its samples afresh, reported (at most %ld samples)",
                 p->ci_target_pct, FP_ADAPTIVE_PILOT_SHARE * 100, p->time_budget_s, p->max_samples);
    else if (p->iterations > 0)
        snprintf(m->iterations, sizeof m->iterations, "fixed: %ld operations per size, rounded up to whole "
                 "samples (timed: samples x batch)", p->iterations);
    else
        snprintf(m->iterations, sizeof m->iterations, "fixed: %ld per size up to 8K, %ld above (%s), rounded up "
                 "to whole samples (timed: samples x batch)", osu->iterations[0], osu->iterations[1], whose);
    if (p->warmup > 0)
        snprintf(m->warmup, sizeof m->warmup, "%ld operations per size", p->warmup);
    else
        snprintf(m->warmup, sizeof m->warmup, "%ld per size up to 8K, %ld above (%s)",
                 osu->warmup[0], osu->warmup[1], whose);
    if (p->batch > 0)
        snprintf(m->batch, sizeof m->batch, "%ld operations per sample", p->batch);
    else
        snprintf(m->batch, sizeof m->batch, "auto: per size, a sample >= 100 timer overheads and clock steps, "
                 "halved from the previous size's only beyond twice that%s%s; batch > 1: no min/p99/max/stddev (batch means)",
                 limit && !p->adaptive ? ", " : "", limit && !p->adaptive ? limit : "");
}

static void meta_fill(fp_run_t *run, const char *program)
{
    const fp_params_t *p = &run->params;
    fp_meta_t *m = &run->meta;
    m->program = program;
    m->benchmark = run->bench->name;
    m->title = run->bench->title;
    m->metric = run->bench->metric;
    snprintf(m->buffers, sizeof m->buffers, "%c %c", p->placement[0], p->placement[1]);
    m->timer = run->timer->name;
    m->timer_overhead_us = run->timer_overhead_s * 1e6;
    m->timer_resolution_us = run->timer_resolution_s * 1e6;
    m->sample = run->bench->sample_text;
    m->window = run->bench->uses & FP_USES_WINDOW ? p->window : 0;
    m->adaptive = p->adaptive;
    m->ci_target_pct = p->ci_target_pct;
    m->time_budget_s = p->time_budget_s;
    m->validate = p->validate;
    m->staging = p->staging;
    m->label = p->label;
    m->verdict_columns = fp_expect_any(&p->expect) || p->line_rate_bps > 0 || p->expect_nic;
    m->evidence_fields = 1; /* the same keys in every result, null where nothing was judged */
    m->soak = p->cycles > 1 || p->soak_s > 0;
    m->soak_cycles = p->cycles;
    m->soak_s = p->soak_s;
    m->layout = p->layout;
    describe_rules(run); /* the family's own header fields were set when it opened */
}

/* Results go to a temporary file renamed into place at the end: never half-written. */
typedef struct output {
    FILE *file;
    int to_stdout; /* file: fp_report_stdout's stream */
    char temp[4096];
} output_t;

static int output_open(output_t *o, const char *path, char *err, size_t errlen)
{
    if (!path) {
        o->file = fp_report_stdout();
        o->to_stdout = 1;
        return FP_OK;
    }
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
    if (o->to_stdout) {
        int failed = fflush(o->file) != 0 || ferror(o->file);
        if (o->file != stdout)
            failed |= fclose(o->file) != 0;
        return failed ? fp_fail("writing standard output failed: %s", strerror(errno)) : FP_OK;
    }
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
    char status[1600];
    snprintf(status, sizeof status, "cut short: %s", why);
    flockfile(cut.report->out); /* kept: nothing is written after the end record */
    fp_report_end(cut.report, status, cut.failures);
    fflush(cut.report->out);
    if (cut.path && !cut.out->to_stdout)
        rename(cut.out->temp, cut.path);
}

static double monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The family's measurement, with NIC counters read before and after it (outside its timed region). */
static int measure_with_evidence(fp_run_t *run, size_t size, fp_row_t *row, fp_evidence_t *ev)
{
    memset(ev, 0, sizeof *ev);
    run->operations = 0;
    if (run->path)
        FP_CHECK(fp_path_before(run->path, run));
    FP_CHECK(run->bench->family->measure(run, size, row));
    if (run->path)
        FP_CHECK(fp_path_after(run->path, run, row, ev));
    return FP_OK;
}

/* Rank 0: the verdicts of one size; a failed one is also said on standard error, once. */
static void judge_size(fp_run_t *run, fp_row_t *row, fp_evidence_t *ev)
{
    fp_verdict_row(run, row, ev);
    fp_verdict_line(run, row, ev, ev->verdict_line, sizeof ev->verdict_line);
    row->evidence = ev;
    run->last_verdict = (int)ev->verdict;
    run->last_verdict_size = row->size;
    run->expect_judged += ev->judgement.verdict != FP_VERDICT_NONE || ev->nic_verdict != FP_VERDICT_NONE ||
                          ev->wire_judgement.verdict != FP_VERDICT_NONE;
    if (ev->link.errors > 0) /* the size ran on a link that lost or corrupted data */
        fprintf(stderr, "%s: link errors during size %zu: %s; its figures may be disturbed\n", run->meta.program,
                row->size, ev->link.line);
    if (ev->verdict == FP_VERDICT_INCONCLUSIVE && run->expect_inconclusive++ == 0)
        snprintf(run->first_inconclusive, sizeof run->first_inconclusive, "%.500s",
                 ev->judgement.verdict == FP_VERDICT_INCONCLUSIVE        ? ev->verdict_line
                 : ev->wire_judgement.verdict == FP_VERDICT_INCONCLUSIVE ? ev->wire_verdict_line
                                                                         : ev->nic_why);
    if (ev->verdict != FP_VERDICT_FAIL)
        return;
    run->expect_failures++;
    if (ev->judgement.verdict == FP_VERDICT_FAIL)
        fprintf(stderr, "%s: expectation failed: %s\n", run->meta.program, ev->verdict_line);
    if (ev->wire_judgement.verdict == FP_VERDICT_FAIL)
        fprintf(stderr, "%s: expectation failed: %s\n", run->meta.program, ev->wire_verdict_line);
    if (ev->nic_verdict == FP_VERDICT_FAIL)
        fprintf(stderr, "%s: --expect-nic failed: %s\n", run->meta.program, ev->nic_why);
}

/* One size: its plan and watchdog limit, the samples, the validation round and the row. Per-size
 * work outside the measurement (evidence read before and after, verdicts on the row) belongs
 * here, around fp_family_t.measure, never inside it. */
static int sweep_size(fp_run_t *run, fp_report_t *report, size_t size, uint32_t round, int *failures)
{
    fp_row_t row;
    fp_evidence_t ev;
    run->plan = fp_plan_for(run->bench, &run->params, size);
    fp_guard_arm(size, run->plan.timeout_s, "--timeout");
    FP_CHECK(measure_with_evidence(run, size, &row, &ev));
    if (run->params.validate) {
        const fp_family_t *family = run->bench->family;
        FP_CHECK(family->validate(run, size, round, &row));
        *failures += !row.check;
    }
    if (run->ctx.rank == 0) {
        if (run->meta.evidence_fields)
            judge_size(run, &row, &ev);
        if (run->soak) {
            row.cycle = run->cycle;
            row.t_s = monotonic_s() - run->soak_t0;
            const char *link_errors = ev.link.errors > 0 ? ev.link.line : "";
            FP_CHECK(fp_soak_add(run->soak, run->cycle, size, row.headline.p50, row.t_s, link_errors));
            if (run->bench->family->soak_series)
                FP_CHECK(run->bench->family->soak_series(run, size, run->soak, row.t_s, link_errors));
        }
        flockfile(report->out); /* a cut-short end never lands inside a row */
        fp_report_row(report, &row);
        cut.failures = *failures;
        funlockfile(report->out);
    }
    return FP_OK;
}

/* The sweep; returns the number of sizes that failed validation, or FP_ERR. */
static int sweep(fp_run_t *run, fp_report_t *report, size_t *failed_size)
{
    const fp_params_t *p = &run->params;
    int failures = 0;
    uint32_t round = 0;
    size_t last = 0;
    for (size_t next = p->min_size; next <= p->max_size; next = next_size(p, next)) {
        size_t size = run->bench->family->round(run, next);
        if (size == 0 || size == last)
            continue;
        last = size;
        *failed_size = size;
        FP_CHECK(sweep_size(run, report, size, p->validate ? ++round : 0, &failures));
    }
    fp_guard_disarm();
    return failures;
}

/* --cycles, --soak: the sweep again until either says stop (rank 0 decides, every rank follows),
 * then each size's series searched for a step. Without them, one sweep. */
static int soak(fp_run_t *run, fp_report_t *report, size_t *failed_size)
{
    const fp_params_t *p = &run->params;
    if (!run->meta.soak)
        return sweep(run, report, failed_size);
    int failures = 0, rank = run->ctx.rank;
    if (rank == 0 && !(run->soak = fp_soak_new()))
        return FP_ERR;
    run->soak_t0 = monotonic_s();
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    double started = (double)wall.tv_sec + 1e-9 * (double)wall.tv_nsec;
    for (run->cycle = 1;; run->cycle++) {
        if (rank == 0 && report->format == FP_FORMAT_TEXT) {
            flockfile(report->out);
            fprintf(report->out, "# cycle %ld: +%.1f s\n", run->cycle, monotonic_s() - run->soak_t0);
            funlockfile(report->out);
        }
        int failed = sweep(run, report, failed_size);
        if (failed < 0)
            return failed;
        failures += failed;
        double elapsed = monotonic_s() - run->soak_t0;
        int more = (p->cycles == 0 || run->cycle < p->cycles) && (p->soak_s <= 0 || elapsed < p->soak_s);
        FP_MPI_CHECK(MPI_Bcast(&more, 1, MPI_INT, 0, run->ctx.comm));
        if (!more)
            break;
    }
    if (rank == 0) {
        const fp_bench_t *b = run->bench;
        const char *quantity = b->metric->quantity == FP_QTY_LATENCY ? "latency" : b->coll ? "busbw" : "bandwidth";
        fp_soak_summary_t summary;
        flockfile(report->out);
        fp_soak_judge(run->soak, report->out, report->format, run->meta.program, quantity, b->metric->unit,
                      b->metric->quantity != FP_QTY_LATENCY, started, monotonic_s() - run->soak_t0, &summary);
        fflush(report->out);
        funlockfile(report->out);
        run->soak_steps = summary.steps;
        run->soak_undecided = !summary.tested;
    }
    return failures;
}

/* The steps of fp_main; each returns FP_OK to go on, or the exit code in *code. */

/* The command line is the same on every rank: judge it before MPI starts (fp_early_exit). */
static int step_options(fp_run_t *run, int argc, char **argv, int *code)
{
    char err[1024] = "";
    int early = fp_options_parse(run->bench, argc, argv, &run->params, err, sizeof err);
    if (early == FP_OK && !run->params.help && !run->params.version)
        early = fp_early_check(run->bench, err, sizeof err);
    if (early == FP_OK && !run->params.help && !run->params.version)
        return FP_OK;
    *code = fp_early_exit(run->bench, &run->params, early, err);
    return FP_ERR;
}

/* MPI start-up under its own watchdog limit (--startup-timeout), then the job's shape. */
static int step_mpi(fp_run_t *run, const char *program, int *argc, char ***argv, int *code)
{
    char err[256];
    if (fp_guard_start(program) != FP_OK)
        fprintf(stderr, "%s: no watchdog: %s\n", program, fp_error_message());
    fp_guard_phase("MPI start-up and set-up", 0);
    fp_guard_arm(0, fp_plan_startup_timeout(&run->params, fp_env_size()), "--startup-timeout");
    fp_ucx_capture_start(run->params.path_evidence);
    MPI_Init(argc, argv);
    fp_ucx_capture_started(); /* before the environment is recorded */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    run->ctx.comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &run->ctx.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run->ctx.nranks);
    fp_guard_mpi_ready(run->ctx.rank);
    if (run->bench->ranks && run->ctx.nranks != run->bench->ranks) {
        snprintf(err, sizeof err, "needs exactly %d ranks, got %d (accepted: mpirun -np %d)",
                 run->bench->ranks, run->ctx.nranks, run->bench->ranks);
        *code = usage_exit(run->bench, run->ctx.rank, err);
        return FP_ERR;
    }
    if (fp_meta_collect(&run->meta, run->ctx.comm) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, run->ctx.rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    fp_rollcall_setup(MPI_COMM_WORLD); /* a timeout can then name the ranks that never arrived */
    return FP_OK;
}

static void release(fp_run_t *run)
{
    fp_path_close(run->path);
    run->path = NULL;
    fp_soak_free(run->soak);
    run->soak = NULL;
    fp_run_teardown(run);
    fp_meta_release(&run->meta);
    fp_expect_release(&run->params.expect);
}

/* Buffers, libraries and the results file; bad usage and runtime failures end every rank. */
static int step_setup(fp_run_t *run, const char *program, output_t *out, int *code)
{
    char err[1024] = "";
    fp_setup_status_t setup = fp_run_setup(run, err, sizeof err);
    int rank = run->ctx.rank;
    if (setup == FP_SETUP_RUNTIME) {
        if (rank == 0)
            fprintf(stderr, "%s: %s\n", program, err);
        release(run);
        MPI_Finalize();
        *code = FP_EXIT_FAIL;
        return FP_ERR;
    }
    int rc = setup == FP_SETUP_USAGE ? FP_ERR : FP_OK;
    if (rc == FP_OK) {
        rc = rank == 0 ? output_open(out, run->params.output, err, sizeof err) : FP_OK;
        rc = fp_agree(run->ctx.comm, rc, err, sizeof err);
    }
    if (rc != FP_OK) {
        release(run);
        *code = usage_exit(run->bench, rank, err);
    }
    return rc;
}

/* Bad usage found once the sizes are known: nothing was written, so no results file; every rank
 * exits 2. */
static int refuse_sizes(fp_run_t *run, output_t *out, const char *err, int *code)
{
    if (out->file && out->file != stdout)
        fclose(out->file);
    if (out->file && !out->to_stdout)
        remove(out->temp);
    release(run);
    *code = usage_exit(run->bench, run->ctx.rank, err);
    return FP_ERR;
}

/* An --expect term none of the measured sizes falls in would judge nothing and pass unseen: bad
 * usage. The sizes are the rows' (after the family's rounding), the same on every rank. */
static int check_expect_sizes(fp_run_t *run, output_t *out, int *code)
{
    const fp_params_t *p = &run->params;
    const fp_family_t *family = run->bench->family;
    unsigned matched = 0;
    int baseline_matched = 0;
    size_t first = 0, last = 0, count = 0;
    for (size_t next = p->min_size; next <= p->max_size; next = next_size(p, next)) {
        size_t size = family->round(run, next);
        if (size == 0 || size == last)
            continue;
        if (count++ == 0)
            first = size;
        last = size;
        matched |= fp_expect_applies(&p->expect, size);
        baseline_matched |= fp_expect_baseline_applies(&p->expect, size);
    }
    if (p->expect.nfrom_baseline && !baseline_matched) {
        char err[2048];
        snprintf(err, sizeof err, "--expect baseline=%s: none of the %zu size(s) this run measures (%zu to %zu B) has "
                 "an entry there (accepted: -m/--message-size holding the baseline's sizes; it has %zu to %zu B)",
                 p->expect.baseline_path, count, first, last, p->expect.from_baseline[0].min_size,
                 p->expect.from_baseline[p->expect.nfrom_baseline - 1].min_size);
        return refuse_sizes(run, out, err, code);
    }
    for (int i = 0; i < p->expect.count; i++) {
        if (matched & (1u << i))
            continue;
        char err[512];
        snprintf(err, sizeof err, "--expect: '%s' matches none of the %zu size(s) this run measures (%zu to %zu B; "
                 "accepted: @SIZES holding one of them, or a wider -m/--message-size)", p->expect.terms[i].text, count,
                 first, last);
        return refuse_sizes(run, out, err, code);
    }
    return FP_OK;
}

/* --expect baseline=FILE: every rank reads it and picks this run's entry (program, --label,
 * buffers, ranks and hosts); a failure anywhere is bad usage everywhere, said once. */
static int step_baseline(fp_run_t *run, const char *program, output_t *out, int *code)
{
    fp_params_t *p = &run->params;
    if (!p->expect.baseline_path[0])
        return FP_OK;
    int nhosts = run->meta.nhosts; /* counted on rank 0 only */
    MPI_Bcast(&nhosts, 1, MPI_INT, 0, run->ctx.comm);
    char buffers[8], placement[96], err[2048] = "";
    snprintf(buffers, sizeof buffers, "%c %c", p->placement[0], p->placement[1]);
    fp_baseline_placement(placement, sizeof placement, buffers, run->ctx.nranks, nhosts);
    const fp_baseline_run_t who = {program, p->label, placement, run->bench->metric->unit,
                                   run->bench->metric->quantity, run->meta.mpi_library, PACKAGE_VERSION};
    int rc = fp_expect_baseline_load(&p->expect, &who, err, sizeof err);
    if (fp_agree(run->ctx.comm, rc, err, sizeof err) != FP_OK)
        return refuse_sizes(run, out, err, code);
    run->meta.baseline = p->expect.baseline_note;
    return FP_OK;
}

/* A range whose every size rounds down to 0 B would print no row: bad usage, not an empty
 * success. The same verdict on every rank (rounding depends only on the job's shape). */
static int step_sizes(fp_run_t *run, output_t *out, int *code)
{
    const fp_params_t *p = &run->params;
    const fp_family_t *family = run->bench->family;
    for (size_t next = p->min_size; next <= p->max_size; next = next_size(p, next))
        if (family->round(run, next) > 0)
            return check_expect_sizes(run, out, code);
    size_t smallest = p->max_size;
    while (family->round(run, smallest) == 0 && smallest < ((size_t)1 << 40))
        smallest *= 2;
    char err[256], unit[96] = "";
    if (family->round_unit)
        snprintf(unit, sizeof unit, " (%s)", family->round_unit);
    snprintf(err, sizeof err, "-m/--message-size: every size from %zu to %zu B rounds down to 0 B here%s; the "
             "smallest size this run measures is %zu B", p->min_size, p->max_size, unit, family->round(run, smallest));
    return refuse_sizes(run, out, err, code);
}

/* What UCX has selected so far (every rank reads: each copies its UCX warnings); *seen counts it. */
static const fp_ucx_selection_t *ucx_selection(int *seen)
{
    const fp_ucx_selection_t *s = fp_ucx_capture_read();
    *seen = s ? s->nendpoints + s->nprotocols : 0;
    return s;
}

/* The header, and how rank 0 closes its results if the run is cut short. */
static void step_begin(fp_run_t *run, const char *program, output_t *out, fp_report_t *report)
{
    meta_fill(run, program);
    if (fp_placement_start(&run->meta.placement, run->ctx.comm) != FP_OK ||
        fp_path_open(run, &run->path) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, run->ctx.rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    run->meta.ucx = ucx_selection(&run->ucx_seen);
    if (run->ctx.rank != 0)
        return;
    fp_report_begin(report, out->file, (fp_format_t)run->params.format, &run->meta);
    run->report = report;
    cut.out = out;
    cut.report = report;
    cut.path = run->params.output;
    fp_guard_on_cut(cut_short);
}

/* Rank 0: an inconclusive --expect is said once on standard error, and takes its own exit status
 * unless something failed or --inconclusive says otherwise: a script must tell it from a pass. */
static int inconclusive_exit(fp_run_t *run, int code)
{
    static const int codes[] = {[FP_INCONCLUSIVE_STATUS] = FP_EXIT_INCONCLUSIVE,
                                [FP_INCONCLUSIVE_FAIL] = FP_EXIT_EXPECT, [FP_INCONCLUSIVE_PASS] = FP_EXIT_OK};
    static const char *const policies[] = {"status", "fail", "pass"};
    int policy = run->params.inconclusive;
    if (code == FP_EXIT_OK)
        code = codes[policy];
    fprintf(stderr, "%s: expectation inconclusive at %d of %d judged size(s), exit %d (--inconclusive %s); first: %s\n",
            run->meta.program, run->expect_inconclusive, run->expect_judged, code, policies[policy],
            run->first_inconclusive);
    return code;
}

/* After the sweep: a failure aborts the job (other ranks may be blocked in the operation), else
 * rank 0 closes its results and every rank learns the exit code. */
static int step_end(fp_run_t *run, const char *program, output_t *out, fp_report_t *report, int failures,
                    size_t size)
{
    int rank = run->ctx.rank;
    if (failures < 0) {
        char err[1024];
        fprintf(stderr, "%s: rank %d, size %zu: %s\n", program, rank, size, fp_error_message());
        fflush(stderr);
        snprintf(err, sizeof err, "rank %d failed at size %zu: %s", rank, size, fp_error_message());
        fp_guard_cut(err);
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    fp_guard_finish();
    int seen = run->ucx_seen;
    const fp_ucx_selection_t *ucx = ucx_selection(&seen);
    run->meta.ucx_end = seen > run->ucx_seen ? ucx : NULL; /* configured during the sweep */
    if (fp_placement_end(&run->meta.placement, run->ctx.comm) != FP_OK) {
        fprintf(stderr, "%s: rank %d: %s\n", program, rank, fp_error_message());
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    }
    if (rank == 0) {
        fp_report_end(report, "complete", failures);
        if (output_close(out, run->params.output) != FP_OK) {
            fprintf(stderr, "%s: %s\n", program, fp_error_message());
            failures = failures ? failures : 1;
        }
    }
    int code = failures ? FP_EXIT_FAIL : run->expect_failures || run->soak_steps ? FP_EXIT_EXPECT : FP_EXIT_OK;
    if (rank == 0 && run->expect_inconclusive)
        code = inconclusive_exit(run, code);
    if (rank == 0 && code == FP_EXIT_OK && run->soak_undecided)
        code = FP_EXIT_INCONCLUSIVE; /* a step could not have shown: said in the soak line */
    MPI_Bcast(&code, 1, MPI_INT, 0, run->ctx.comm);
    release(run);
    fp_guard_finalize(code, fp_plan_finalize_timeout(&run->params));
    MPI_Finalize();
    return code;
}

/* --sysfs-root, expanded for each rank: a directory on every rank, or bad usage naming the first
 * rank where it is not (its path sent to rank 0, so that the one line says it). */
static int step_sysfs_root(fp_run_t *run, output_t *out, int *code)
{
    const char *pattern = run->params.sysfs_root;
    if (!pattern)
        return FP_OK;
    char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len, bad = 0, first;
    struct stat st;
    MPI_Get_processor_name(host, &len);
    if (fp_expand_rank_host(pattern, run->ctx.rank, host, run->sys_root, sizeof run->sys_root) != 0)
        bad = 1;
    else
        bad = stat(run->sys_root, &st) != 0 || !S_ISDIR(st.st_mode);
    int mine = bad ? run->ctx.rank : run->ctx.nranks;
    FP_MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, run->ctx.comm));
    if (first == run->ctx.nranks)
        return FP_OK;
    char path[sizeof run->sys_root];
    snprintf(path, sizeof path, "%s", run->sys_root);
    FP_MPI_CHECK(MPI_Bcast(path, (int)sizeof path, MPI_CHAR, first, run->ctx.comm));
    char err[768];
    snprintf(err, sizeof err, "--sysfs-root: '%.300s' (rank %d) is not a directory (accepted: a directory; %%r rank, "
             "%%h host)", path, first);
    return refuse_sizes(run, out, err, code);
}

int fp_main(const fp_bench_t *bench, int argc, char **argv)
{
    fp_run_t run;
    output_t out = {0};
    fp_report_t report;
    char program[64];
    int code = FP_EXIT_OK;
    memset(&run, 0, sizeof run);
    run.bench = bench;
    snprintf(program, sizeof program, "fabperf_%s", bench->name);
    if (step_options(&run, argc, argv, &code) != FP_OK || step_mpi(&run, program, &argc, &argv, &code) != FP_OK ||
        step_setup(&run, program, &out, &code) != FP_OK || step_baseline(&run, program, &out, &code) != FP_OK ||
        step_sizes(&run, &out, &code) != FP_OK || step_sysfs_root(&run, &out, &code) != FP_OK)
        return code;
    step_begin(&run, program, &out, &report);
    size_t size = 0;
    int failures = soak(&run, &report, &size);
    if (failures >= 0 && size && bench->family->after_sweep) {
        fp_guard_arm(size, run.plan.timeout_s, "--timeout");
        if (bench->family->after_sweep(&run, size) != FP_OK)
            failures = FP_ERR;
        fp_guard_disarm();
    }
    return step_end(&run, program, &out, &report, failures, size);
}
