/* What UCX selected, read from its own log. Pure: no UCX, no MPI; lines come from a log file or
 * from a log handler (ucx_capture.c). Recognised (UCX 1.13; the 1.15+ forms from UCX's sources):
 *   UCX INFO, default protocols:  ep_cfg[1]: tag(tcp/lo) rma_am(tcp/lo) am(tcp/lo)
 *                         1.15+:  inter-node cfg#1 tag(rc_mlx5/mlx5_0:1) rma(...) ...
 *     the transport/device of each lane per kind of operation of one endpoint configuration;
 *   UCX_PROTO_ENABLE=y with UCX_PROTO_INFO=y, a table per configuration and operation:
 *     | 0x5618... ep_cfg[1] | tagged message by ucp_tag_send*() from host memory |
 *     |            0..788 | eager short                   | tcp/lo |
 *   UCX INFO  Version 1.13.1 (loaded from ...).
 * The log's format is UCX's, not a contract: lines not recognised are skipped. */
#ifndef FP_UCX_LOG_H
#define FP_UCX_LOG_H

#include <stdio.h>

#define FP_UCX_ENDPOINTS 16
#define FP_UCX_PROTOCOLS 24
#define FP_UCX_RANGES 8

typedef struct {
    int config;      /* UCX's endpoint configuration index (per worker) */
    char to[16];     /* "self" (a lane through UCX's self transport, or 1.15+'s word), "peer"
                      * (1.13: any other), or 1.15+'s "intra-node", "inter-node" */
    char lanes[400]; /* "tag(tcp/lo) rma_am(tcp/lo) am(tcp/lo)" as UCX prints it */
} fp_ucx_endpoint_t;

typedef struct {
    char range[48];    /* "0..8184", "16442..inf" */
    char protocol[80]; /* "eager short" */
    char via[80];      /* "tcp/lo" */
} fp_ucx_range_t;

typedef struct {
    int config;
    char operation[128]; /* "tagged message by ucp_tag_send*() from host memory" */
    int nranges;
    fp_ucx_range_t ranges[FP_UCX_RANGES];
} fp_ucx_protocol_t;

typedef struct fp_ucx_selection {
    char version[32];    /* "" when not seen */
    int nendpoints, nprotocols;
    int dropped;         /* configurations or tables beyond the arrays */
    fp_ucx_endpoint_t endpoints[FP_UCX_ENDPOINTS];
    fp_ucx_protocol_t protocols[FP_UCX_PROTOCOLS];
    int table;           /* parser state: the protocol table being read, -1 none */
    char note[240];      /* set by the capture: why nothing could be read, "" otherwise */
} fp_ucx_selection_t;

void fp_ucx_selection_init(fp_ucx_selection_t *s);
/* One line of UCX's log (a file line with its prefix, or a bare message). */
void fp_ucx_log_line(fp_ucx_selection_t *s, const char *line);
/* Every line of a stream from where it stands; lines with " UCX  WARN ", ERROR or FATAL are also
 * copied to warn (NULL: dropped), since a log file takes them off the output. */
void fp_ucx_log_stream(fp_ucx_selection_t *s, FILE *in, FILE *warn);

/* The distinct transport/device pairs of the configurations to other processes (not "self"), in
 * order of first appearance, space-separated: "tcp/lo", "sysv/memory cma/memory posix/memory". */
void fp_ucx_transports(const fp_ucx_selection_t *s, char *out, size_t len);
/* One line: "1.13.1: peer tag(tcp/lo) ... ; self ...; tag protocols (cfg 1): 0..788 eager short
 * (tcp/lo), ...", or the note when nothing was read. */
void fp_ucx_selection_text(const fp_ucx_selection_t *s, char *out, size_t len);
/* JSON object {"version", "transports", "endpoints": [{"config", "to", "lanes"}], "protocols":
 * [{"config", "operation", "ranges": [{"range", "protocol", "via"}]}], "note", "summary"}. */
void fp_ucx_selection_json(FILE *out, const fp_ucx_selection_t *s);

#endif
