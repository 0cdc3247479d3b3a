/* Asks the MPI library at run time whether it moves CUDA device buffers itself. */
#include <mpi.h>

#include "provenance.h"

#if defined(OPEN_MPI) && OPEN_MPI && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

const char *fp_mpi_cuda_aware(void)
{
    int initialized = 0;
    MPI_Initialized(&initialized); /* callable before MPI_Init, unlike the queries below (MPICH aborts) */
    if (!initialized)
        return "unknown (no MPI)";
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
    return MPIX_Query_cuda_support() ? "yes" : "no";
#elif defined(MPIX_GPU_SUPPORT_CUDA)
    int supported = 0;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &supported) != MPI_SUCCESS)
        return "unknown";
    return supported ? "yes" : "no";
#else
    return "unknown";
#endif
}
