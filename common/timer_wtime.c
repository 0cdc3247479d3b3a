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

const fp_timer_ops_t fp_timer_wtime = {
    .name = "MPI_Wtime", .open = wtime_open, .close = wtime_close,
    .begin = wtime_begin, .end = wtime_end, .collect = wtime_collect,
};

const fp_timer_ops_t *const fp_timer_ops[FP_TIMER_COUNT] = {
    [FP_TIMER_WTIME] = &fp_timer_wtime,
    [FP_TIMER_CUDA] = &fp_timer_cuda,
};
