/* What ran, where and how: the header of every result. */
#ifndef FP_PROVENANCE_H
#define FP_PROVENANCE_H

#include "report.h"

/* Fills what every rank can tell (library, date, hosts: collective over comm) and the
 * provider-selecting environment of this rank. Strings stay valid until fp_meta_release. */
int fp_meta_collect(fp_meta_t *meta, MPI_Comm comm);
void fp_meta_release(fp_meta_t *meta);

/* "yes", "no" or "unknown" (the library cannot say). */
const char *fp_mpi_cuda_aware(void);

/* Whether an environment variable selects or tunes a transport and so belongs in results. */
int fp_env_is_recorded(const char *name);

#endif
