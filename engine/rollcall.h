/* The roll call at a timeout: which ranks never arrived where the others wait.
 *
 * MPI cannot be asked once an operation hangs, so the ranks answer over a side channel set up at
 * the start: rank 0 listens on one TCP port (ephemeral, every interface) and tells the others its
 * addresses. When the watchdog fires, every other rank sends one line (its progress count and
 * where it is) to that port; rank 0 collects the answers for a few seconds and names the ranks
 * that are behind the furthest ones, and those that did not answer (dead, stuck beyond their own
 * watchdog, or no route to rank 0's port). A run whose ranks still take steps while they answer is
 * slow, not stuck: then nobody is named. Nothing of it runs inside a timed region. */
#ifndef FP_ROLLCALL_H
#define FP_ROLLCALL_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>

#define FP_ROLLCALL_WAIT_S 3 /* how long rank 0 collects answers */
#define FP_ROLLCALL_HOST 64

/* Where one rank stands. entered: the steps (samples, warm-up operations, ...) it has begun since
 * the start, the same sequence on every rank of a lock-step run. */
typedef struct fp_rollcall_entry {
    int answered;
    int moved; /* took a step while it answered: the run goes on, slowly */
    long entered;
    char host[FP_ROLLCALL_HOST];
    char where[160]; /* "size 4096 B, sample 12 of 100" */
} fp_rollcall_entry_t;

/* After MPI_Init, on every rank, outside any timed region: rank 0 opens its port, the others
 * learn its addresses; every rank's host name is gathered on rank 0. A failure leaves the roll
 * call off (said once by rank 0), never the run. */
void fp_rollcall_setup(MPI_Comm comm);
/* On expiry (watchdog thread). Ranks other than 0: send where they stand. Rank 0: collect for
 * FP_ROLLCALL_WAIT_S at most and write the finding into out ("" when the roll call is off). */
void fp_rollcall_answer(const atomic_long *entered, const char *where);
void fp_rollcall_collect(const atomic_long *entered, const char *where, char *out, size_t len);
/* The program's ranks do not all take the same steps (the pairs' sweeps: a pair measured alone
 * while the others wait): the roll call then names only the ranks that did not answer. */
void fp_rollcall_not_lockstep(void);
/* The finding from the entries of all n ranks (pure; tests/unit/test_rollcall.c). */
void fp_rollcall_summary(const fp_rollcall_entry_t *entries, int n, int lockstep, char *out, size_t len);

#endif
