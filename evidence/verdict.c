/* Rank 0's judgement of one size: where the payload went (the summary), the line rate, the
 * efficiency and the verdict of --expect (--expect-nic's: nic_expect.c). Pure apart from the run's
 * parameters. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "evidence.h"
#include "metric.h"

double fp_wire_allowance(double accountable, size_t size)
{
    double messages = size ? accountable / (double)size : 0;
    return FP_WIRE_RATIO * accountable + FP_WIRE_PER_MESSAGE * (messages + 1) + FP_WIRE_FIXED;
}

/* "fpveth0@h1 100.2%, lo@h1 3.1 MB": shares where a node had payload, else bytes; a NIC shared with
 * other traffic says so, and how far beyond this run's bytes it went. */
static void nic_list(const fp_evidence_t *ev, char *buf, size_t len)
{
    for (int i = 0; i < ev->nnics; i++) {
        const fp_path_nic_t *n = &ev->nics[i];
        fp_append(buf, len, "%s%s@%s ", i ? ", " : "", n->name, n->node);
        if (n->other_traffic && n->accountable > 0)
            fp_append(buf, len, "%.1f MB (other traffic: %.3g x all this run moved on %s)", n->bytes / 1e6,
                      n->bytes / n->accountable, n->node);
        else if (n->other_traffic)
            fp_append(buf, len, "%.1f MB (other traffic: this run moved nothing on %s)", n->bytes / 1e6, n->node);
        else if (isnan(n->share))
            fp_append(buf, len, "%.1f MB", n->bytes / 1e6);
        else
            fp_append(buf, len, "%.1f%%", 100 * n->share);
    }
}

static void summarize(fp_evidence_t *ev)
{
    char *s = ev->summary;
    size_t len = sizeof ev->summary;
    s[0] = '\0';
    if (ev->payload > 0)
        fp_append(s, len, "inter-node payload %.1f MB: ", ev->payload / 1e6);
    else if (ev->payload == 0)
        fp_append(s, len, "no inter-node payload (all ranks on %s); NICs that moved anyway: ", ev->node);
    else
        fp_append(s, len, "inter-node payload unknown (no single peer per rank); NICs that moved: ");
    if (ev->nnics)
        nic_list(ev, s, len);
    else
        fp_append(s, len, ev->payload > 0 ? "no NIC counter saw it" : "none (shared memory, or a path without counters)");
    int shared = 0;
    for (int i = 0; i < ev->nnics; i++)
        shared += ev->nics[i].other_traffic;
    if (shared)
        fp_append(s, len, "; %s shared with other traffic: no path claim from %s", shared > 1 ? "NICs" : "a NIC",
                  shared > 1 ? "them" : "it");
}

void fp_path_describe(fp_evidence_t *ev)
{
    summarize(ev);
}

double fp_line_rate_in_unit(const fp_bench_t *bench, double bps)
{
    double divisor = bench->metric->line_rate_divisor;
    return divisor > 0 ? bps / divisor * (bench->directions > 1 ? bench->directions : 1) : 0;
}

/* --line-rate, else that of the NICs that carried rank 0's node's payload (fp_path_rates). */
static void pick_line_rate(const fp_run_t *run, fp_evidence_t *ev)
{
    ev->line_rate_bps = 0;
    ev->line_rate_from = NULL;
    if (run->params.line_rate_bps > 0) {
        ev->line_rate_bps = run->params.line_rate_bps;
        ev->line_rate_from = "--line-rate";
    } else if (ev->measured && ev->path_line_rate_bps > 0) {
        ev->line_rate_bps = ev->path_line_rate_bps;
        ev->line_rate_from = ev->path_line_rate_from;
    }
    ev->line_rate = fp_line_rate_in_unit(run->bench, ev->line_rate_bps);
}

/* --expect PCT%wire: what the busiest node's NICs carried (net) against their line rate
 * (--line-rate where given); net's interval is the time's (the counted bytes are exact). */
static void judge_wire(const fp_run_t *run, const fp_row_t *row, fp_evidence_t *ev)
{
    const fp_stats_t *t = &row->time;
    double net = ev->measured ? ev->net_in_unit : NAN;
    double lo = t->has_ci && t->p50_hi > 0 ? net * t->p50 / t->p50_hi : NAN;
    double hi = t->has_ci && t->p50_lo > 0 ? net * t->p50 / t->p50_lo : NAN;
    double bps = run->params.line_rate_bps > 0 ? run->params.line_rate_bps : ev->net_line_rate_bps;
    const char *from = run->params.line_rate_bps > 0 ? "--line-rate" : ev->net_line_from;
    fp_judgement_t *j = &ev->wire_judgement;
    ev->wire_verdict_line[0] = '\0';
    if (fp_expect_judge_wire(&run->params.expect, row->size, lo, net, hi, fp_wire_in_unit(run->bench, bps), j) ==
        FP_VERDICT_NONE)
        return;
    const char *unit = strcmp(fp_net_key(run->bench->metric), "net_gbps") == 0 ? "GB/s" : "MB/s";
    char *out = ev->wire_verdict_line;
    size_t len = sizeof ev->wire_verdict_line;
    if (isnan(net)) {
        snprintf(j->reason, sizeof j->reason, "nothing left a node: no wire rate");
        j->verdict = FP_VERDICT_INCONCLUSIVE;
    }
    fp_append(out, len, "size %zu: %s: net %.6g %s", row->size, fp_verdict_name(j->verdict), net, unit);
    if (!isnan(lo))
        fp_append(out, len, ", 95%% CI [%.6g, %.6g]", lo, hi);
    fp_append(out, len, " against %s", j->expect);
    if (!isnan(j->threshold))
        fp_append(out, len, ", threshold %.6g %s", j->threshold, unit);
    if (bps > 0)
        fp_append(out, len, " (line rate %.6g Gb/s from %s)", bps / 1e9, from);
    else if (from[0])
        fp_append(out, len, " (line rate %s)", from);
    if (j->reason[0])
        fp_append(out, len, "; %s", j->reason);
}

void fp_verdict_row(const fp_run_t *run, const fp_row_t *row, fp_evidence_t *ev)
{
    pick_line_rate(run, ev);
    const fp_estimate_t *h = &row->headline;
    ev->efficiency = ev->line_rate > 0 && isfinite(h->p50) ? h->p50 / ev->line_rate : NAN;
    fp_quantity_t q = run->bench->metric->quantity;
    double lo = row->time.has_ci ? h->lo : NAN, hi = row->time.has_ci ? h->hi : NAN;
    if (row->judged)
        ev->judgement = *row->judged;
    else
        fp_expect_judge(&run->params.expect, row->size, q, lo, h->p50, hi, ev->line_rate, &ev->judgement);
    judge_wire(run, row, ev);
    ev->verdict = ev->judgement.verdict;
    if (ev->wire_judgement.verdict > ev->verdict)
        ev->verdict = ev->wire_judgement.verdict;
    if ((fp_verdict_t)ev->nic_verdict > ev->verdict)
        ev->verdict = (fp_verdict_t)ev->nic_verdict;
    if (ev->verdict == FP_VERDICT_NONE && ev->nic_verdict == FP_VERDICT_PASS)
        ev->verdict = FP_VERDICT_PASS;
}

void fp_verdict_line(const fp_run_t *run, const fp_row_t *row, const fp_evidence_t *ev, char *out, size_t len)
{
    const fp_judgement_t *j = &ev->judgement;
    const char *unit = run->bench->metric->unit;
    out[0] = '\0';
    if (j->verdict == FP_VERDICT_NONE)
        return;
    fp_append(out, len, "size %zu: %s: median %.6g %s, ", row->size, fp_verdict_name(j->verdict), row->headline.p50,
              unit);
    if (row->time.has_ci) /* below 6 samples the bounds are the samples' range, no interval: none shown */
        fp_append(out, len, "95%% CI [%.6g, %.6g]", row->headline.lo, row->headline.hi);
    else
        fp_append(out, len, "no 95%% CI (%zu samples, 6 needed)", row->time.n);
    fp_append(out, len, " against %s", j->expect);
    if (!isnan(j->threshold))
        fp_append(out, len, ", threshold %.6g %s", j->threshold, unit);
    if (ev->line_rate_bps > 0)
        fp_append(out, len, " (line rate %.6g Gb/s from %s)", ev->line_rate_bps / 1e9, ev->line_rate_from);
    if (j->reason[0])
        fp_append(out, len, "; %s", j->reason);
}
