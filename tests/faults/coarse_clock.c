/* A coarse clock through the MPI profiling interface, for the tests (LD_PRELOAD'ed into ranks):
 * MPI_Wtime rounded down to whole ticks, as on a system whose clock advances in steps.
 *
 * Environment:
 *   FP_CLOCK_TICK_US=T  the tick in microseconds (default 1)
 * MPI_Wtick is left alone: the program must find the tick by reading the clock. */
#include <mpi.h>
#include <stdlib.h>

double MPI_Wtime(void)
{
    const char *text = getenv("FP_CLOCK_TICK_US");
    double tick = (text && *text ? atof(text) : 1.0) * 1e-6;
    if (tick <= 0)
        return PMPI_Wtime();
    return (double)(long long)(PMPI_Wtime() / tick) * tick;
}
