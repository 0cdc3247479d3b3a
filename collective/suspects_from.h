/* --suspects-from FILE for --isolate: the suspects an all-pairs sweep's results name (fabperf_allpairs
 * or fabperf_allpairs_lat --format json): the nodes of its findings that stand or are undecided. */
#ifndef FP_SUSPECTS_FROM_H
#define FP_SUSPECTS_FROM_H

#include <stddef.h>

/* The sweep's node names of those findings, comma-separated in order of first mention, each once,
 * into words (len bytes; "" when no finding stands or is undecided); *findings counts the
 * findings. 0, or -1 with one line in err (unreadable, not JSON, not a results file). */
int fp_suspects_from_file(const char *path, char *words, size_t len, int *findings, char *err, size_t errlen);

/* Whether a node name of the sweep is this rank: "host" (the sweep ran one rank on it) is every
 * rank on that host, "host:R" (several ran there) rank R on that host. */
int fp_suspects_node_is(const char *node, const char *host, int rank);

/* R of a node name "host:R"; -1 for a plain host name. */
int fp_suspects_node_rank(const char *node);

#endif
