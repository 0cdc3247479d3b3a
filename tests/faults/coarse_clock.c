/* A coarse clock through the MPI profiling interface, for the tests (LD_PRELOAD'ed into ranks):
 * MPI_Wtime rounded down to whole ticks, as on a system whose clock advances in steps.
 *
 * Environment:
 *   FP_CLOCK_TICK_US=T    the tick in microseconds (default 1)
 *   FP_CLOCK_STRETCH=F    for the first FP_CLOCK_STRETCH_S seconds after the first reading, the
 *   FP_CLOCK_STRETCH_S=S  clock advances F times the time that passes (operations look F times
 *                         slower, as on a machine that later leaves a slow latency mode), then
 *                         at the true rate again (default: no stretch)
 *   FP_CLOCK_TICK_RANK=R  only rank R (from the launcher's environment) has the coarse clock; the
 *                         others read the true one (default: every rank), so that ranks measure
 *                         different clocks, as hosts of one job can
 * MPI_Wtime is continuous; MPI_Wtick is left alone: the program must find the tick by reading. */
#include <mpi.h>
#include <stdlib.h>

static double setting(const char *name, double fallback)
{
    const char *text = getenv(name);
    return text && *text ? atof(text) : fallback;
}

static double stretched(double now)
{
    static double origin = -1.0;
    double factor = setting("FP_CLOCK_STRETCH", 1.0), span = setting("FP_CLOCK_STRETCH_S", 0.0);
    if (origin < 0)
        origin = now;
    if (now < origin + span)
        return origin + factor * (now - origin);
    return now + (factor - 1.0) * span;
}

/* The rank the launcher gave this process: Open MPI, then MPICH's PMI; -1 when unknown. */
static int launcher_rank(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK"};
    for (int i = 0; i < 2; i++) {
        const char *text = getenv(names[i]);
        if (text && *text)
            return atoi(text);
    }
    return -1;
}

double MPI_Wtime(void)
{
    double tick = setting("FP_CLOCK_TICK_US", 1.0) * 1e-6;
    double now = stretched(PMPI_Wtime());
    const char *only = getenv("FP_CLOCK_TICK_RANK");
    if (only && *only && atoi(only) != launcher_rank())
        return now;
    if (tick <= 0)
        return now;
    return (double)(long long)(now / tick) * tick;
}
