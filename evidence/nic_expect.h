/* --expect-nic: the NIC that must carry each node's inter-node payload, judged per node.
 * SPEC: entries, comma-separated: NAME (every node) or NODE:NAME (that node); NAME and NODE may be
 * globs (`mlx5_*`, `h[12]`). In "mlx5_0:1" the colon is an RDMA port's: a colon followed by digits
 * only belongs to the name. The first entry whose NODE matches a node applies to it, else the
 * first entry without NODE. */
#ifndef FP_NIC_EXPECT_H
#define FP_NIC_EXPECT_H

#include <stddef.h>

#include "evidence.h"

#define FP_NIC_SHARE_NEEDED 0.9

/* 0, or -1 with one line in err naming the option and the accepted form. */
int fp_nic_expect_check(const char *spec, char *err, size_t errlen);
/* The NAME pattern that applies to node, copied into out: 1, or 0 when no entry applies. */
int fp_nic_expect_pattern(const char *spec, const char *node, char *out, size_t len);
/* The NIC's name, or for an RDMA port its device ("mlx5_0" for "mlx5_0:1"), matches the pattern. */
int fp_nic_expect_matches(const char *pattern, const char *nic);

/* One node as the judge sees it: the bytes it had to move across nodes (its inter-node payload,
 * or with the payload unknown its NIC bytes off loopback), and how many of them crossed a NIC
 * that its entry names. */
typedef struct {
    const char *node;
    double reference;
    double through;
    int named; /* an entry of the spec applies to the node */
    int other_traffic; /* a NIC its entry names carried other traffic too (fp_path_nic_t) */
} fp_nic_node_t;

/* Rank 0, pure: ev->nic_verdict and ev->nic_why from the nodes (ev->summary, ev->payload set). A
 * node that would pass through a NIC shared with other traffic is inconclusive: its bytes through
 * the NIC are not all this run's. */
void fp_nic_judge(fp_evidence_t *ev, const char *spec, const fp_nic_node_t *nodes, int count, size_t size);

#endif
