#include <mpi.h>

#include "timer.h"

static double *wtime_samples;
static double wtime_start;

static int wtime_open(double *samples, size_t capacity)
{
    (void)capacity;
    wtime_samples = samples;
    return FP_OK;
}

static void wtime_close(void)
{
    wtime_samples = NULL;
}

static void wtime_begin(size_t i)
{
    (void)i;
    wtime_start = MPI_Wtime();
}

static void wtime_end(size_t i)
{
    wtime_samples[i] = MPI_Wtime() - wtime_start;
}

static int wtime_collect(size_t from, size_t to)
{
    (void)from;
    (void)to;
    return FP_OK;
}

/* The clock's step: the smallest non-zero difference of successive readings (a clock may
 * advance in coarser steps than MPI_Wtick says), and never finer than MPI_Wtick. */
static double wtime_resolution(void)
{
    double tick = 0.0;
    for (int round = 0; round < 16; round++) {
        double start = MPI_Wtime(), now = start;
        for (long spin = 0; now == start && spin < 100000000L; spin++)
            now = MPI_Wtime();
        if (now > start && (tick == 0.0 || now - start < tick))
            tick = now - start;
    }
    double wtick = MPI_Wtick();
    return wtick > tick ? wtick : tick;
}

const fp_timer_ops_t fp_timer_wtime = {
    .name = "MPI_Wtime", .open = wtime_open, .close = wtime_close,
    .begin = wtime_begin, .end = wtime_end, .collect = wtime_collect, .resolution = wtime_resolution,
};

const fp_timer_ops_t *const fp_timer_ops[FP_TIMER_COUNT] = {
    [FP_TIMER_WTIME] = &fp_timer_wtime,
    [FP_TIMER_CUDA] = &fp_timer_cuda,
};
