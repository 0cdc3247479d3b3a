/* What the wire carried per size: NIC bytes per operation over the median operation time, per NIC
 * and per node, and the flag for a collective whose busbw exceeds it. Pure: no MPI, no sysfs. */
#include <math.h>
#include <string.h>

#include "escape.h"
#include "evidence.h"
#include "metric.h"

const char *fp_net_key(const struct fp_metric *metric)
{
    return metric->line_rate_divisor == 8e9 ? "net_gbps" : "net_mbps";
}

/* bits/s per unit of the net column: the headline's unit where it is a rate (MB/s, GB/s), else
 * MB/s. */
static double net_divisor(const fp_bench_t *bench)
{
    return bench->metric->line_rate_divisor > 0 ? bench->metric->line_rate_divisor : 8e6;
}

double fp_wire_in_unit(const fp_bench_t *bench, double bps)
{
    return bps / net_divisor(bench) * (bench->directions > 1 ? bench->directions : 1);
}

static const char *net_unit(const fp_bench_t *bench)
{
    return strcmp(fp_net_key(bench->metric), "net_gbps") == 0 ? "GB/s" : "MB/s";
}

/* Bytes of one node or NIC that count against the headline: the busier direction, or both added
 * where the headline counts both (bibw). */
static double counted(const fp_bench_t *bench, double tx, double rx)
{
    if (tx < 0 || rx < 0)
        return NAN;
    return bench->directions > 1 ? tx + rx : (tx > rx ? tx : rx);
}

/* Three significant digits, without an exponent for large rates. */
static const char *rate_text(char *buf, size_t len, double v)
{
    snprintf(buf, len, v >= 1000 ? "%.0f" : "%.3g", v);
    return buf;
}

void fp_wire_rates(fp_evidence_t *ev, const fp_wire_node_t *nodes, int nnodes, const fp_bench_t *bench, double ops,
                   double op_seconds, double headline)
{
    double per_second = ops > 0 && op_seconds > 0 ? 1.0 / (ops * op_seconds) : NAN;
    ev->net = NAN;
    ev->net_in_unit = NAN;
    ev->net_node[0] = '\0';
    ev->net_shared = 0;
    ev->above_wire = 0;
    ev->net_over_busbw = NAN;
    ev->wire_line[0] = '\0';
    ev->net_line_rate_bps = 0;
    ev->net_line_from[0] = '\0';
    for (int i = 0; i < ev->nnics; i++) {
        fp_path_nic_t *n = &ev->nics[i];
        n->wire = counted(bench, n->tx, n->rx) * per_second;
        n->wire_efficiency = n->line_rate_bps > 0 && !n->is_virtual && isfinite(n->wire)
                                 ? n->wire * 8 / n->line_rate_bps
                                 : NAN;
    }
    int busiest = -1;
    double most = 0;
    for (int h = 0; h < nnodes; h++) {
        double b = counted(bench, nodes[h].tx, nodes[h].rx);
        if (isfinite(b) && b > most) {
            most = b;
            busiest = h;
        }
    }
    if (busiest < 0 || !isfinite(per_second))
        return; /* nothing left a node, or no operation to set it against */
    ev->net = most * per_second;
    ev->net_line_rate_bps = nodes[busiest].line_rate_bps;
    snprintf(ev->net_line_from, sizeof ev->net_line_from, "%s", nodes[busiest].line_from);
    ev->net_in_unit = ev->net * 8 / net_divisor(bench);
    ev->net_shared = nodes[busiest].shared;
    snprintf(ev->net_node, sizeof ev->net_node, "%s", nodes[busiest].node);
    const char *unit = net_unit(bench);
    char a[32], b[32];
    snprintf(ev->wire_line, sizeof ev->wire_line, "net %s %s (%s, %s)", rate_text(a, sizeof a, ev->net_in_unit), unit,
             ev->net_node,
             bench->directions > 1 ? "sent + received" : "its busier direction");
    if (ev->net_shared)
        fp_append(ev->wire_line, sizeof ev->wire_line, "; an upper bound: other traffic shared its NICs");
    if (bench->coll && isfinite(headline)) {
        fp_append(ev->wire_line, sizeof ev->wire_line, "; busbw %s %s", rate_text(b, sizeof b, headline), unit);
        ev->above_wire = !ev->net_shared && headline > FP_WIRE_ABOVE * ev->net_in_unit;
        ev->net_over_busbw = headline > 0 ? ev->net_in_unit / headline : NAN;
        if (ev->above_wire)
            fp_append(ev->wire_line, sizeof ev->wire_line,
                      " is above what the NICs carried (%.2fx): the algorithm moved less over the network than "
                      "busbw assumes (a tree, a reduction in the switch, or traffic kept inside nodes)",
                      headline / ev->net_in_unit);
        else if (!ev->net_shared && ev->net_over_busbw > FP_WIRE_MORE)
            fp_append(ev->wire_line, sizeof ev->wire_line,
                      "; the NICs carried %.2fx busbw: the algorithm or the rank placement moved more over the "
                      "network than busbw counts",
                      ev->net_over_busbw);
    }
}
