/* The fields of path evidence and verdicts in a row: JSON keys, CSV columns, text cells and lines.
 * JSON: "verdict" ("pass", "fail", "inconclusive", null), "expect" (the thresholds applied),
 * "line_rate_gbps", "efficiency" (0..1), "net_mbps" or "net_gbps" (what the busiest node's NICs
 * carried, in the headline's unit), "path" ({payload_bytes, summary, nics: [{node, name, share,
 * bytes, tx_bytes, rx_bytes, line_rate_gbps, virtual, rate, efficiency, wire_gbps,
 * wire_efficiency, accountable_bytes, other_traffic}], line_rate_from, nic_verdict, nic_why, link: [{node, nic, counter, delta, error}], link_errors, wire:
 * {node, shared, above_busbw, net_over_busbw, line}} or null when off). */
#include <math.h>
#include <string.h>

#include "escape.h"
#include "evidence.h"

/* The terms applied to a row: the headline's, then the PCT%wire ones. */
static void expect_text(const fp_evidence_t *ev, char *out, size_t len)
{
    out[0] = '\0';
    if (!ev)
        return;
    snprintf(out, len, "%s%s%s", ev->judgement.expect, ev->judgement.expect[0] && ev->wire_judgement.expect[0] ? "; " : "",
             ev->wire_judgement.expect);
}

void fp_evidence_json_keys(FILE *out, const struct fp_metric *metric)
{
    fprintf(out, ",\"verdict\",\"expect\",\"line_rate_gbps\",\"efficiency\",\"%s\",\"path\"", fp_net_key(metric));
}

void fp_link_json(FILE *out, const fp_link_set_t *set)
{
    fputc('[', out);
    for (int i = 0; i < set->count; i++) {
        const fp_link_moved_t *m = &set->moved[i];
        fputs(i ? ",{\"node\":" : "{\"node\":", out);
        fp_json_string(out, m->node);
        fputs(",\"nic\":", out);
        fp_json_string(out, m->nic);
        fputs(",\"counter\":", out);
        fp_json_string(out, m->counter);
        fprintf(out, ",\"delta\":%.0f,\"error\":%s}", m->delta, m->error ? "true" : "false");
    }
    fputc(']', out);
}

static void json_path(FILE *out, const fp_evidence_t *ev)
{
    fputs("{\"payload_bytes\":", out);
    fp_json_number_or_null(out, ev->payload >= 0 ? ev->payload : NAN);
    fputs(",\"summary\":", out);
    fp_json_string(out, ev->summary);
    fputs(",\"nics\":[", out);
    for (int i = 0; i < ev->nnics; i++) {
        const fp_path_nic_t *n = &ev->nics[i];
        fputs(i ? ",{\"node\":" : "{\"node\":", out);
        fp_json_string(out, n->node);
        fputs(",\"name\":", out);
        fp_json_string(out, n->name);
        fputs(",\"share\":", out);
        fp_json_number_or_null(out, n->share);
        fprintf(out, ",\"bytes\":%.0f,\"tx_bytes\":", n->bytes);
        fp_json_number_or_null(out, n->tx >= 0 ? n->tx : NAN);
        fputs(",\"rx_bytes\":", out);
        fp_json_number_or_null(out, n->rx >= 0 ? n->rx : NAN);
        fputs(",\"line_rate_gbps\":", out);
        fp_json_number_or_null(out, n->line_rate_bps > 0 ? n->line_rate_bps / 1e9 : NAN);
        fprintf(out, ",\"virtual\":%s,\"rate\":", n->is_virtual ? "true" : "false");
        fp_json_number_or_null(out, n->rate);
        fputs(",\"efficiency\":", out);
        fp_json_number_or_null(out, n->efficiency);
        fputs(",\"wire_gbps\":", out); /* bits, as line_rate_gbps */
        fp_json_number_or_null(out, n->wire * 8 / 1e9);
        fputs(",\"wire_efficiency\":", out);
        fp_json_number_or_null(out, n->wire_efficiency);
        fputs(",\"accountable_bytes\":", out);
        fp_json_number_or_null(out, n->accountable >= 0 ? n->accountable : NAN);
        fprintf(out, ",\"other_traffic\":%s}", n->other_traffic ? "true" : "false");
    }
    fputs("],\"line_rate_from\":", out);
    fp_json_string_or_null(out, ev->path_line_rate_from[0] ? ev->path_line_rate_from : NULL);
    fputs(",\"nic_verdict\":", out);
    fp_json_string_or_null(out, ev->nic_verdict ? fp_verdict_name((fp_verdict_t)ev->nic_verdict) : NULL);
    fputs(",\"nic_why\":", out);
    fp_json_string_or_null(out, ev->nic_why);
    fputs(",\"link\":", out);
    fp_link_json(out, &ev->link);
    fprintf(out, ",\"link_errors\":%d,\"wire\":", ev->link.errors);
    if (isfinite(ev->net)) {
        fputs("{\"node\":", out);
        fp_json_string(out, ev->net_node);
        fprintf(out, ",\"shared\":%s,\"above_busbw\":%s,\"net_over_busbw\":", ev->net_shared ? "true" : "false",
                ev->above_wire ? "true" : "false");
        fp_json_number_or_null(out, ev->net_over_busbw);
        fputs(",\"line\":", out);
        fp_json_string(out, ev->wire_line);
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fputc('}', out);
}

void fp_evidence_json(FILE *out, const fp_evidence_t *ev, const struct fp_metric *metric)
{
    fputs(",\"verdict\":", out);
    fp_json_string_or_null(out, ev && ev->verdict ? fp_verdict_name(ev->verdict) : NULL);
    fputs(",\"expect\":", out);
    char expect[2 * sizeof ev->judgement.expect + 2];
    expect_text(ev, expect, sizeof expect);
    fp_json_string_or_null(out, expect[0] ? expect : NULL);
    fputs(",\"line_rate_gbps\":", out);
    fp_json_number_or_null(out, ev && ev->line_rate_bps > 0 ? ev->line_rate_bps / 1e9 : NAN);
    fputs(",\"efficiency\":", out);
    fp_json_number_or_null(out, ev ? ev->efficiency : NAN);
    fprintf(out, ",\"%s\":", fp_net_key(metric));
    fp_json_number_or_null(out, ev && ev->measured ? ev->net_in_unit : NAN);
    fputs(",\"path\":", out);
    if (ev && ev->measured)
        json_path(out, ev);
    else
        fputs("null", out);
}

void fp_evidence_csv_header(FILE *out, const struct fp_metric *metric)
{
    fprintf(out, ",verdict,expect,line_rate_gbps,efficiency,%s,path", fp_net_key(metric));
}

void fp_evidence_csv(FILE *out, const fp_evidence_t *ev, const struct fp_metric *metric)
{
    fputc(',', out);
    fp_csv_field(out, ev && ev->verdict ? fp_verdict_name(ev->verdict) : "");
    fputc(',', out);
    char expect[2 * sizeof ev->judgement.expect + 2];
    expect_text(ev, expect, sizeof expect);
    fp_csv_field(out, expect);
    fputc(',', out);
    if (ev && ev->line_rate_bps > 0)
        fprintf(out, "%.9g", ev->line_rate_bps / 1e9);
    fputc(',', out);
    if (ev && isfinite(ev->efficiency))
        fprintf(out, "%.9g", ev->efficiency);
    fputc(',', out);
    (void)metric; /* the key only */
    if (ev && ev->measured && isfinite(ev->net_in_unit))
        fprintf(out, "%.9g", ev->net_in_unit);
    fputc(',', out);
    fp_csv_field(out, ev && ev->measured ? ev->summary : "");
}

void fp_evidence_text_header(FILE *out)
{
    fprintf(out, "%8s%14s", "Eff%", "Verdict");
}

void fp_evidence_text_cells(FILE *out, const fp_evidence_t *ev)
{
    if (ev && isfinite(ev->efficiency))
        fprintf(out, "%8.1f", 100 * ev->efficiency);
    else
        fprintf(out, "%8s", "-");
    fprintf(out, "%14s", ev && ev->verdict ? fp_verdict_name(ev->verdict) : "-");
}

void fp_evidence_text_lines(FILE *out, size_t size, const fp_evidence_t *ev, char *shown, size_t shownlen)
{
    if (!ev)
        return;
    if (ev->measured && (ev->payload > 0 || strcmp(shown, ev->summary) != 0)) {
        fprintf(out, "# path %zu: ", size);
        fp_text_string(out, ev->summary);
        fputc('\n', out);
        snprintf(shown, shownlen, "%s", ev->summary);
    }
    if (ev->measured && ev->verdict && ev->line_rate_bps <= 0 && ev->path_line_rate_from[0]) {
        fprintf(out, "# line rate %zu: ", size); /* why Eff% is empty */
        fp_text_string(out, ev->path_line_rate_from);
        fputs("; efficiency not computed\n", out);
    }
    if (ev->measured && ev->wire_line[0]) {
        fprintf(out, "# wire %zu: ", size);
        fp_text_string(out, ev->wire_line);
        fputc('\n', out);
    }
    if (ev->measured && ev->link.line[0]) {
        fprintf(out, "# link %zu: ", size);
        fp_text_string(out, ev->link.line);
        fputc('\n', out);
    }
    if (ev->verdict_line[0]) {
        fputs("# expect ", out);
        fp_text_string(out, ev->verdict_line);
        fputc('\n', out);
    }
    if (ev->wire_verdict_line[0]) {
        fputs("# expect wire ", out);
        fp_text_string(out, ev->wire_verdict_line);
        fputc('\n', out);
    }
    if (ev->nic_why[0]) {
        fputs("# expect-nic ", out);
        fp_text_string(out, ev->nic_why);
        fputc('\n', out);
    }
}
