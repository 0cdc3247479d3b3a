/* --expect terms: parsing and the judgement of one size's interval against them. */
#include "expect.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "units.h"

const char fp_expect_grammar[] =
    "bw>=N[@SIZES], busbw>=N[@SIZES], lat<=N[@SIZES], PCT%line[@SIZES], PCT%wire[@SIZES] or uniform[@SIZES] (all-pairs "
    "sweeps) or baseline=FILE[:TOL] (fabperf-baseline's bounds, relaxed by the fraction TOL); N and PCT decimal "
    "(11000, 1.5, 1e9); SIZES = S, S:, :S or S:S with K M G T; several comma-separated, e.g. bw>=11000@4M,90%line@1M:";

/* A message quotes the input: its control characters become '?', so that it stays one line. */
static int printable(char *err)
{
    for (char *p = err; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return FP_ERR;
}

static int bad(char *err, size_t errlen, const char *term, const char *why)
{
    snprintf(err, errlen, "--expect: '%.60s' %s (accepted: %s)", term, why, fp_expect_grammar);
    return printable(err);
}

/* "S", "S:", ":S", "S:S" -> inclusive range. */
static int parse_sizes(const char *text, size_t *lo, size_t *hi)
{
    char why[128], first[64];
    const char *colon = strchr(text, ':');
    *lo = 0;
    *hi = SIZE_MAX;
    if (!colon) {
        FP_CHECK(fp_size_parse(text, lo, why, sizeof why));
        *hi = *lo;
        return FP_OK;
    }
    size_t len = (size_t)(colon - text);
    if (len >= sizeof first || (len == 0 && colon[1] == '\0'))
        return FP_ERR;
    memcpy(first, text, len);
    first[len] = '\0';
    if (len && fp_size_parse(first, lo, why, sizeof why) != FP_OK)
        return FP_ERR;
    if (colon[1] && fp_size_parse(colon + 1, hi, why, sizeof why) != FP_OK)
        return FP_ERR;
    return *lo <= *hi ? FP_OK : FP_ERR;
}

/* A plain decimal: digits with an optional point and exponent (11000, 1.5, .5, 1e9); no sign,
 * no hex, no inf or nan, which strtod alone would take. */
static int is_decimal(const char *text, size_t len)
{
    size_t i = 0, digits = 0;
    for (; i < len && isdigit((unsigned char)text[i]); i++)
        digits++;
    if (i < len && text[i] == '.')
        for (i++; i < len && isdigit((unsigned char)text[i]); i++)
            digits++;
    if (digits == 0)
        return 0;
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        if (i < len && (text[i] == '+' || text[i] == '-'))
            i++;
        size_t first = i;
        for (; i < len && isdigit((unsigned char)text[i]); i++)
            ;
        if (i == first)
            return 0;
    }
    return i == len;
}

static int parse_number(const char *text, size_t len, double *value)
{
    char buf[48];
    if (len == 0 || len >= sizeof buf || !is_decimal(text, len))
        return FP_ERR;
    memcpy(buf, text, len);
    buf[len] = '\0';
    *value = strtod(buf, NULL);
    return isfinite(*value) ? FP_OK : FP_ERR;
}

/* QTY OP NUMBER, PCT%line, PCT%wire or uniform, before any '@'; NULL, or why it is not a threshold ("" when
 * nothing more can be said). Each quantity compares one way only: a rate must stay high, a latency
 * low; the other way would pass what the grammar calls slow. */
static const char *parse_condition(fp_expect_term_t *t, const char *text, size_t len)
{
    if (len == 7 && strncmp(text, "uniform", 7) == 0) {
        t->uniform = 1;
        return NULL;
    }
    const char *pct = memchr(text, '%', len);
    if (pct) {
        if ((size_t)(text + len - pct) != 5 || (strncmp(pct, "%line", 5) != 0 && strncmp(pct, "%wire", 5) != 0))
            return "";
        t->on_wire = strncmp(pct, "%wire", 5) == 0;
        if (parse_number(text, (size_t)(pct - text), &t->value) != FP_OK || t->value <= 0)
            return ": PCT must be a positive decimal (90, 12.5)";
        t->value /= 100.0;
        t->quantity = FP_QTY_RATE;
        t->at_least = t->of_line = 1;
        return NULL;
    }
    static const struct { const char *name, *op; fp_quantity_t q; } names[] = {
        {"busbw", ">=", FP_QTY_RATE}, {"bw", ">=", FP_QTY_RATE}, {"lat", "<=", FP_QTY_LATENCY}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i].name);
        if (len < n || strncmp(text, names[i].name, n) != 0 || (len > n && isalpha((unsigned char)text[n])))
            continue;
        if (len < n + 2 || (strncmp(text + n, ">=", 2) != 0 && strncmp(text + n, "<=", 2) != 0))
            return "";
        if (strncmp(text + n, names[i].op, 2) != 0)
            return names[i].q == FP_QTY_RATE ? ": a rate compares with >= (bw>=N, busbw>=N)"
                                             : ": a latency compares with <= (lat<=N)";
        t->quantity = names[i].q;
        t->at_least = names[i].q == FP_QTY_RATE;
        t->of_line = 0;
        if (parse_number(text + n + 2, len - n - 2, &t->value) != FP_OK)
            return ": N must be a decimal number (11000, 1.5, 1e9)";
        return NULL;
    }
    return "";
}

static int parse_term(fp_expect_term_t *t, const char *text, size_t len, char *err, size_t errlen)
{
    char term[64];
    if (len == 0 || len >= sizeof term)
        return bad(err, errlen, len ? "(too long)" : "", len ? "is too long" : "has an empty term");
    memcpy(term, text, len);
    term[len] = '\0';
    memset(t, 0, sizeof *t);
    snprintf(t->text, sizeof t->text, "%s", term);
    char *at = strchr(term, '@');
    size_t cond_len = at ? (size_t)(at - term) : len;
    const char *detail = parse_condition(t, term, cond_len);
    if (detail) {
        char why[96];
        snprintf(why, sizeof why, "is not a threshold%s", detail);
        return bad(err, errlen, term, why);
    }
    t->min_size = 0;
    t->max_size = SIZE_MAX;
    if (at && parse_sizes(at + 1, &t->min_size, &t->max_size) != FP_OK)
        return bad(err, errlen, term, "has no valid sizes after @");
    return FP_OK;
}

/* baseline=FILE[:TOL]: the file is read once the run knows its placement (expect_baseline.c). */
static int parse_baseline(fp_expect_t *e, const char *text, size_t len, char *err, size_t errlen)
{
    static const char accepted[] = "accepted: baseline=FILE or baseline=FILE:TOL, TOL a fraction from 0 to below 1";
    const char *path = text + 9;
    size_t path_len = len - 9;
    if (e->baseline_path[0]) {
        snprintf(err, errlen, "--expect: a second baseline= term (accepted: one baseline)");
        return FP_ERR;
    }
    double tolerance = 0;
    const char *colon = NULL;
    for (const char *c = path; c < path + path_len; c++)
        if (*c == ':')
            colon = c;
    if (colon && is_decimal(colon + 1, (size_t)(path + path_len - colon - 1))) {
        if (parse_number(colon + 1, (size_t)(path + path_len - colon - 1), &tolerance) != FP_OK || tolerance >= 1) {
            snprintf(err, errlen, "--expect: '%.*s': the tolerance %.*s is not a fraction (%s)", (int)(len > 200 ? 200 : len),
                     text, (int)(path + path_len - colon - 1 > 40 ? 40 : path + path_len - colon - 1), colon + 1,
                     accepted);
            return printable(err);
        }
        path_len = (size_t)(colon - path);
    }
    if (path_len == 0 || path_len >= sizeof e->baseline_path) {
        snprintf(err, errlen, "--expect: '%.*s' names no file, or one longer than %zu characters (%s)",
                 (int)(len > 200 ? 200 : len), text, sizeof e->baseline_path - 1, accepted);
        return printable(err);
    }
    memcpy(e->baseline_path, path, path_len);
    e->baseline_path[path_len] = '\0';
    e->baseline_tolerance = tolerance;
    return FP_OK;
}

int fp_expect_parse(fp_expect_t *e, const char *text, char *err, size_t errlen)
{
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len >= 9 && strncmp(p, "baseline=", 9) == 0) {
            FP_CHECK(parse_baseline(e, p, len, err, errlen));
            if (!comma)
                return FP_OK;
            p = comma + 1;
            continue;
        }
        if (e->count >= FP_EXPECT_MAX) {
            snprintf(err, errlen, "--expect: more than %d terms (accepted: %s)", FP_EXPECT_MAX, fp_expect_grammar);
            return FP_ERR;
        }
        FP_CHECK(parse_term(&e->terms[e->count], p, len, err, errlen));
        e->count++;
        if (!comma)
            return FP_OK;
        p = comma + 1;
    }
}

const char *fp_verdict_name(fp_verdict_t v)
{
    static const char *const names[] = {"none", "pass", "inconclusive", "fail"};
    return names[v];
}

/* One term's verdict; *threshold its value in the unit (NaN: line rate unknown). */
static fp_verdict_t judge_term(const fp_expect_term_t *t, double lo, double hi, double line_rate, double *threshold)
{
    *threshold = t->of_line ? (line_rate > 0 ? t->value * line_rate : NAN) : t->value;
    if (isnan(*threshold) || isnan(lo) || isnan(hi))
        return FP_VERDICT_INCONCLUSIVE;
    double good_edge = t->at_least ? lo : hi, bad_edge = t->at_least ? hi : lo;
    int good = t->at_least ? good_edge >= *threshold : good_edge <= *threshold;
    int bad_side = t->at_least ? bad_edge < *threshold : bad_edge > *threshold;
    return good ? FP_VERDICT_PASS : bad_side ? FP_VERDICT_FAIL : FP_VERDICT_INCONCLUSIVE;
}

static void append_expect(fp_judgement_t *out, const fp_expect_term_t *t, double threshold)
{
    size_t used = strlen(out->expect);
    const char *sep = used ? "; " : "";
    if (t->of_line && isnan(threshold))
        snprintf(out->expect + used, sizeof out->expect - used, "%s%s (line rate unknown)", sep, t->text);
    else if (t->of_line)
        snprintf(out->expect + used, sizeof out->expect - used, "%s%s (%s %.6g)", sep, t->text, t->at_least ? ">=" : "<=",
                 threshold);
    else
        snprintf(out->expect + used, sizeof out->expect - used, "%s%s", sep, t->text);
}

static fp_verdict_t judge_terms(const fp_expect_t *e, size_t bytes, fp_quantity_t quantity, int wire, double lo,
                                double hi, double line_rate, fp_judgement_t *out);

fp_verdict_t fp_expect_judge(const fp_expect_t *e, size_t bytes, fp_quantity_t quantity, double lo, double p50,
                             double hi, double line_rate, fp_judgement_t *out)
{
    (void)p50; /* the verdict is about the interval; p50 lies inside it */
    return judge_terms(e, bytes, quantity, 0, lo, hi, line_rate, out);
}

fp_verdict_t fp_expect_judge_wire(const fp_expect_t *e, size_t bytes, double lo, double p50, double hi,
                                  double line_rate, fp_judgement_t *out)
{
    (void)p50;
    return judge_terms(e, bytes, FP_QTY_RATE, 1, lo, hi, line_rate, out);
}

static fp_verdict_t judge_terms(const fp_expect_t *e, size_t bytes, fp_quantity_t quantity, int wire, double lo,
                                double hi, double line_rate, fp_judgement_t *out)
{
    fp_judgement_t local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    out->threshold = NAN;
    for (int i = 0; e && i < e->count + e->nfrom_baseline; i++) {
        const fp_expect_term_t *t = i < e->count ? &e->terms[i] : &e->from_baseline[i - e->count];
        if (t->uniform || t->on_wire != wire || t->quantity != quantity || bytes < t->min_size || bytes > t->max_size)
            continue;
        double threshold;
        fp_verdict_t v = judge_term(t, lo, hi, line_rate, &threshold);
        append_expect(out, t, threshold);
        if (v >= out->verdict) { /* the worst term decides, and names its threshold */
            out->verdict = v;
            out->threshold = threshold;
        }
        if (isnan(threshold) && !out->reason[0])
            snprintf(out->reason, sizeof out->reason, "line rate unknown (give --line-rate)");
        else if ((isnan(lo) || isnan(hi)) && !out->reason[0])
            snprintf(out->reason, sizeof out->reason, "no confidence interval (too few samples)");
    }
    return out->verdict;
}

unsigned fp_expect_applies(const fp_expect_t *e, size_t bytes)
{
    unsigned mask = 0;
    for (int i = 0; e && i < e->count; i++)
        if (bytes >= e->terms[i].min_size && bytes <= e->terms[i].max_size)
            mask |= 1u << i;
    return mask;
}

int fp_expect_baseline_applies(const fp_expect_t *e, size_t bytes)
{
    for (int i = 0; e && i < e->nfrom_baseline; i++)
        if (bytes >= e->from_baseline[i].min_size && bytes <= e->from_baseline[i].max_size)
            return 1;
    return 0;
}

int fp_expect_any(const fp_expect_t *e)
{
    return e->count > 0 || e->baseline_path[0];
}

void fp_expect_release(fp_expect_t *e)
{
    free(e->from_baseline);
    e->from_baseline = NULL;
    e->nfrom_baseline = 0;
}

const fp_expect_term_t *fp_expect_uniform(const fp_expect_t *e, size_t bytes)
{
    for (int i = 0; e && i < e->count; i++)
        if (e->terms[i].uniform && bytes >= e->terms[i].min_size && bytes <= e->terms[i].max_size)
            return &e->terms[i];
    return NULL;
}
