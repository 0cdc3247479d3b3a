/* Evidence of the path and verdicts, per size: which NICs carried the payload that had to cross
 * nodes (byte counters read before and after the size, outside the timed region, gathered on rank
 * 0), the line rate and efficiency, and the verdict of --expect and --expect-nic. */
#ifndef FP_EVIDENCE_H
#define FP_EVIDENCE_H

#include <stdio.h>

#include "core.h"
#include "expect.h"

#define FP_EVIDENCE_NICS 16 /* NICs listed per size (the busiest first) */

typedef struct {
    char node[64], name[80];
    double bytes;        /* sent + received during the size (known counters only) */
    double share;        /* bytes / the node's inter-node payload; NaN when that is 0 or unknown */
    double line_rate_bps; /* 0: unknown, or virtual */
    int is_virtual;       /* no device behind it (veth, bond, lo): its nominal speed is no line rate */
    char netdev[64];      /* an RDMA port's netdev (RoCE): both may count the same bytes */
    double rate;          /* its part of the headline (headline x share), in the headline's unit; NaN:
                           * latency or share unknown */
    double efficiency;    /* rate / its own line rate; NaN when either is unknown */
    double accountable;   /* bytes the node's ranks sent and received at this size, all peers: the
                           * most this run can have put on the NIC; < 0 unknown (collectives) */
    int other_traffic;    /* bytes beyond fp_wire_allowance(accountable): shared with other traffic,
                           * so no path claim rests on it */
    double tx, rx;        /* bytes sent and received (bytes = tx + rx); < 0 unknown */
    double wire;          /* bytes/s it carried in its busier direction while an operation ran (see
                           * fp_wire_rates); NaN unknown */
    double wire_efficiency; /* wire x 8 / its line rate; NaN when either is unknown */
} fp_path_nic_t;

/* One node's NICs off loopback added up (a RoCE port and its netdev counted once), for the wire
 * rate of a size. */
typedef struct {
    char node[64];
    double tx, rx;  /* bytes sent and received during the size */
    int shared;     /* one of its NICs carried traffic that is not this run's */
    double line_rate_bps; /* of its NICs that carried >= 10% of its bytes, added up; 0: unknown */
    char line_from[160];  /* their names ("ens1f0+ens2f0"), or why there is none */
} fp_wire_node_t;

/* The most bytes a NIC may count for a run that moved `accountable` bytes (sent plus received, as
 * NIC counters add transmit and receive) in messages of `size` bytes: FP_WIRE_RATIO x the bytes
 * (packet and transport headers, retransmits), FP_WIRE_PER_MESSAGE per message (headers,
 * acknowledgements, rendezvous control of each small message) and FP_WIRE_FIXED (the run's own
 * barriers and gathers). Beyond it, the NIC carried traffic that is not this run's. */
#define FP_WIRE_RATIO 1.5
#define FP_WIRE_PER_MESSAGE 1024.0
#define FP_WIRE_FIXED 262144.0
double fp_wire_allowance(double accountable, size_t size);

/* A link counter (link_health.h) that moved during a size. */
#define FP_EVIDENCE_LINKS 16
typedef struct {
    char node[64], nic[80], counter[48]; /* counter: its label ("symbol errors") */
    double delta;
    int error; /* an error counter (else congestion: CNPs, ECN marks, drops at the host) */
} fp_link_moved_t;

/* The link counters of physical NICs that moved during a size or a part of it, every node's (the
 * first FP_EVIDENCE_LINKS listed), how many of them were errors, and the line that says them. */
typedef struct {
    fp_link_moved_t moved[FP_EVIDENCE_LINKS];
    int count, errors;
    char line[768];
} fp_link_set_t;

typedef struct fp_evidence {
    int measured;        /* 0: path evidence off (the other path fields are empty) */
    double payload;      /* bytes that had to cross nodes, summed over nodes; 0: ranks share one host;
                          * < 0: unknown (no single peer per rank: collectives) */
    double exchanged;    /* bytes the ranks sent and received, all peers */
    int nnodes;
    char node[64];       /* rank 0's node */
    int nnics;
    fp_path_nic_t nics[FP_EVIDENCE_NICS];
    char summary[512];   /* one line: where the traffic went */
    double path_line_rate_bps; /* rank 0's node: the line rates of the NICs that carried its payload
                                * added up; 0: unknown (one of them virtual or without a rate) */
    char path_line_rate_from[160]; /* their names ("eth0+eth1"), or why there is none */
    double line_rate_bps; /* path_line_rate_bps, or --line-rate; 0: unknown */
    const char *line_rate_from; /* "--line-rate", or the NIC's name */
    double line_rate;    /* in the headline's unit (MB/s, GB/s); 0 unknown or latency */
    double efficiency;   /* headline p50 / line_rate; NaN when unknown */
    fp_judgement_t judgement; /* --expect */
    int nic_verdict;     /* fp_verdict_t of --expect-nic; FP_VERDICT_NONE without it */
    char nic_why[640];   /* where the traffic went instead, when nic_verdict is a fail */
    fp_verdict_t verdict; /* the worst of both */
    char verdict_line[512]; /* fp_verdict_line of --expect; empty when no term applied */
    /* What the wire carried (fp_wire_rates): the busiest node's NICs, in bytes/s while an operation
     * ran, in the busier direction (both added up for a bidirectional headline); NaN where no byte
     * left a node (one host, shared memory, loopback). */
    double net;
    double net_in_unit;  /* net in the headline's unit (MB/s; collectives GB/s, as busbw) */
    char net_node[64];   /* the busiest node */
    int net_shared;      /* that node's NICs carried other traffic too: net is an upper bound */
    int above_wire;      /* collectives: busbw above what the busiest node's NICs carried */
    double net_over_busbw; /* collectives: net / busbw; NaN elsewhere */
    char wire_line[512]; /* "net 1.12 GB/s (h1 sent), busbw 1.08 GB/s ..."; empty when net is NaN */
    double net_line_rate_bps; /* the busiest node's NICs' line rate (fp_wire_node_t); 0: unknown */
    char net_line_from[160];
    fp_judgement_t wire_judgement; /* --expect PCT%wire terms, on net and its interval */
    char wire_verdict_line[512];   /* the line of a judged PCT%wire term; empty when none applied */
    fp_link_set_t link;  /* link counters that moved during the size */
} fp_evidence_t;

/* Per-run state of the path evidence; opaque to the sweep. */
typedef struct fp_path fp_path_t;

/* Collective. NULL (and nothing read) when --path-evidence off; FP_ERR only on failure. */
int fp_path_open(fp_run_t *run, fp_path_t **path);
void fp_path_close(fp_path_t *path);
/* Around the family's measure: counters before (then a barrier, so that no peer's bytes of this size
 * are counted early) and after, then gathered and judged on rank 0 into ev. Collective. */
int fp_path_before(fp_path_t *path, fp_run_t *run);
int fp_path_after(fp_path_t *path, fp_run_t *run, const fp_row_t *row, fp_evidence_t *ev);

/* Around a part of a size (an all-pairs round), outside its timed region: the link counters read
 * before (leaders) and after, the moved ones gathered in set on rank 0. Collective (end). */
int fp_path_part_begin(fp_path_t *path);
int fp_path_part_end(fp_path_t *path, fp_run_t *run, fp_link_set_t *set);

/* Rank 0, pure: each NIC's part of the headline (p50 x share) and its efficiency against its own
 * line rate; and the line rate of rank 0's node: those of the NICs that carried >= 10% of its
 * payload, added up, when together they carried at least half of it. A virtual NIC among them
 * leaves it unknown (path_line_rate_from says why). */
void fp_path_rates(fp_evidence_t *ev, const fp_bench_t *bench, double p50);
/* Rank 0, pure: what each NIC and node carried per second while an operation ran: bytes / ops
 * (the size's operations, warm-up included, all between the two counter readings) over the median
 * operation time (op_seconds). The busiest node's rate, in its busier direction (both directions
 * added for a bidirectional headline), is ev->net; a collective whose busbw (headline, in its unit)
 * exceeds it by more than FP_WIRE_ABOVE is flagged: its algorithm moved less over the network than
 * busbw assumes (a tree on few nodes, reduction in the switch, traffic kept inside nodes). */
#define FP_WIRE_ABOVE 1.05
/* Beyond this ratio of net to busbw the line says the algorithm or the placement moved more than
 * busbw counts (headers and acknowledgements add a few %; reduce + scatterv on 2 ranks, 2x). */
#define FP_WIRE_MORE 1.5
void fp_wire_rates(fp_evidence_t *ev, const fp_wire_node_t *nodes, int nnodes, const fp_bench_t *bench, double ops,
                   double op_seconds, double headline);
/* The net column's key for a metric: "net_gbps" (GB/s) where the headline is in GB/s (collectives'
 * busbw), else "net_mbps" (MB/s). */
const char *fp_net_key(const struct fp_metric *metric);
/* A line rate (bits/s) in the net column's unit, both directions for a bidirectional headline. */
double fp_wire_in_unit(const fp_bench_t *bench, double bps);
/* Rank 0, pure: the summary line from payload and nics. */
void fp_path_describe(fp_evidence_t *ev);
/* Rank 0: line rate, efficiency and verdicts of one row (path part already filled or not measured). */
void fp_verdict_row(const fp_run_t *run, const fp_row_t *row, fp_evidence_t *ev);
/* One line naming size, measured interval and threshold, for a failed or undecided size. */
void fp_verdict_line(const fp_run_t *run, const fp_row_t *row, const fp_evidence_t *ev, char *out, size_t len);
/* The line rate in the unit of the program's headline (the metric's line_rate_divisor: MB/s, or GB/s
 * for collectives' busbw; 0 for latency): bits/s -> unit, x2 for a bidirectional bandwidth. */
double fp_line_rate_in_unit(const fp_bench_t *bench, double bps);

/* Report hooks (evidence_report.c): extra keys after a row's own columns. */
void fp_evidence_json_keys(FILE *out, const struct fp_metric *metric);
/* The link counters that moved, as a JSON array of {node, nic, counter, delta, error}. */
void fp_link_json(FILE *out, const fp_link_set_t *set);
void fp_evidence_json(FILE *out, const fp_evidence_t *ev, const struct fp_metric *metric);
void fp_evidence_csv_header(FILE *out, const struct fp_metric *metric);
void fp_evidence_csv(FILE *out, const fp_evidence_t *ev, const struct fp_metric *metric);
void fp_evidence_text_header(FILE *out);
void fp_evidence_text_cells(FILE *out, const fp_evidence_t *ev);
/* The lines under a text row. The path line only where payload crossed nodes or where it differs
 * from the last one shown (`shown`, updated): a single-host sweep says it once. */
void fp_evidence_text_lines(FILE *out, size_t size, const fp_evidence_t *ev, char *shown, size_t shownlen);

#endif
