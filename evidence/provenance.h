/* What ran, where and how: the header of every result. */
#ifndef FP_PROVENANCE_H
#define FP_PROVENANCE_H

#include "report.h"

/* Fills what every rank can tell (library, date, hosts) and the provider-selecting
 * environment of every rank, merged on rank 0; collective over comm. Strings stay valid until fp_meta_release. */
int fp_meta_collect(fp_meta_t *meta, MPI_Comm comm);
void fp_meta_release(fp_meta_t *meta);

/* "yes", "no" or "unknown" (the library cannot say). */
const char *fp_mpi_cuda_aware(void);

/* The label, every rank's environment (alike, and what differs between ranks) and placement:
 * text lines of the header, or the members of the JSON meta record. */
void fp_provenance_text(FILE *out, const fp_meta_t *meta);
void fp_provenance_json(FILE *out, const fp_meta_t *meta);
/* The CPU of every rank at the end of the sweep, once recorded (fp_placement_end): a text line,
 * or a member of the JSON end record. Nothing before then (a run cut short). */
void fp_provenance_text_end(FILE *out, const fp_meta_t *meta);
void fp_provenance_json_end(FILE *out, const fp_meta_t *meta);

/* Whether an environment variable selects or tunes a transport and so belongs in results. */
int fp_env_is_recorded(const char *name);

#endif
