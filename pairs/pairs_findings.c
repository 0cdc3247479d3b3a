/* Rank 0's lines for the findings of a sweep and for the cells that failed an --expect threshold. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pairs.h"
#include "report.h"

/* Node findings list their row / column in "pairs" up to this many nodes (above: implied). */
#define PAIRS_LISTED_MAX_NODES 64

static FILE *out_of(const fp_run_t *run)
{
    const fp_report_t *r = run->report;
    return r && r->format != FP_FORMAT_CSV ? r->out : NULL;
}

static void pair(FILE *out, const char *const *names, size_t a, size_t b, int *first)
{
    fputs(*first ? "[" : ",[", out);
    fp_json_string(out, names[a]);
    fputc(',', out);
    fp_json_string(out, names[b]);
    fputc(']', out);
    *first = 0;
}

/* The cells behind a finding, as [sender, receiver] host names. */
static void json_pairs(FILE *out, const fp_pairs_ctx_t *pc, const fp_finding_t *f)
{
    const char *const *names = pc->name_list;
    size_t n = pc->matrix.layout.n, a = (size_t)f->a;
    int first = 1;
    if (f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH) {
        fputs(",\"pairs\":[", out);
        pair(out, names, a, (size_t)f->b, &first);
        if (f->kind == FP_FIND_LINK_BOTH)
            pair(out, names, (size_t)f->b, a, &first);
        fputc(']', out);
        return;
    }
    if (n > PAIRS_LISTED_MAX_NODES)
        return;
    fputs(",\"pairs\":[", out);
    for (size_t j = 0; j < n; j++) {
        if (f->kind != FP_FIND_RECEIVER && fp_pairs_matrix_cell((fp_pairs_matrix_t *)&pc->matrix, a, j))
            pair(out, names, a, j, &first);
        if (f->kind != FP_FIND_SENDER && fp_pairs_matrix_cell((fp_pairs_matrix_t *)&pc->matrix, j, a))
            pair(out, names, j, a, &first);
    }
    fputc(']', out);
}

static void json_cell(FILE *out, const char *key, const fp_cell_t *c)
{
    fprintf(out, ",\"%s\":", key);
    if (!c || !(c->median > 0)) {
        fputs("null", out);
        return;
    }
    fputs("{\"value\":", out);
    fp_json_number_or_null(out, c->median);
    fputs(",\"ci_lo\":", out);
    fp_json_number_or_null(out, c->lo);
    fputs(",\"ci_hi\":", out);
    fp_json_number_or_null(out, c->hi);
    fputc('}', out);
}

/* A finding's measured value, its CI and what the rest predicts. */
static void json_estimate(FILE *out, double median, double lo, double hi, double typical)
{
    fputs(",\"value\":", out);
    fp_json_number_or_null(out, median);
    fputs(",\"ci_lo\":", out);
    fp_json_number_or_null(out, lo);
    fputs(",\"ci_hi\":", out);
    fp_json_number_or_null(out, hi);
    fputs(",\"expected\":", out);
    fp_json_number_or_null(out, typical);
}

/* A finding record's end: its re-test, status, why and message. */
static void json_retest(FILE *out, const fp_cell_t *alone, const fp_cell_t *healthy, fp_retest_t status,
                        const char *why, const char *line)
{
    json_cell(out, "alone", alone);
    json_cell(out, "healthy_alone", healthy);
    fprintf(out, ",\"status\":\"%s\",\"cleared\":%s,\"why\":", fp_retest_name(status),
            status == FP_RETEST_CLEARED ? "true" : "false");
    fp_json_string(out, why);
    fputs(",\"message\":", out);
    fp_json_string(out, line);
    fputs("}\n", out);
}

static const char *direction_of(const fp_finding_t *f)
{
    static const char *const directions[] = {"send", "receive", "both", "one-way", "both-ways", "round"};
    return f->round_trip && f->kind <= FP_FIND_NODE ? "round-trip" : directions[f->kind];
}

static const char *kind_word(const fp_finding_t *f)
{
    return f->kind == FP_FIND_ROUND ? "slow_round"
           : f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH ? "slow_link"
                                                                      : "slow_node";
}

/* The cells of round a (shift b) as [sender, receiver] names. */
static void json_round_pairs(FILE *out, const fp_pairs_ctx_t *pc, const fp_finding_t *f)
{
    size_t n = pc->matrix.layout.n;
    int first = 1;
    fputs(",\"pairs\":[", out);
    for (size_t i = 0; n <= PAIRS_LISTED_MAX_NODES && i < n; i++)
        pair(out, pc->name_list, i, (i + (size_t)f->b) % n, &first);
    fputc(']', out);
}

static void json_finding(FILE *out, fp_run_t *run, size_t bytes, const fp_finding_t *f, const fp_cell_t *alone,
                         const fp_cell_t *healthy, fp_retest_t status, const char *why, const char *line)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int link = f->kind == FP_FIND_LINK || f->kind == FP_FIND_LINK_BOTH, round = f->kind == FP_FIND_ROUND;
    fprintf(out, "{\"type\":\"finding\",\"size\":%zu,\"quantity\":\"%s\",\"unit\":\"%s\",\"kind\":\"%s\","
                 "\"direction\":\"%s\",\"nodes\":[",
            bytes, pc->kind->quantity == FP_QTY_LATENCY ? "latency" : "bandwidth", fp_pairs_unit(run), kind_word(f),
            direction_of(f));
    if (!round)
        fp_json_string(out, pc->name_list[f->a]);
    if (link) {
        fputc(',', out);
        fp_json_string(out, pc->name_list[f->b]);
    }
    fputs("],\"ranks\":[", out);
    if (!round)
        fprintf(out, "%d", f->a);
    if (link)
        fprintf(out, ",%d", f->b);
    fputc(']', out);
    if (round) {
        fprintf(out, ",\"round\":%d,\"shift\":%d", f->a + 1, f->b);
        json_round_pairs(out, pc, f);
    } else {
        json_pairs(out, pc, f);
    }
    json_estimate(out, f->median, f->lo, f->hi, f->typical);
    fprintf(out, ",\"cells\":%zu,\"confirmed\":%zu,\"z\":", f->cells, f->confirmed);
    fp_json_number_or_null(out, f->z);
    json_retest(out, alone, healthy, status, why, line);
}

/* The re-test's sentence. */
static void retest_why(const fp_run_t *run, const fp_cell_t *alone, const fp_cell_t *healthy, fp_retest_t status,
                       int retested, int round, double link_floor, char *buf, size_t len)
{
    char floor_text[160], shown[32];
    fp_resolution_text(link_floor, shown, sizeof shown);
    snprintf(floor_text, sizeof floor_text, "undecided (slower, but by less than the %s that this matrix's noise "
             "lets a healthy link show)", shown);
    const char *unit = fp_pairs_unit(run);
    const char *what = round ? "run again" : "alone";
    const char *base = round ? "a typical round run again" : "healthy pairs alone";
    if (!retested) {
        snprintf(buf, len, "not re-measured: no healthy partner to compare with: undecided");
    } else if (!(alone->median > 0)) {
        snprintf(buf, len, "not re-measured: the re-test budget was spent: undecided");
    } else {
        static const char *const verdicts[] = {
            "undecided (neither clearly slower nor as fast)",
            "stands",
            "cleared (congestion of the sweep, or a transient)",
        };
        snprintf(buf, len, "%s %.4g %s [%.4g, %.4g] against %s %.4g %s [%.4g, %.4g] (%.2f x): %s", what,
                 alone->median, unit, alone->lo, alone->hi, base, healthy->median, unit, healthy->lo, healthy->hi,
                 alone->median / healthy->median,
                 status == FP_RETEST_UNDECIDED && link_floor > 1.0 ? floor_text : verdicts[status]);
    }
}

void fp_pairs_emit_finding(fp_run_t *run, size_t bytes, const fp_finding_t *f, const fp_cell_t *alone,
                           const fp_cell_t *healthy, fp_retest_t status, int retested, double link_floor,
                           const char *explained_by)
{
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    char line[1024], why[400];
    if (!out)
        return;
    fp_finding_format(f, pc->name_list, fp_pairs_unit(run), line, sizeof line);
    retest_why(run, alone, healthy, status, retested, f->kind == FP_FIND_ROUND, link_floor, why, sizeof why);
    if (explained_by && status != FP_RETEST_STANDS) { /* slow alone too, but carried by a slow element */
        size_t at = strlen(why);
        char *verdict = strrchr(why, ':');
        if (verdict && retested && alone->median > 0)
            at = (size_t)(verdict - why);
        snprintf(why + at, sizeof why - at, ": %s (%s)", fp_retest_name(status), explained_by);
    }
    flockfile(out);
    if (run->report->format == FP_FORMAT_JSON) {
        char full[1500];
        snprintf(full, sizeof full, "%s; %s", line, why);
        json_finding(out, run, bytes, f, alone, healthy, status, why, full);
    } else {
        fprintf(out, "# finding at %zu bytes: %s; %s\n", bytes, line, why);
    }
    funlockfile(out);
    fflush(out);
}

static const char *switch_name(const fp_pairs_ctx_t *pc, int sw)
{
    return pc->topology.sw[sw].name;
}

void fp_pairs_uplink_line(const fp_pairs_ctx_t *pc, const fp_uplink_finding_t *f, const char *unit, char *buf,
                          size_t len)
{
    static const char *const ways[] = {"up, out of it", "down, into it", "both ways"};
    char also[FP_TOPO_NAME + 48] = "";
    if (f->alt_sw >= 0)
        snprintf(also, sizeof also, "; or %s's, %s", switch_name(pc, f->alt_sw), fp_uplink_dir_name(f->alt_dir));
    snprintf(buf, len,
             "slow uplink of %s (%s%s): %.4g %s [%.4g, %.4g] over %zu cells, typical %.4g %s (%.2f x); the sweep "
             "put up to %zu flows on it at once",
             switch_name(pc, f->sw), ways[f->dir], also, f->median, unit, f->lo, f->hi, f->cells, f->typical, unit,
             f->median / f->typical, f->flows);
}

/* The re-test's sentence for an uplink: pairs across it alone against pairs inside its switch alone. */
static void uplink_why(const fp_run_t *run, const fp_uplink_finding_t *f, const fp_cell_t *alone,
                       const fp_cell_t *healthy, fp_retest_t status, int retested, char *buf, size_t len)
{
    const char *unit = fp_pairs_unit(run);
    if (!retested) {
        snprintf(buf, len, "not re-measured: too few ranks on either side to compare with: undecided");
    } else if (!(alone->median > 0)) {
        snprintf(buf, len, "not re-measured: the re-test budget was spent: undecided");
    } else {
        char verdict[200];
        if (status == FP_RETEST_CLEARED)
            snprintf(verdict, sizeof verdict,
                     "cleared: congestion of the uplink (as fast as inside the switch when alone; the sweep put up "
                     "to %zu of its flows on it at once)",
                     f->flows);
        else
            snprintf(verdict, sizeof verdict, "%s",
                     status == FP_RETEST_STANDS ? "stands (slow alone too)" : "undecided (neither clearly slower nor as fast)");
        snprintf(buf, len, "across it alone %.4g %s [%.4g, %.4g] against pairs inside %s alone %.4g %s [%.4g, %.4g] "
                 "(%.2f x): %s", alone->median, unit, alone->lo, alone->hi,
                 fp_pairs_ctx((fp_ctx_t *)&run->ctx)->topology.sw[f->sw].name, healthy->median, unit, healthy->lo,
                 healthy->hi, alone->median / healthy->median, verdict);
    }
}

static void json_uplink(FILE *out, fp_run_t *run, size_t bytes, const fp_uplink_tree_t *tree,
                        const fp_uplink_finding_t *f, const fp_cell_t *alone, const fp_cell_t *healthy,
                        fp_retest_t status, const char *why, const char *line)
{
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    const fp_topology_t *t = &pc->topology;
    fprintf(out, "{\"type\":\"finding\",\"size\":%zu,\"quantity\":\"%s\",\"unit\":\"%s\",\"kind\":\"slow_uplink\","
                 "\"direction\":\"%s\",\"switch\":",
            bytes, pc->kind->quantity == FP_QTY_LATENCY ? "latency" : "bandwidth", fp_pairs_unit(run),
            fp_uplink_dir_name(f->dir));
    fp_json_string(out, t->sw[f->sw].name);
    fputs(",\"parent\":", out);
    fp_json_string_or_null(out, t->sw[f->sw].parent >= 0 ? t->sw[t->sw[f->sw].parent].name : NULL);
    fputs(",\"also\":", out);
    if (f->alt_sw >= 0) {
        fputs("{\"switch\":", out);
        fp_json_string(out, t->sw[f->alt_sw].name);
        fprintf(out, ",\"direction\":\"%s\"}", fp_uplink_dir_name(f->alt_dir));
    } else {
        fputs("null", out);
    }
    fputs(",\"nodes\":[", out); /* the hosts under the switch, each once */
    int first = 1;
    size_t n = pc->matrix.layout.n;
    for (size_t r = 0; r < n; r++) {
        int seen = 0;
        for (size_t q = 0; q < r && !seen; q++)
            seen = pc->switch_of[q] == pc->switch_of[r] && strcmp(pc->name_list[q], pc->name_list[r]) == 0;
        if (seen || !fp_uplink_under(tree, (int)r, f->sw))
            continue;
        fputs(first ? "" : ",", out);
        fp_json_string(out, pc->name_list[r]);
        first = 0;
    }
    fputs("],\"ranks\":[]", out);
    if (n <= PAIRS_LISTED_MAX_NODES) { /* the cells it carries, measured */
        fputs(",\"pairs\":[", out);
        first = 1;
        for (size_t r = 0; r < pc->matrix.layout.nshifts; r++)
            for (size_t a = 0; a < n; a++) {
                size_t b = (a + pc->matrix.layout.shift[r]) % n;
                if (pc->matrix.cells[r * n + a].median > 0 && fp_uplink_crosses(tree, f, (int)a, (int)b))
                    pair(out, pc->name_list, a, b, &first);
            }
        fputc(']', out);
    }
    json_estimate(out, f->median, f->lo, f->hi, f->typical);
    fprintf(out, ",\"cells\":%zu,\"confirmed\":%zu,\"flows\":%zu,\"z\":", f->cells, f->confirmed, f->flows);
    fp_json_number_or_null(out, f->z);
    json_retest(out, alone, healthy, status, why, line);
}

void fp_pairs_emit_uplink(fp_run_t *run, size_t bytes, const fp_uplink_tree_t *tree, const fp_uplink_finding_t *f,
                          const fp_cell_t *alone, const fp_cell_t *healthy, fp_retest_t status, int retested)
{
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    char line[1024], why[600];
    if (!out)
        return;
    fp_pairs_uplink_line(pc, f, fp_pairs_unit(run), line, sizeof line);
    uplink_why(run, f, alone, healthy, status, retested, why, sizeof why);
    flockfile(out);
    if (run->report->format == FP_FORMAT_JSON) {
        char full[1700];
        snprintf(full, sizeof full, "%s; %s", line, why);
        json_uplink(out, run, bytes, tree, f, alone, healthy, status, why, full);
    } else {
        fprintf(out, "# finding at %zu bytes: %s; %s\n", bytes, line, why);
    }
    funlockfile(out);
    fflush(out);
}

static void places_list(FILE *out, unsigned places, int round_trip)
{
    static const char *const names[] = {"sender", "receiver", "link"};
    int first = 1;
    fputc('[', out);
    for (int k = 0; k < 3; k++)
        if ((places & (1u << k)) && !(round_trip && k == 1)) {
            fprintf(out, "%s\"%s\"", first ? "" : ",", round_trip && k == 0 ? "node" : names[k]);
            first = 0;
        }
    fputc(']', out);
}

void fp_pairs_emit_judge(fp_run_t *run, size_t bytes, const fp_pairs_verdict_t *v, const fp_judge_summary_t *s)
{
    static const char *const modes[] = {"shift", "isolated", "sampled"};
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    int round_trip = run->params.pairs_mode == FP_PAIRS_ISOLATED && pc->kind->quantity == FP_QTY_LATENCY;
    if (!out)
        return;
    char uplinks[160] = "";
    if (v->uplinks && v->uplinks_unjudged)
        snprintf(uplinks, sizeof uplinks, "; uplinks: %zu judged, %zu with too few ranks or cells to judge",
                 v->uplinks_judged, v->uplinks_unjudged);
    else if (v->uplinks)
        snprintf(uplinks, sizeof uplinks, "; uplinks: %zu judged", v->uplinks_judged);
    flockfile(out);
    if (run->report->format == FP_FORMAT_JSON) {
        fprintf(out, "{\"type\":\"judge\",\"size\":%zu,\"quantity\":\"%s\",\"unit\":\"%s\",\"mode\":\"%s\","
                     "\"nodes\":%zu,\"decided\":%s,\"reason\":",
                bytes, pc->kind->quantity == FP_QTY_LATENCY ? "latency" : "bandwidth", fp_pairs_unit(run),
                modes[run->params.pairs_mode], pc->matrix.layout.n, v->decided ? "true" : "false");
        fp_json_string(out, v->reason);
        fputs(",\"places\":", out);
        places_list(out, v->places, round_trip);
        fprintf(out, ",\"suspects\":%zu,\"stands\":%zu,\"cleared\":%zu,\"undecided\":%zu,\"budget_s\":", v->suspects,
                v->stands, v->cleared, v->undecided);
        fp_json_number_or_null(out, v->budget_s);
        fputs(",\"spent_s\":", out);
        fp_json_number_or_null(out, v->spent_s);
        fputs(",\"min_effect\":", out);
        fp_json_number_or_null(out, run->params.pairs_min_effect);
        fputs(",\"noise\":", out);
        fp_json_number_or_null(out, s->sigma);
        fputs(",\"z_node\":", out);
        fp_json_number_or_null(out, s->z_node);
        fputs(",\"z_link\":", out);
        fp_json_number_or_null(out, s->z_link);
        if (v->uplinks)
            fprintf(out, ",\"uplinks\":{\"judged\":%zu,\"unjudged\":%zu}", v->uplinks_judged, v->uplinks_unjudged);
        else
            fputs(",\"uplinks\":null", out);
        fputs("}\n", out);
    } else if (!v->places) {
        fprintf(out, "# judge at %zu bytes: %s: no finding can be claimed, and none is excluded%s\n", bytes, v->reason,
                uplinks);
    } else {
        fprintf(out,
                "# judge at %zu bytes: %s%zu nodes, cell noise %.1f %%, screen z <= -%.2f (nodes) -%.2f (links), "
                "effects >= %.0f %%; %zu suspect(s), re-tested in %.1f s of a %.1f s budget: %zu stand, %zu "
                "cleared, %zu undecided%s%s%s\n",
                bytes, v->decided ? "" : "cannot judge the whole matrix, what stands stands: ", pc->matrix.layout.n,
                100.0 * (exp(s->sigma) - 1.0), s->z_node, s->z_link, 100.0 * run->params.pairs_min_effect,
                v->suspects, v->spent_s, v->budget_s, v->stands, v->cleared, v->undecided, uplinks,
                v->reason[0] ? "; " : "", v->reason);
    }
    funlockfile(out);
    fflush(out);
}

static void json_threshold(FILE *out, const fp_pairs_ctx_t *pc, size_t bytes, const fp_judgement_t *j, size_t a,
                           size_t b, const fp_cell_t *c, double samples)
{
    fprintf(out, "{\"type\":\"verdict\",\"size\":%zu,\"expect\":", bytes);
    fp_json_string(out, j->expect);
    fputs(",\"verdict\":\"fail\",\"threshold\":", out);
    fp_json_number_or_null(out, j->threshold);
    fputs(",\"pair\":[", out);
    fp_json_string(out, pc->name_list[a]);
    fputc(',', out);
    fp_json_string(out, pc->name_list[b]);
    fprintf(out, "],\"ranks\":[%zu,%zu],\"value\":", a, b);
    fp_json_number_or_null(out, c->median);
    fputs(",\"ci_lo\":", out);
    fp_json_number_or_null(out, fp_pairs_shown_bound(c->lo, samples));
    fputs(",\"ci_hi\":", out);
    fp_json_number_or_null(out, fp_pairs_shown_bound(c->hi, samples));
    fputs("}\n", out);
}

void fp_pairs_emit_threshold(fp_run_t *run, size_t bytes, const fp_judgement_t *j, size_t a, size_t b,
                             const fp_cell_t *c)
{
    FILE *out = out_of(run);
    const fp_pairs_ctx_t *pc = fp_pairs_ctx(&run->ctx);
    if (!out)
        return;
    double samples = c ? pc->matrix.samples[c - pc->matrix.cells] : NAN;
    flockfile(out);
    if (!j && run->report->format == FP_FORMAT_TEXT)
        fprintf(out, "# expect at %zu bytes: %zu cells failed in all (the first 20 shown)\n", bytes, a);
    else if (j && run->report->format == FP_FORMAT_TEXT && !isnan(fp_pairs_shown_bound(c->lo, samples)))
        fprintf(out, "# expect failed at %zu bytes: %s -> %s %.4g %s [%.4g, %.4g] against %s\n", bytes,
                pc->name_list[a], pc->name_list[b], c->median, fp_pairs_unit(run), c->lo, c->hi, j->expect);
    else if (j && run->report->format == FP_FORMAT_TEXT)
        fprintf(out, "# expect failed at %zu bytes: %s -> %s %.4g %s (%.0f samples: no interval) against %s\n",
                bytes, pc->name_list[a], pc->name_list[b], c->median, fp_pairs_unit(run), samples, j->expect);
    else if (j)
        json_threshold(out, pc, bytes, j, a, b, c, samples);
    funlockfile(out);
    fflush(out);
}
