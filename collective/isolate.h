/* Group testing of a collective (--isolate): which member slows it. The search splits the job
 * into disjoint groups that run the collective at the same time, compares each group with groups
 * of its size that are known good, descends into the groups that fall short, and confirms each
 * suspect member with a known-good partner it was not measured with. Pure: rank 0 runs the search
 * with a callback that measures one round (coll_isolate.c over MPI; the unit tests with a model). */
#ifndef FP_ISOLATE_H
#define FP_ISOLATE_H

#include <stddef.h>

/* A group is slow when its fastest plausible time (its median's CI low end) is above the
 * references' typical time (the median of their medians) divided by 1 - FP_ISO_MIN_EFFECT (a
 * third slower) and above their slowest plausible one (the median of their CI high ends): at least
 * a third slower, with the intervals apart. Fine: its median is at most a third slower than the
 * references' typical time. Undecided: neither. */
#define FP_ISO_MIN_EFFECT 0.25
#define FP_ISO_MIN_RANKS 4
#define FP_ISO_MAX_ROUNDS 64
#define FP_ISO_MAX_FINDINGS 64

/* One group's figure of a round: time per call in us, its median and 95% CI; where --expect
 * judges the size, its verdict on this group scaled to the group's size (an fp_verdict_t:
 * FP_VERDICT_NONE, the zero, where no term applies) and the time per call that meets it. */
typedef struct fp_iso_est {
    double us, lo, hi;
    int expect;
    double bound_us;
} fp_iso_est_t;

typedef enum { FP_ISO_FINE, FP_ISO_SLOW, FP_ISO_UNDECIDED } fp_iso_status_t;

/* What a round ran and what the judge said of each group (for the records). */
typedef struct fp_iso_round {
    int level;       /* 1, 2, ... for the levels of the split; 0 for a confirmation round */
    int ngroups;
    int *group;      /* per rank: its group in this round, -1 idle */
    fp_iso_est_t *est;           /* per group */
    fp_iso_status_t *status;     /* per group */
    int *judged;                 /* per group: 1 a candidate (its parent fell short), 0 a reference */
    double *threshold;           /* per group: what its CI low end must exceed, NAN when not judged */
} fp_iso_round_t;

typedef enum { FP_ISO_MEMBER, FP_ISO_LINK, FP_ISO_GROUP } fp_iso_kind_t;

typedef struct fp_iso_finding {
    fp_iso_kind_t kind; /* member: one rank; link: two ranks slow only together; group: a group
                         * slow whose parts are not (a node's NIC, or members that slow only jointly) */
    int stands;         /* 1 stands, 0 undecided */
    int nranks, ranks[8];
    fp_iso_est_t est;   /* the confirming (or last) measurement */
    double reference_us; /* what the known-good groups of that round gave (median) */
    int round;          /* index of the round that decided it */
} fp_iso_finding_t;

typedef struct fp_iso_result {
    int decided;          /* 0: too few ranks, or a suspect could not be placed */
    char reason[256];
    int nrounds;
    fp_iso_round_t rounds[FP_ISO_MAX_ROUNDS];
    int nfindings;
    fp_iso_finding_t findings[FP_ISO_MAX_FINDINGS];
} fp_iso_result_t;

/* Measures one round: every rank with group[r] >= 0 runs the collective in its group, all groups
 * at the same time; fills est[g] for g < ngroups. lead (NULL: none) names per group the rank that
 * leads it, or -1: in a confirmation the known-good partner, so that a rooted collective's root is
 * the partner and the member under test keeps the role it has in the whole job (a member slow only
 * as a sender would hide as the root of a reduce). Returns 0, or -1 on failure (the search ends). */
typedef int (*fp_iso_measure_fn)(void *arg, const int *group, const int *lead, int ngroups, fp_iso_est_t *est);

/* The groups of every level: ranks ordered by node (node[r], then r), each group split in two at
 * the node boundary nearest its middle while it spans nodes, else at its middle. Fills group[r]
 * for level (1: halves) and returns how many groups of at least 2 ranks it has; ranks in a smaller
 * part get -1. parent[g] (optional, up to n entries): the group of level - 1 that g came from. */
int fp_iso_level(int n, const int *node, int level, int *group, int *parent);

/* The whole search; rounds' arrays are allocated (fp_iso_free releases them). Returns 0, or -1
 * when a measurement or an allocation failed. */
int fp_iso_search(int n, const int *node, fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out);
void fp_iso_free(fp_iso_result_t *r);

/* --suspects: no levels; each rank with suspect[r] is confirmed as a member is, twice beside a
 * known-good partner (the ranks not suspected), the leftover partners as references. Not decided
 * when no rank or every rank is a suspect. Returns as fp_iso_search. */
int fp_iso_confirm_suspects(int n, const char *suspect, fp_iso_measure_fn measure, void *arg, fp_iso_result_t *out);

/* After a search, given the whole communicator's verdict at that size (an fp_verdict_t): a whole
 * that fails --expect while the search stands no member is undecided, never "no member slows it":
 * the shortfall is between the groups (a link between them), the whole job's, or everyone's. */
void fp_iso_whole_shortfall(fp_iso_result_t *r, int whole_verdict);

/* The threshold of references whose typical time is reference_us and CI high end reference_hi
 * (medians over them); est judged: slow when its CI low end is above the threshold, fine when its
 * median is at most reference_us / (1 - FP_ISO_MIN_EFFECT), else undecided. */
double fp_iso_threshold(double reference_us, double reference_hi);
fp_iso_status_t fp_iso_judge(const fp_iso_est_t *est, double reference_us, double threshold);

#endif
