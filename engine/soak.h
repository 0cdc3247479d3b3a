/* A soak: the sweep repeated (--cycles, --soak), each size's headline (and, in the pairs programs,
 * each cell's median) kept per cycle on rank 0, and at the end each series searched for steps
 * (changepoint.h): the most likely step, then each side of it again while a side keeps enough
 * cycles. The false-alarm budget FP_SOAK_ALPHA is shared among the sizes (each tested at
 * FP_SOAK_ALPHA / sizes), or, with cells, half among the sizes and half among the cells; a step is
 * claimed where it is also a change of at least FP_SOAK_MIN_CHANGE. */
#ifndef FP_SOAK_H
#define FP_SOAK_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

#define FP_SOAK_ALPHA 0.05
#define FP_SOAK_MIN_CHANGE 0.10
/* The share of a series' budget its first test over the whole series spends (soak.c). */
#define FP_SOAK_FIRST_SHARE 0.8

typedef struct fp_soak fp_soak_t;

/* NULL on out of memory (said through fp_fail). */
fp_soak_t *fp_soak_new(void);
void fp_soak_free(fp_soak_t *s);
/* One size of one cycle: its headline median, the seconds since the soak began at its end, and the
 * link errors that moved during it ("" none). FP_OK or FP_ERR (out of memory). */
int fp_soak_add(fp_soak_t *s, long cycle, size_t size, double value, double t_s, const char *link_errors);
/* One cell from -> to (ranks; label names it, e.g. "h0 -> h3") of one size of one cycle; a NaN
 * value: not measured this cycle (the cell's series is then not searched). */
int fp_soak_add_cell(fp_soak_t *s, long cycle, size_t size, int from, int to, const char *label, double value,
                     double t_s, const char *link_errors);

typedef struct {
    size_t sizes;   /* sizes with a series */
    long cycles;    /* the most cycles of a series */
    int tested;     /* 0: too few cycles for a step to reach the per-size (or per-cell) bound */
    long needed;    /* cycles a step needs at the least (a clean split) to reach it */
    double alpha;   /* the bound each size was tested at */
    int steps;      /* steps claimed, sizes' and cells' */
    size_t cells;   /* cells with a series (pairs); 0: none */
    size_t cells_partial; /* cells without a value in every cycle: not searched */
    int cells_tested, cell_steps;
    long cell_needed;
    double cell_alpha;
} fp_soak_summary_t;

/* Rank 0, at the end: each series' steps, written as records (JSON: "step" and "soak"; CSV:
 * nothing; text: "# step" and "# soak" lines) and one line per step on standard error (program
 * NULL: none). quantity and unit
 * name the headline ("bw", "MB/s"); higher: whether more is better; started: the soak's start,
 * seconds since the epoch (UTC), for the steps' clock times. */
void fp_soak_judge(fp_soak_t *s, FILE *out, fp_format_t format, const char *program, const char *quantity,
                   const char *unit, int higher, double started, double seconds, fp_soak_summary_t *summary);

#endif
