#include "config.h" /* PACKAGE_VERSION */
#include "guard.h"

#include <errno.h>
#include <stdlib.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "rollcall.h"

#define FP_GUARD_MIN_WAIT_MS 10 /* shortest sleep of the watchdog */
#define FP_GUARD_GRACE_S 1          /* after expiry, let the other ranks print their line */

fp_progress_t fp_progress;

static const char *guard_program = "fabperf";
static atomic_int guard_rank = -1;
static atomic_int guard_mpi;                /* MPI_Init done: abort through MPI */
static atomic_llong guard_deadline_ms;      /* 0: disarmed */
static atomic_long guard_seconds;
static _Atomic(const char *) guard_option = "--timeout"; /* the option that set the limit */
static pthread_mutex_t guard_cut_lock = PTHREAD_MUTEX_INITIALIZER;
static void (*guard_cut_fn)(const char *why);
static int guard_state; /* 0 running, 1 cut short, 2 finishing normally; under guard_cut_lock */
static atomic_int guard_finalizing; /* 0, else the run's exit status + 1: the deadline is MPI_Finalize's */
static sigset_t guard_signals;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "size 4096 B, sample 12 of 100" */
static void where_text(char *out, size_t len)
{
    const char *phase = atomic_load(&fp_progress.phase);
    long step = atomic_load(&fp_progress.step), steps = atomic_load(&fp_progress.steps);
    size_t size = atomic_load(&fp_progress.size);
    int used = snprintf(out, len, "size %zu B", size);
    if (used < 0 || (size_t)used >= len || !phase)
        return;
    if (step > 0 && steps > 0)
        snprintf(out + used, len - (size_t)used, ", %s %ld of %ld", phase, step, steps);
    else if (step > 0)
        snprintf(out + used, len - (size_t)used, ", %s %ld", phase, step);
    else
        snprintf(out + used, len - (size_t)used, ", %s", phase);
}

/* One line on stderr with write(): no stdio lock the stuck thread could hold. */
static void say(const char *what)
{
    char line[1280];
    int rank = atomic_load(&guard_rank);
    int n = rank >= 0 ? snprintf(line, sizeof line, "%s: rank %d: %s\n", guard_program, rank, what)
                      : snprintf(line, sizeof line, "%s: %s\n", guard_program, what);
    if (n > 0) {
        size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
        ssize_t rc = write(STDERR_FILENO, line, len);
        (void)rc;
    }
}

static void expired(void)
{
    char where[160], what[512], why[1536];
    where_text(where, sizeof where);
    long seconds = atomic_load(&guard_seconds);
    int finalizing = atomic_load(&guard_finalizing);
    if (finalizing) { /* the results are out: neither a cut nor an abort, which could hang too */
        snprintf(what, sizeof what, "MPI_Finalize did not return within %ld s (%s); the results are complete: "
                                    "exiting with status %d", seconds, atomic_load(&guard_option), finalizing - 1);
        say(what);
        _exit(finalizing - 1);
    }
    snprintf(what, sizeof what, "timed out: %s did not complete within %ld s (%s); ending the job", where,
             seconds, atomic_load(&guard_option));
    say(what);
    /* Which ranks never arrived: rank 0 hears the others out, they wait for its verdict. */
    char roll[1024] = "";
    int rank = atomic_load(&guard_rank);
    if (atomic_load(&guard_mpi) && rank == 0)
        fp_rollcall_collect(&fp_progress.entered, where, roll, sizeof roll);
    else if (atomic_load(&guard_mpi))
        fp_rollcall_answer(&fp_progress.entered, where);
    if (roll[0])
        say(roll);
    snprintf(why, sizeof why, "timed out after %ld s at %s%s%s", seconds, where, roll[0] ? "; " : "", roll);
    fp_guard_cut(why);
    sleep(rank > 0 ? FP_GUARD_GRACE_S + FP_ROLLCALL_WAIT_S + 1 : FP_GUARD_GRACE_S);
    if (atomic_load(&guard_mpi))
        MPI_Abort(MPI_COMM_WORLD, FP_EXIT_FAIL);
    _exit(FP_EXIT_FAIL);
}

static void stopped(int sig)
{
    char where[256], why[512];
    where_text(where, sizeof where);
    snprintf(why, sizeof why, "stopped by signal %d (%s) at %s: the job was stopped or a peer failed", sig,
             strsignal(sig), where);
    fp_guard_cut(why);
    /* Die of the signal, as without the guard. */
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void *watch(void *arg)
{
    (void)arg;
    for (;;) {
        /* Sleep until the deadline, at most a second (a re-armed deadline is seen within it):
         * the fewer wake-ups, the less this thread takes from a rank that spins on a core. */
        long long deadline = atomic_load(&guard_deadline_ms), left = 1000;
        if (deadline)
            left = deadline - now_ms();
        if (left > 1000)
            left = 1000;
        if (left < FP_GUARD_MIN_WAIT_MS)
            left = FP_GUARD_MIN_WAIT_MS;
        struct timespec wait = {left / 1000, (left % 1000) * 1000000L};
        int sig = sigtimedwait(&guard_signals, NULL, &wait);
        if (sig > 0)
            stopped(sig);
        deadline = atomic_load(&guard_deadline_ms);
        if (deadline && now_ms() >= deadline)
            expired();
    }
    return NULL;
}

int fp_guard_start(const char *program)
{
    pthread_t thread;
    pthread_attr_t attr;
    guard_program = program;
    sigemptyset(&guard_signals);
    sigaddset(&guard_signals, SIGTERM);
    sigaddset(&guard_signals, SIGINT);
    sigaddset(&guard_signals, SIGHUP);
    /* Threads inherit the mask: MPI's own threads, started later, leave these signals to us. */
    if (pthread_sigmask(SIG_BLOCK, &guard_signals, NULL) != 0)
        return fp_fail("pthread_sigmask failed");
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&thread, &attr, watch, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_sigmask(SIG_UNBLOCK, &guard_signals, NULL);
        return fp_fail("pthread_create(watchdog) failed: %s", strerror(rc));
    }
    return FP_OK;
}

void fp_guard_mpi_ready(int rank)
{
    atomic_store(&guard_rank, rank);
    atomic_store(&guard_mpi, 1);
}

void fp_guard_arm(size_t bytes, double seconds, const char *option)
{
    atomic_store(&guard_option, option);
    atomic_store(&fp_progress.size, bytes);
    atomic_store(&guard_seconds, (long)(seconds + 0.5));
    atomic_store(&guard_deadline_ms, now_ms() + (long long)(seconds * 1000.0));
}

void fp_guard_disarm(void)
{
    atomic_store(&guard_deadline_ms, 0);
}

void fp_guard_on_cut(void (*cut)(const char *why))
{
    pthread_mutex_lock(&guard_cut_lock);
    guard_cut_fn = cut;
    pthread_mutex_unlock(&guard_cut_lock);
}

void fp_guard_cut(const char *why)
{
    pthread_mutex_lock(&guard_cut_lock);
    if (guard_state == 0) {
        guard_state = 1;
        if (guard_cut_fn)
            guard_cut_fn(why);
    }
    pthread_mutex_unlock(&guard_cut_lock);
}

void fp_guard_finish(void)
{
    fp_guard_disarm();
    pthread_mutex_lock(&guard_cut_lock);
    if (guard_state == 0)
        guard_state = 2;
    pthread_mutex_unlock(&guard_cut_lock);
}

void fp_guard_finalize(int code, double seconds)
{
    atomic_store(&guard_finalizing, code + 1);
    fp_guard_arm(0, seconds, "--finalize-timeout");
}

static int env_number(const char *const *names)
{
    for (; *names; names++) {
        const char *text = getenv(*names);
        char *end;
        if (!text || !*text)
            continue;
        long value = strtol(text, &end, 10);
        if (*end == '\0' && value >= 0 && value < 1L << 30)
            return (int)value;
    }
    return -1;
}

int fp_env_rank(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", NULL};
    return env_number(names);
}

int fp_env_size(void)
{
    static const char *const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS", NULL};
    return env_number(names);
}

int fp_early_check(const fp_bench_t *bench, char *err, size_t errlen)
{
    int size = fp_env_size();
    if (bench->ranks && size > 0 && size != bench->ranks) {
        snprintf(err, errlen, "needs exactly %d ranks, got %d (accepted: mpirun -np %d)", bench->ranks, size,
                 bench->ranks);
        return FP_ERR;
    }
    return FP_OK;
}

int fp_early_exit(const fp_bench_t *bench, const fp_params_t *params, int parse_rc, const char *err)
{
    int speaks = fp_env_rank() <= 0;
    if (parse_rc != FP_OK) {
        if (speaks)
            fprintf(stderr, "fabperf_%s: %s\n", bench->name, err);
        else
            sleep(1); /* let rank 0 print before the launcher, seeing an exit, ends the job */
        return FP_EXIT_USAGE;
    }
    if (speaks && params->help)
        fp_options_help(bench, stdout);
    else if (speaks)
        printf("fabperf_%s %s\n", bench->name, PACKAGE_VERSION);
    return FP_EXIT_OK;
}
