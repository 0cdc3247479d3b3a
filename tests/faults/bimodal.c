/* Two-mode call times through the MPI profiling interface, for the tests (LD_PRELOAD'ed into
 * ranks): a median whose confidence interval never shrinks away from the middle of the modes, so
 * that a threshold there stays undecided however many samples are taken.
 *
 * Environment:
 *   FP_BIMODAL_US=T  every MPI_Allreduce on float data (-T float: fabperf's own control messages
 *                    are other types) and every MPI_Recv of bytes (the point-to-point programs'
 *                    messages) moves the clock (MPI_Wtime) on by T us, every second one by
 *                    2T: with one call per sample, half the samples lie near T, half near 2T, and
 *                    the median (the mean of the middle two) near 1.5T. The clock jumps instead of
 *                    the rank sleeping: the time budget is spent without waiting, and a T far
 *                    above what the machine's load adds to a sample keeps the modes apart.
 * Every rank makes the same calls, so the ranks' clocks jump alike. */
#include <mpi.h>
#include <stdlib.h>

static long calls;
static double skew; /* seconds added to the clock */

double MPI_Wtime(void)
{
    return PMPI_Wtime() + skew;
}

static void jump(void)
{
    const char *text = getenv("FP_BIMODAL_US");
    double t = text && *text ? atof(text) * 1e-6 : 0;
    if (t > 0)
        skew += calls++ % 2 ? 2 * t : t;
}

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    int rc = PMPI_Allreduce(send, recv, count, type, op, comm);
    if (type == MPI_FLOAT)
        jump();
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    if (type == MPI_BYTE)
        jump();
    return rc;
}
