/* Never hang, never end silently: a per-size watchdog and the cut-short path.
 *
 * A helper thread, started before MPI_Init, waits for the deadline of the size being measured and
 * for SIGTERM, SIGINT and SIGHUP (blocked in every other thread). On a deadline it prints one line
 * naming the program, the rank, the size and the operation that did not complete, lets rank 0 close
 * its results as cut short, and ends the whole job with MPI_Abort. On a signal (the launcher stops
 * the job, e.g. because a peer died) it closes the results as cut short and dies of that signal. */
#ifndef FP_GUARD_H
#define FP_GUARD_H

#include <stdatomic.h>
#include <stddef.h>

#include "fp.h"

/* What the measuring thread is doing; written by it, read by the watchdog. */
typedef struct fp_progress {
    _Atomic size_t size;
    _Atomic(const char *) phase; /* "warm-up operation", "sample", ... */
    atomic_long step, steps;     /* 1-based step in progress, of steps (0: unknown) */
    atomic_long entered;         /* steps begun since the start: where a rank stands in the run */
} fp_progress_t;

extern fp_progress_t fp_progress;

static inline void fp_guard_phase(const char *phase, long steps)
{
    atomic_store_explicit(&fp_progress.step, 0, memory_order_relaxed);
    atomic_store_explicit(&fp_progress.steps, steps, memory_order_relaxed);
    atomic_store_explicit(&fp_progress.phase, phase, memory_order_relaxed);
}

/* Outside timed regions only: one relaxed store. */
static inline void fp_guard_step(long step)
{
    atomic_store_explicit(&fp_progress.step, step, memory_order_relaxed);
    atomic_fetch_add_explicit(&fp_progress.entered, 1, memory_order_relaxed);
}

/* Before MPI_Init. Rank and size from the launcher's environment (Open MPI, MPICH/PMI, PMIx), -1
 * when not launched by one of them. */
int fp_env_rank(void);
int fp_env_size(void);
/* Checks that need no MPI (rank count from the environment). FP_OK or FP_ERR with err set. */
int fp_early_check(const fp_bench_t *bench, char *err, size_t errlen);
/* Bad usage, --help or --version, before MPI_Init: rank 0 (or a process not started by a
 * launcher) prints; every rank returns the exit code without starting MPI, which is all the time
 * a launcher needs (under Open MPI, mpirun's own teardown after a non-zero exit dominates). */
int fp_early_exit(const fp_bench_t *bench, const fp_params_t *params, int parse_rc, const char *err);

/* Before MPI_Init: blocks the stop signals and starts the watchdog thread. */
int fp_guard_start(const char *program);
/* MPI is initialised: expiry ends the job through MPI_Abort; rank goes into messages. */
void fp_guard_mpi_ready(int rank);
/* Deadline for one size (or phase): seconds from now; the size and the option that sets the
 * limit are named in the message. */
void fp_guard_arm(size_t bytes, double seconds, const char *option);
void fp_guard_disarm(void);

/* Rank 0 registers how to close its results as cut short (called at most once, any thread). */
void fp_guard_on_cut(void (*cut)(const char *why));
/* Closes the results as cut short, once; no-op after fp_guard_finish(). */
void fp_guard_cut(const char *why);
/* The run ends normally from here on. */
void fp_guard_finish(void);
/* Deadline for MPI_Finalize, the results complete: on expiry this rank says so and exits with
 * `code`, the run's status (some MPI libraries now and then never return from it). */
void fp_guard_finalize(int code, double seconds);

#endif
