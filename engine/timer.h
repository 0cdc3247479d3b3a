/* Timers: one ops table entry per clock. Samples are seconds per sample. */
#ifndef FP_TIMER_H
#define FP_TIMER_H

#include <stddef.h>

#include "fp.h"

typedef struct fp_timer_ops {
    const char *name; /* as printed in the header */
    /* Prepares capacity samples, written into samples[] by end() or collect(). */
    int (*open)(double *samples, size_t capacity);
    void (*close)(void);
    /* begin/end bracket sample i; nothing else may run between them but the operation. */
    void (*begin)(size_t i);
    void (*end)(size_t i);
    /* Makes samples [from, to) readable (CUDA events: waits and converts). */
    int (*collect)(size_t from, size_t to);
    /* Smallest step of the clock, seconds (measured where it can be). */
    double (*resolution)(void);
} fp_timer_ops_t;

extern const fp_timer_ops_t fp_timer_wtime, fp_timer_cuda;
extern const fp_timer_ops_t *const fp_timer_ops[FP_TIMER_COUNT];

#endif
