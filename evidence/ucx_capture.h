/* What UCX selected in this run, from UCX's own log (ucx_log.h reads it), when the MPI runs over
 * UCX (MPICH ch4:ucx, Open MPI's pml ucx). Built with UCX's headers (ucx_capture.c); without them
 * nothing is captured (ucx_capture_none.c).
 *
 * Two ways in, as UCX reads its log settings once, when libucs is loaded:
 * - libucs already in the process before MPI_Init (an MPI linked against UCX, as MPICH is): a log
 *   handler of UCX's (ucs_log_push_handler) keeps the endpoint lines, UCX's level raised to info
 *   if lower; what the user's level would not have shown is not shown;
 * - loaded by MPI_Init (Open MPI opens its UCX components there): UCX_LOG_LEVEL=info and
 *   UCX_LOG_FILE (a file of ours) are set before, unless the user set either; the user's
 *   UCX_LOG_FILE is read instead.
 * With UCX_PROTO_ENABLE=y the protocol tables (UCX_PROTO_INFO=y, set unless the user did) are
 * only written to a log file: the user's, or ours. */
#ifndef FP_UCX_CAPTURE_H
#define FP_UCX_CAPTURE_H

#include "ucx_log.h"

/* Every rank, before MPI_Init; nothing when enabled is 0. */
void fp_ucx_capture_start(int enabled);
/* Every rank, right after MPI_Init: the variables set for UCX are taken back out of the
 * environment (the provenance records the user's), our log file is opened for reading and
 * unlinked (nothing is left behind, whatever happens later). */
void fp_ucx_capture_started(void);
/* Every rank: reads what UCX logged since the last call (its warnings in our log file are copied
 * to standard error) and returns the selection so far; NULL when UCX is not in the process or
 * capture is off. */
const fp_ucx_selection_t *fp_ucx_capture_read(void);

#endif
