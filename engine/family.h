/* A family of benchmark: what differs between kinds of benchmark around the one sampler (how a
 * size is rounded, what a sample synchronises and completes, how samples are reduced over ranks,
 * what is validated, what the header and the row hold). One file and one table per family; the
 * sampler, the sweep and set-up call through the table and never ask which family runs. */
#ifndef FP_FAMILY_H
#define FP_FAMILY_H

#include "core.h"

typedef struct fp_family {
    const char *name;
    /* For the header and messages: the limit the family puts on the automatic batch in fixed
     * mode (plan.max_batch), and what sizes round to; NULL: none. */
    const char *batch_limit;
    const char *round_unit;
    /* Before anything is allocated: the family's state, and its parameters checked against this
     * job (no communication, the same verdict on every rank). FP_ERR with err set: bad usage. */
    int (*prepare)(fp_run_t *run, char *err, size_t errlen);
    /* After prepare, with the job: checks that need the other ranks' answers (a collective call
     * on every rank, the same verdict everywhere); NULL: none. FP_ERR with err set: bad usage. */
    int (*agree)(fp_run_t *run, char *err, size_t errlen);
    /* After buffers: libraries, run->sampler, what the header says. FP_ERR: runtime failure. */
    int (*open)(fp_run_t *run);
    /* Releases what prepare and open made; safe after a failure in either. */
    void (*close)(fp_run_t *run);
    /* The size measured for a requested one; 0: none fits, skip it. */
    size_t (*round)(const fp_run_t *run, size_t bytes);
    /* Samples one size into row (rank 0's row is reported). */
    int (*measure)(fp_run_t *run, size_t bytes, fp_row_t *row);
    /* Validation round after the timed samples: fills, runs once, checks the result. */
    int (*validate)(fp_run_t *run, size_t bytes, uint32_t round, fp_row_t *row);
    /* After the sweep, whose largest size was last_size (NULL: nothing): rank 0 may add records
     * and verdicts (run->expect_*). FP_ERR: runtime failure. */
    int (*after_sweep)(fp_run_t *run, size_t last_size);
    /* A soak, rank 0, after a size's row: the family's own series of this cycle beside the row's
     * headline (pairs: each cell's median; soak.h); NULL: none. */
    int (*soak_series)(fp_run_t *run, size_t size, struct fp_soak *soak, double t_s, const char *link_errors);
} fp_family_t;

/* The families: fp_family_pt2pt (comm.h, pt2pt/pt2pt_run.c), fp_family_coll (collective.h,
 * collective/coll_run.c), the pairs (pairs.h, pairs/pairs_run.c); their metrics (metric.h) in
 * pt2pt_schema.c, coll_schema.c and pairs_schema.c. */

#endif
