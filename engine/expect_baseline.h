/* --expect baseline=FILE[:TOL]: a fabperf-baseline file (tools/fabperf/baseline.py, docs/baselines.md)
 * turned into one term per size of the entry that matches this run. No MPI: every rank reads the
 * file and the run agrees on the outcome. */
#ifndef FP_EXPECT_BASELINE_H
#define FP_EXPECT_BASELINE_H

#include <stddef.h>

#include "expect.h"

typedef struct {
    const char *program;   /* "fabperf_bw" */
    const char *label;     /* --label; NULL: the baseline must hold one configuration of the program */
    const char *placement; /* "H H, 2 ranks on 1 host(s)", as fabperf-baseline writes it */
    const char *unit;      /* the program's --expect unit ("MB/s", "GB/s busbw", "us") */
    fp_quantity_t quantity;
    const char *mpi_library, *version; /* this run's, compared with what the baseline was built with */
} fp_baseline_run_t;

/* "H H, 2 ranks on 1 host(s)": the placement of a run, fabperf-baseline's key. */
void fp_baseline_placement(char *out, size_t len, const char *buffers, int nranks, int nhosts);

/* Reads e->baseline_path (when set) and sets e->from_baseline to the bounds of the entry of this
 * run: its program, label and placement, relaxed by e->baseline_tolerance; e->baseline_note says
 * which entry, and where the software differs. FP_ERR with one line in err: the file unreadable or
 * not a baseline, no entry of this run (the entries it has are listed), several configurations
 * and no --label, an entry in a unit the program does not report. */
int fp_expect_baseline_load(fp_expect_t *e, const fp_baseline_run_t *run, char *err, size_t errlen);

#endif
