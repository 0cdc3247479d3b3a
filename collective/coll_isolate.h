/* --isolate: after the sweep, the search for the member that slows the collective. */
#ifndef FP_COLL_ISOLATE_H
#define FP_COLL_ISOLATE_H

#include "core.h"

/* On every rank, at `bytes` (the sweep's largest size); rank 0 writes the search's records and
 * adds its verdict (a standing finding fails the run, an undecided search is inconclusive). */
int fp_coll_isolate(fp_run_t *run, size_t bytes);

#endif
